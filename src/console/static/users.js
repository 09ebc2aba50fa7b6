// Ward console, Users: search; one user's profile with Disable / Enable and Revoke all sessions
// (manage:users), the console role (manage:roles: Administrators only), and their passkeys with Remove
// (the other factors: user-factors.js). Every destructive action asks in the confirmation dialog first.
(function () {
  'use strict';
  var C = window.WardConsole,
    h = C.h,
    $ = C.$;
  var enc = encodeURIComponent;
  var td = C.td;
  var ROLE = { viewer: 'Viewer', developer: 'Developer', manager: 'Manager', administrator: 'Administrator' };

  C.pages.users = async function () {
    var form = $('#user-search'),
      tbody = $('#users-table tbody');
    async function load() {
      var q = form.elements.q.value.trim();
      var data = await C.api('GET', '/api/v1/users' + (q ? '?q=' + enc(q) : ''));
      C.fill(
        tbody,
        data.users.map(function (u) {
          return h(
            'tr',
            {},
            h('td', {}, h('a', { href: '/console/users/' + enc(u.id) }, u.email || u.phone_number || u.id)),
            td([u.given_name, u.family_name].filter(Boolean).join(' ')),
            td(u.phone_number),
            td(ROLE[u.role]),
            td(u.disabled ? 'Disabled' : 'Active'),
            td(C.date(u.created_at)),
          );
        }),
        6,
        'No user matches.',
      );
    }
    form.addEventListener('submit', function (e) {
      e.preventDefault();
      C.run(load, form.querySelector('button'), 'Searching…');
    });
    await load();
  };

  C.pages.user = async function () {
    var id = decodeURIComponent(location.pathname.split('/')[3] || ''),
      base = '/api/v1/users/' + enc(id);
    var toggle = $('#toggle-disabled'),
      revoke = $('#revoke-sessions'),
      roleForm = $('#role-form'),
      user = null;
    function show(u) {
      user = u;
      $('h1').textContent = 'User ' + (u.email || u.id);
      document.title = 'User ' + (u.email || u.id) + ' · Ward console';
      C.dl($('#user-details'), [
        ['ID', u.id],
        ['Email', u.email],
        ['Name', [u.given_name, u.family_name].filter(Boolean).join(' ')],
        ['Phone', u.phone_number],
        ['Role', ROLE[u.role] || 'None'],
        ['Status', u.disabled ? 'Disabled' : 'Active'],
        ['Created', C.date(u.created_at)],
      ]);
      if (toggle) toggle.textContent = u.disabled ? 'Enable user' : 'Disable user';
      if (roleForm) roleForm.elements.role.value = u.role || '';
    }
    async function load() {
      var u = await C.api('GET', base);
      show(u);
      var passkeys = await C.api('GET', base + '/passkeys');
      C.fill(
        $('#passkeys-table tbody'),
        passkeys.map(function (k) {
          var action = null;
          if (C.can('manage:users')) {
            action = h(
              'button',
              { type: 'button', class: 'danger', 'aria-label': 'Remove passkey ' + k.friendly_name },
              'Remove',
            );
            action.addEventListener('click', async function () {
              var ok = await C.confirm({
                title: 'Remove this passkey?',
                confirm: 'Remove passkey',
                danger: true,
                message:
                  'The passkey ' + k.friendly_name + ' no longer signs in. The user can recover with account recovery.',
              });
              if (!ok) return;
              C.run(
                async function () {
                  await C.api('DELETE', base + '/passkeys/' + enc(k.id));
                  await load();
                  C.status('Passkey removed.');
                },
                action,
                'Removing…',
              );
            });
          }
          return h(
            'tr',
            {},
            td(k.friendly_name),
            td(k.device_type === 'multiDevice' ? 'Synced' : 'This device only'),
            td(C.date(k.created_at)),
            td(k.last_used_at ? C.date(k.last_used_at) : 'never'),
            h('td', {}, action),
          );
        }),
        5,
        'No passkey.',
      );
    }
    if (toggle)
      toggle.addEventListener('click', async function () {
        var disable = !user.disabled;
        if (
          disable &&
          !(await C.confirm({
            title: 'Disable ' + (user.email || user.id) + '?',
            confirm: 'Disable user',
            danger: true,
            message:
              'They can no longer sign in, and their sessions and tokens end now. You can enable them again later.',
          }))
        )
          return;
        C.run(
          async function () {
            show(Object.assign({}, user, await C.api('PATCH', base, { disabled: disable })));
            C.status(disable ? 'User disabled: their sessions and tokens ended.' : 'User enabled.');
          },
          toggle,
          disable ? 'Disabling…' : 'Enabling…',
        );
      });
    if (revoke)
      revoke.addEventListener('click', async function () {
        if (
          !(await C.confirm({
            title: 'Revoke all sessions?',
            confirm: 'Revoke sessions',
            danger: true,
            message: 'Every session of this user ends and their tokens are revoked.',
          }))
        )
          return;
        C.run(
          async function () {
            await C.api('POST', base + '/sessions/revoke', {});
            C.status('Sessions revoked.');
          },
          revoke,
          'Revoking…',
        );
      });
    if (roleForm)
      roleForm.addEventListener('submit', function (e) {
        e.preventDefault();
        var role = roleForm.elements.role.value || null;
        C.run(
          async function () {
            try {
              show(Object.assign({}, user, await C.api('PUT', base + '/role', { role: role })));
            } catch (err) {
              roleForm.elements.role.value = user.role || '';
              throw err;
            }
            C.status('Role saved: ' + (ROLE[role] || 'no role') + '.');
          },
          roleForm.querySelector('button[type=submit]'),
          'Saving the role…',
        );
      });
    await load();
  };
})();
