// Ward console, one client: its settings (the shared client form), regenerate the secret (after a
// confirmation; shown once), delete the client (after a confirmation), and its signing keys: the key
// state, Rotate and Account sync (enabled for RS256, ES256 and EdDSA, with a hint for HS256), Revoke per key.
(function () {
  'use strict';
  var C = window.WardConsole,
    $ = C.$;
  var enc = encodeURIComponent;

  C.pages.client = async function () {
    var id = decodeURIComponent(location.pathname.split('/')[3] || ''),
      base = '/api/v1/clients/' + enc(id);
    $('h1').textContent = 'Client ' + id;
    document.title = 'Client ' + id + ' · Ward console';
    var form = $('#client-form'),
      rotate = $('#rotate'),
      sync = $('#sync'),
      regen = $('#regenerate-secret'),
      del = $('#delete-client');
    var keyState = { rs: false, own: false };
    /** Rotate needs a key-pair algorithm; Account sync also a key of its own (run() re-enables its button: set again after). */
    function keyButtons() {
      if (rotate) rotate.disabled = !keyState.rs;
      if (sync) sync.disabled = !keyState.rs || !keyState.own;
    }

    function showClient(c) {
      C.dl($('#client-details'), [
        ['Client ID', c.client_id],
        ['Created', C.date(c.created_at)],
        ['Updated', C.date(c.updated_at)],
      ]);
      C.clientForm.write(form, c);
      var secretSection = $('#secret-section');
      if (secretSection) secretSection.hidden = c.type === 'public';
    }
    async function loadKeys(c) {
      var keys = await C.api('GET', base + '/keys'),
        rs = c.jwt_algorithm !== 'HS256';
      $('#key-state').textContent =
        keys.state === 'client_specific' ? 'Client-specific key pair' : 'Synced with global';
      keyState = { rs: rs, own: keys.state === 'client_specific' };
      keyButtons();
      $('#key-hint').textContent = !C.can('manage:keys')
        ? 'Read-only: rotating, syncing and revoking keys needs the manage:keys permission (Developer and above).'
        : rs
          ? 'Rotate gives this client a new key pair of its own, of its algorithm (' +
            c.jwt_algorithm +
            '); Account sync sends it back to the global pair. A replaced key stays published as previous for a grace period.'
          : 'Rotate and Account sync need RS256, ES256 or EdDSA: choose one under JWT Algorithm first (an HS256 client signs with its secret).';
      C.keyRows(
        $('#keys-table tbody'),
        keys.keys,
        'This client has no key of its own: it signs with the global pair.',
        async function (kid) {
          await C.api('DELETE', base + '/jwks/' + enc(kid));
          await load();
          C.status('Key ' + kid + ' revoked.');
        },
        'this client',
      );
    }
    async function load() {
      var c = await C.api('GET', base);
      showClient(c);
      await loadKeys(c);
      return c;
    }

    C.clientForm.bind(form, async function (body) {
      var updated = await C.api('PATCH', base, body);
      await load();
      if (updated.client_secret) C.showSecret(updated.client_id, updated.client_secret);
      C.status('Client saved.' + (updated.client_secret ? ' It is confidential now: copy its new secret.' : ''));
    });
    if (regen)
      regen.addEventListener('click', async function () {
        var yes = await C.confirm({
          title: 'Regenerate the secret of ' + id + '?',
          confirm: 'Regenerate secret',
          danger: true,
          message: 'The current secret stops working at once: every application using it must be given the new one.',
        });
        if (!yes) return;
        C.run(
          async function () {
            var c = await C.api('POST', base + '/secret', {});
            C.showSecret(c.client_id, c.client_secret);
            C.status('New secret generated: copy it now.');
          },
          regen,
          'Regenerating…',
        );
      });
    if (del)
      del.addEventListener('click', async function () {
        var yes = await C.confirm({
          title: 'Delete client ' + id + '?',
          confirm: 'Delete client',
          danger: true,
          message:
            'Its applications can no longer sign users in and its own signing keys are revoked. This cannot be undone.',
        });
        if (!yes) return;
        C.run(
          async function () {
            await C.api('DELETE', base);
            C.go('/console/clients', 'Client ' + id + ' deleted.');
          },
          del,
          'Deleting…',
        );
      });
    if (rotate)
      rotate.addEventListener('click', function () {
        C.run(
          async function () {
            var k = await C.api('POST', base + '/keys', {});
            await load();
            C.status('New key ' + k.kid + ' is current.');
          },
          rotate,
          'Generating a key pair…',
        ).then(keyButtons);
      });
    if (sync)
      sync.addEventListener('click', function () {
        C.run(
          async function () {
            await C.api('PUT', base + '/keys', {});
            await load();
            C.status('Synced with the global key pair.');
          },
          sync,
          'Syncing…',
        ).then(keyButtons);
      });
    await load();
  };
})();
