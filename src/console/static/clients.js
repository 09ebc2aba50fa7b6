// Ward console, Clients: the list (search by id or name) and "New client" (the shared client form;
// a confidential client's generated secret is shown once in the secret panel).
(function () {
  'use strict';
  var C = window.WardConsole,
    h = C.h,
    $ = C.$;
  var enc = encodeURIComponent;
  var td = C.td;

  C.pages.clients = async function () {
    var form = $('#client-search'),
      tbody = $('#clients-table tbody');
    async function load() {
      var q = form.elements.q.value.trim();
      var data = await C.api('GET', '/api/v1/clients' + (q ? '?q=' + enc(q) : ''));
      C.fill(
        tbody,
        data.clients.map(function (c) {
          return h(
            'tr',
            {},
            h('td', {}, h('a', { href: '/console/clients/' + enc(c.client_id) }, c.client_id)),
            td(c.name),
            td(c.type),
            td(c.jwt_algorithm),
            td(c.key_mode === 'client' ? 'Client-specific' : 'Synced with global'),
          );
        }),
        5,
        'No client matches.',
      );
    }
    form.addEventListener('submit', function (e) {
      e.preventDefault();
      C.run(load, form.querySelector('button'), 'Searching…');
    });
    await load();
  };

  C.pages['create-client'] = async function () {
    var form = $('#client-form');
    if (!C.can('manage:clients')) {
      C.error('Creating a client needs the manage:clients permission (Developer and above).');
    }
    // The defaults of the API: code and refresh; client credentials and the password grant are opt-in.
    form.elements.grant_types.forEach(function (g) {
      g.checked = g.value === 'authorization_code' || g.value === 'refresh_token';
    });
    form.elements.scope.value = 'openid profile email';
    C.clientForm.bind(form, async function (body) {
      var created = await C.api('POST', '/api/v1/clients', body);
      var link = h('a', { href: '/console/clients/' + enc(created.client_id) }, 'Open ' + created.client_id);
      if (created.client_secret) {
        C.showSecret(created.client_id, created.client_secret);
        form.replaceWith(h('p', { class: 'done' }, 'Client ' + created.client_id + ' created. ', link));
        C.status('Client ' + created.client_id + ' created.');
      } else {
        C.go('/console/clients/' + enc(created.client_id), 'Client ' + created.client_id + ' created.');
      }
    });
  };
})();
