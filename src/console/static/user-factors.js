// Ward console, a user's second factors (after users.js and user-admin.js): every factor but passkeys
// (those have their own table) from GET /api/v1/users/{id}/factors — email, SMS, authenticator app — with
// Remove (manage:users, DELETE .../mfa-credentials/{id}, after the confirmation dialog), the recovery
// codes left, and Reset all factors: a required reason, the confirmation dialog, then
// POST .../factors/reset (audited with the reason; the user is told). Nothing is made for the user.
(function () {
  'use strict';
  var C = window.WardConsole,
    h = C.h,
    $ = C.$;
  var enc = encodeURIComponent;
  var td = C.td;
  var TYPE = { email: 'Email', sms: 'SMS', totp: 'Authenticator app' };

  var userPage = C.pages.user;
  C.pages.user = async function () {
    await userPage();
    var id = decodeURIComponent(location.pathname.split('/')[3] || ''),
      base = '/api/v1/users/' + enc(id),
      resetForm = $('#reset-factors-form');

    function row(f) {
      var what = f.destination || TYPE[f.type] || f.type,
        action = null;
      if (C.can('manage:users')) {
        action = h('button', { type: 'button', class: 'danger', 'aria-label': 'Remove factor ' + what }, 'Remove');
        action.addEventListener('click', async function () {
          var app = f.type === 'totp';
          if (
            !(await C.confirm({
              title: 'Remove this factor?',
              confirm: 'Remove factor',
              danger: true,
              message:
                'The ' +
                (app ? 'authenticator app (with its recovery codes)' : (TYPE[f.type] || f.type) + ' factor ' + what) +
                ' is removed and the trusted devices of this user are forgotten. The user is told.',
            }))
          )
            return;
          C.run(
            async function () {
              await C.api('DELETE', base + '/mfa-credentials/' + enc(f.id));
              await load();
              C.status('Factor removed.');
            },
            action,
            'Removing…',
          );
        });
      }
      return h(
        'tr',
        {},
        td(TYPE[f.type] || f.type),
        td(f.destination),
        td(f.verified ? 'yes' : 'no'),
        td(C.date(f.created_at)),
        td(f.last_used_at ? C.date(f.last_used_at) : 'never'),
        h('td', {}, action),
      );
    }

    async function load() {
      var listing = await C.api('GET', base + '/factors');
      C.fill(
        $('#factors-table tbody'),
        listing.factors
          .filter(function (f) {
            return f.type !== 'passkey';
          })
          .map(row),
        6,
        'No second factor.',
      );
      $('#recovery-codes-left').textContent = 'Recovery codes: ' + listing.recovery_codes_left + ' left.';
    }

    if (resetForm)
      resetForm.addEventListener('submit', async function (e) {
        e.preventDefault();
        var reason = resetForm.elements.reason;
        reason.removeAttribute('aria-invalid');
        if (reason.value.trim().length < 3) {
          reason.setAttribute('aria-invalid', 'true');
          C.error('Give the reason (at least 3 characters): it is kept in the audit trail.');
          reason.focus();
          return;
        }
        if (
          !(await C.confirm({
            title: 'Reset all factors of this user?',
            confirm: 'Reset all factors',
            danger: true,
            message:
              'Every second factor, passkey and recovery code of this user is removed and their trusted devices are ' +
              'forgotten. They sign in with their password alone until they enrol new factors. The user is told.',
          }))
        )
          return;
        C.run(
          async function () {
            var out = await C.api('POST', base + '/factors/reset', { reason: reason.value.trim() });
            C.go(
              location.pathname,
              'All factors reset: ' +
                out.removed_factors +
                ' factors, ' +
                out.removed_passkeys +
                ' passkeys and ' +
                out.removed_recovery_codes +
                ' recovery codes removed.',
            );
          },
          resetForm.querySelector('button[type=submit]'),
          'Resetting…',
        );
      });

    await load();
  };
})();
