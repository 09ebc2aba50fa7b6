// Ward console, one consent definition (/console/consents/<key>): its details and every version's texts;
// with manage:settings, Archive (behind the confirmation dialog) / Reactivate, Make required / optional,
// and Publish a new version: the current version's texts to edit, checked here, then the definition
// PUT back whole with the new version (the next version_id) added, which makes it current.
(function () {
  'use strict';
  var C = window.WardConsole,
    h = C.h,
    $ = C.$;
  var enc = encodeURIComponent,
    td = C.td,
    words = C.consentWords;

  C.pages.consent = async function () {
    var key = decodeURIComponent(location.pathname.split('/')[3] || ''),
      base = '/api/v1/consent-definitions/' + enc(key);
    var statusBtn = $('#toggle-status'),
      requiredBtn = $('#toggle-required'),
      form = $('#nv-form'),
      editor = form && C.consentTexts('nv'),
      d = null;

    function show(def) {
      d = def;
      var v = C.currentVersion(d);
      $('h1').textContent = 'Consent definition ' + d.key;
      document.title = 'Consent definition ' + d.key + ' · Ward console';
      C.dl($('#consent-details'), [
        ['Key', d.key],
        ['Type', words.type[d.consent_type] || d.consent_type],
        ['Status', words.status[d.status] || d.status],
        ['Required at signup', d.required ? 'Yes' : 'No'],
        ['Current version', 'Version ' + v.version_id],
        [
          'Languages',
          v.texts
            .map(function (t) {
              return t.language;
            })
            .join(', '),
        ],
      ]);
      if (statusBtn) statusBtn.textContent = d.status === 'archived' ? 'Reactivate' : 'Archive';
      if (requiredBtn) {
        requiredBtn.textContent = d.required ? 'Make optional' : 'Make required';
        // An archived definition cannot be required: no signup could give it.
        requiredBtn.disabled = d.status === 'archived';
      }
      var rows = [];
      d.versions
        .slice()
        .sort(function (a, b) {
          return b.version_id - a.version_id;
        })
        .forEach(function (version) {
          var label =
            'Version ' +
            version.version_id +
            (version.version_id === v.version_id ? ' (current)' : '') +
            (version.require_reconsent ? ', asked again' : '');
          version.texts.forEach(function (t) {
            rows.push(
              h(
                'tr',
                { 'data-version': version.version_id },
                td(label),
                td(t.language),
                td(t.title),
                td(t.description),
              ),
            );
          });
        });
      C.fill($('#versions-table tbody'), rows, 4, 'No version.');
    }
    /** The definition PUT back whole with `change` (what the API answers). */
    async function save(change) {
      var body = Object.assign({}, d, change);
      delete body.key;
      show(await C.api('PUT', base, body));
    }

    var all = (await C.api('GET', '/api/v1/consent-definitions')).consent_definitions;
    var found = all.find(function (x) {
      return x.key === key;
    });
    if (!found) {
      ['#publish-section', '.actions', '#status-hint'].forEach(function (sel) {
        var el = $(sel);
        if (el) el.remove();
      });
      throw new Error('There is no consent definition ' + key + '.');
    }
    show(found);
    if (editor) editor.set(C.currentVersion(d).texts);

    if (statusBtn)
      statusBtn.addEventListener('click', async function () {
        var archive = d.status !== 'archived';
        if (
          archive &&
          !(await C.confirm({
            title: 'Archive ' + d.key + '?',
            confirm: 'Archive',
            danger: true,
            message:
              'It is no longer offered at signup nor in the remote settings, and no longer written; users’ ' +
              'consents and their history keep it.' +
              (d.required ? ' It stops being required at signup.' : '') +
              ' You can reactivate it later.',
          }))
        )
          return;
        C.run(
          async function () {
            await save(archive ? { status: 'archived', required: false } : { status: 'active' });
            C.status(archive ? 'Consent definition archived.' : 'Consent definition reactivated.');
          },
          statusBtn,
          archive ? 'Archiving…' : 'Reactivating…',
        );
      });
    if (requiredBtn)
      requiredBtn.addEventListener('click', function () {
        var required = !d.required;
        C.run(
          async function () {
            await save({ required: required });
            C.status(required ? 'Now required at signup.' : 'No longer required at signup.');
          },
          requiredBtn,
          'Saving…',
        );
      });
    if (form)
      form.addEventListener('submit', function (e) {
        e.preventDefault();
        var read = editor.read();
        if (C.showProblems(form, read.problems)) return;
        var next = C.currentVersion(d).version_id + 1,
          reconsent = $('#nv-reconsent').checked,
          versions = d.versions.concat([{ version_id: next, texts: read.texts, require_reconsent: reconsent }]);
        C.run(
          async function () {
            try {
              await save({ versions: versions });
            } catch (err) {
              if (!C.showProblems(form, editor.problems(err.details, versions.length - 1))) throw err;
              return;
            }
            editor.set(C.currentVersion(d).texts);
            $('#nv-reconsent').checked = false;
            C.status(
              'Version ' +
                next +
                ' published: it is the current version now.' +
                (reconsent ? ' Users on an older version are asked again at their next sign-in.' : ''),
            );
          },
          $('#publish'),
          'Publishing…',
        );
      });
  };
})();
