// Ward console, pages (a classic script after console.js): Clients (list, search, view, JWT
// Algorithm, key state, Rotate / Account sync enabled only for RS256, keys with Revoke behind a
// confirmation), Account settings (MFA required and verification numbers), Users (search, view,
// remove a factor, revoke sessions) and the Audit log (filter by action). Controls the role may not
// use are never created; the management API refuses them anyway.
(function () {
  'use strict';
  var C = window.WardConsole, h = C.h, $ = C.$;
  var enc = encodeURIComponent;
  var td = function (v) { return h('td', {}, v === null || v === undefined || v === '' ? '—' : v); };
  var idFromPath = function () { return decodeURIComponent(location.pathname.split('/')[3] || ''); };
  var title = function (text) { $('h1').textContent = text; document.title = text + ' · Ward console'; };

  C.pages.clients = async function () {
    var form = $('#client-search'), tbody = $('#clients-table tbody');
    async function load() {
      var q = form.elements.q.value.trim();
      var data = await C.api('GET', '/api/v1/clients' + (q ? '?q=' + enc(q) : ''));
      C.fill(tbody, data.clients.map(function (c) {
        return h('tr', {}, h('td', {}, h('a', { href: '/console/clients/' + enc(c.client_id) }, c.client_id)), td(c.name), td(c.type),
          td(c.jwt_algorithm), td(c.key_mode === 'client' ? 'Client-specific' : 'Synced with global'));
      }), 5, 'No client matches.');
    }
    form.addEventListener('submit', function (e) { e.preventDefault(); C.run(load, form.querySelector('button'), 'Searching…'); });
    await load();
  };

  C.pages.client = async function () {
    var id = idFromPath(), base = '/api/v1/clients/' + enc(id);
    title('Client ' + id);
    var algForm = $('#alg-form'), select = $('#alg'), rotate = $('#rotate'), sync = $('#sync'), savedAlg = null;
    if (!C.can('manage:clients')) select.disabled = true;
    async function load() {
      var both = await Promise.all([C.api('GET', base), C.api('GET', base + '/keys')]);
      var c = both[0], keys = both[1], rs = c.jwt_algorithm === 'RS256';
      C.dl($('#client-details'), [['Client ID', c.client_id], ['Name', c.name], ['Type', c.type],
        ['Allowed callback URLs', c.allowed_callback_urls.join(', ')], ['Allowed origins', c.allowed_origins.join(', ')],
        ['SSO', c.sso ? 'on' : 'off'], ['PKCE enforced', c.pkce_enforced ? 'yes' : 'no']]);
      select.value = savedAlg = c.jwt_algorithm;
      $('#key-state').textContent = keys.state === 'client_specific' ? 'Client-specific key pair' : 'Synced with global';
      if (rotate) rotate.disabled = !rs;
      if (sync) sync.disabled = !rs || keys.state !== 'client_specific';
      $('#key-hint').textContent = !C.can('manage:keys') ? 'Read-only: rotating, syncing and revoking keys needs the manage:keys permission (Developer and above).' : rs
        ? 'Rotate gives this client a new key pair of its own; Account sync sends it back to the global pair. A replaced key stays published as previous for a grace period.'
        : 'Rotate and Account sync need RS256: choose RS256 under JWT Algorithm first (an HS256 client signs with its secret).';
      C.fill($('#keys-table tbody'), keys.keys.map(function (k) {
        var action = null;
        if (C.can('manage:keys') && k.status !== 'revoked') {
          action = h('button', { type: 'button', class: 'danger', 'aria-label': 'Revoke key ' + k.kid }, 'Revoke');
          action.addEventListener('click', function () {
            if (!window.confirm('Revoke key ' + k.kid + '? It leaves the JWKS at once and tokens it signed stop validating.')) return;
            C.run(async function () { await C.api('DELETE', base + '/jwks/' + enc(k.kid)); await load(); C.status('Key ' + k.kid + ' revoked.'); }, action, 'Revoking…');
          });
        }
        return h('tr', { 'data-kid': k.kid }, h('td', {}, h('code', {}, k.kid)), td(k.status), td(C.date(k.created_at)),
          td(C.date(k.retired_at)), td(C.date(k.revoked_at)), h('td', {}, action));
      }), 6, 'This client has no key of its own: it signs with the global pair.');
    }
    algForm.addEventListener('submit', function (e) {
      e.preventDefault();
      var btn = algForm.querySelector('button');
      C.run(async function () {
        try { await C.api('PATCH', base, { jwt_algorithm: select.value }); } catch (err) { select.value = savedAlg; throw err; }
        await load();
        C.status('JWT Algorithm saved: ' + select.value + '.');
      }, btn, 'Saving…');
    });
    if (rotate) rotate.addEventListener('click', function () {
      C.run(async function () { var k = await C.api('POST', base + '/keys', {}); await load(); C.status('New key ' + k.kid + ' is current.'); }, rotate, 'Generating a key pair…');
    });
    if (sync) sync.addEventListener('click', function () {
      C.run(async function () { await C.api('PUT', base + '/keys', {}); await load(); C.status('Synced with the global key pair.'); }, sync, 'Syncing…');
    });
    await load();
  };

  var NUMBERS = ['verification_code_length', 'verification_code_ttl', 'verification_max_attempts', 'verification_requests_per_step_up', 'access_token_ttl', 'id_token_ttl'];
  C.pages.settings = async function () {
    var form = $('#settings-form');
    var s = await C.api('GET', '/api/v1/settings/account');
    form.elements.mfa_required.value = String(s.mfa_required).toLowerCase();
    NUMBERS.forEach(function (n) { form.elements[n].value = String(s[n]); });
    if (!C.can('manage:settings')) Array.prototype.forEach.call(form.elements, function (el) { el.disabled = true; });
    form.addEventListener('submit', function (e) {
      e.preventDefault();
      var patch = { mfa_required: form.elements.mfa_required.value };
      NUMBERS.forEach(function (n) { patch[n] = Number(form.elements[n].value); });
      C.run(async function () { await C.api('PATCH', '/api/v1/settings/account', patch); C.status('Settings saved.'); }, form.querySelector('button[type=submit]'), 'Saving…');
    });
  };

  C.pages.users = async function () {
    var form = $('#user-search'), tbody = $('#users-table tbody');
    async function load() {
      var q = form.elements.q.value.trim();
      var data = await C.api('GET', '/api/v1/users' + (q ? '?q=' + enc(q) : ''));
      C.fill(tbody, data.users.map(function (u) {
        return h('tr', {}, h('td', {}, h('a', { href: '/console/users/' + enc(u.id) }, u.email || u.phone_number || u.id)),
          td([u.given_name, u.family_name].filter(Boolean).join(' ')), td(u.phone_number), td(u.role), td(C.date(u.created_at)));
      }), 5, 'No user matches.');
    }
    form.addEventListener('submit', function (e) { e.preventDefault(); C.run(load, form.querySelector('button'), 'Searching…'); });
    await load();
  };

  C.pages.user = async function () {
    var id = idFromPath(), base = '/api/v1/users/' + enc(id);
    async function load() {
      var u = await C.api('GET', base);
      title('User ' + (u.email || u.id));
      C.dl($('#user-details'), [['ID', u.id], ['Email', u.email], ['Name', [u.given_name, u.family_name].filter(Boolean).join(' ')],
        ['Phone', u.phone_number], ['Role', u.role], ['Disabled', u.disabled ? 'yes' : 'no'], ['Created', C.date(u.created_at)]]);
      C.fill($('#factors-table tbody'), u.mfa_credentials.map(function (f) {
        var action = null;
        if (C.can('manage:users')) {
          action = h('button', { type: 'button', class: 'danger', 'aria-label': 'Remove factor ' + f.destination }, 'Remove');
          action.addEventListener('click', function () {
            if (!window.confirm('Remove the ' + f.type + ' factor ' + f.destination + '?')) return;
            C.run(async function () { await C.api('DELETE', base + '/mfa-credentials/' + enc(f.id)); await load(); C.status('Factor removed.'); }, action, 'Removing…');
          });
        }
        return h('tr', {}, td(f.type === 'sms' ? 'SMS' : 'Email'), td(f.destination), td(f.verified ? 'yes' : 'no'), td(C.date(f.created_at)), h('td', {}, action));
      }), 5, 'No second factor.');
    }
    var revoke = $('#revoke-sessions');
    if (revoke) revoke.addEventListener('click', function () {
      if (!window.confirm('End every session of this user and revoke their tokens?')) return;
      C.run(async function () { await C.api('POST', base + '/sessions/revoke', {}); C.status('Sessions revoked.'); }, revoke, 'Revoking…');
    });
    await load();
  };

  C.pages.audit = async function () {
    var form = $('#audit-filter'), tbody = $('#audit-table tbody'), seen = {};
    async function load() {
      var action = form.elements.action.value.trim();
      var data = await C.api('GET', '/api/v1/audit?limit=100' + (action ? '&action=' + enc(action) : ''));
      data.events.forEach(function (e) { if (!seen[e.action]) { seen[e.action] = true; $('#audit-actions').append(h('option', { value: e.action })); } });
      C.fill(tbody, data.events.map(function (e) {
        return h('tr', {}, td(C.date(e.at)), h('td', {}, h('code', {}, e.action)), td(e.actor_type + ' ' + e.actor_id), td(e.target), td(e.outcome));
      }), 5, 'No event.');
    }
    form.addEventListener('submit', function (e) { e.preventDefault(); C.run(load, form.querySelector('button'), 'Filtering…'); });
    await load();
  };
})();
