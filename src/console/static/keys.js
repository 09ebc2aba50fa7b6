// Ward console, signing keys: a key table with Revoke behind a confirmation dialog (used by a
// client's page and by Site keys), and the Site keys page (the global key set, Rotate site key).
(function () {
  'use strict';
  var C = window.WardConsole,
    h = C.h,
    $ = C.$;
  var enc = encodeURIComponent;
  var td = C.td;
  var STATUS = { current: 'Current', previous: 'Previous (grace period)', revoked: 'Revoked' };

  /** Fills tbody with keys; revoke(kid) runs after the user confirms (manage:keys only). */
  C.keyRows = function (tbody, keys, empty, revoke, what) {
    C.fill(
      tbody,
      keys.map(function (k) {
        var action = null;
        if (C.can('manage:keys') && k.status !== 'revoked') {
          action = h('button', { type: 'button', class: 'danger', 'aria-label': 'Revoke key ' + k.kid }, 'Revoke');
          action.addEventListener('click', async function () {
            var yes = await C.confirm({
              title: 'Revoke key ' + k.kid + '?',
              confirm: 'Revoke key',
              danger: true,
              message:
                'It leaves the JWKS' +
                (what ? ' of ' + what : '') +
                ' at once and tokens it signed stop validating.' +
                (k.status === 'current' ? ' A current key is replaced.' : ''),
            });
            if (!yes) {
              C.status('Nothing revoked.');
              return;
            }
            C.run(
              function () {
                return revoke(k.kid);
              },
              action,
              'Revoking…',
            );
          });
        }
        return h(
          'tr',
          { 'data-kid': k.kid },
          h('td', {}, h('code', {}, k.kid)),
          td(k.alg),
          td(STATUS[k.status] || k.status),
          td(C.date(k.created_at)),
          td(C.date(k.retired_at)),
          td(C.date(k.revoked_at)),
          h('td', {}, action),
        );
      }),
      7,
      empty,
    );
  };

  C.pages['site-keys'] = async function () {
    var rotate = $('#rotate-site'),
      family = $('#rotate-site-alg');
    async function load() {
      var data = await C.api('GET', '/api/v1/site/keys');
      C.keyRows(
        $('#site-keys-table tbody'),
        data.keys,
        'No global key yet.',
        async function (kid) {
          await C.api('DELETE', '/api/v1/site/keys/' + enc(kid));
          await load();
          C.status('Global key ' + kid + ' revoked.');
        },
        'the site',
      );
    }
    if (rotate)
      rotate.addEventListener('click', function () {
        C.run(
          async function () {
            var k = await C.api('POST', '/api/v1/site/keys', family ? { alg: family.value } : {});
            await load();
            C.status('New global key ' + k.kid + ' is current.');
          },
          rotate,
          'Generating a key pair…',
        );
      });
    await load();
  };
})();
