// Ward console, Consents: the account's consent definitions (GET /api/v1/consent-definitions: key, title,
// type, status, required, current version, its languages) and New consent definition (manage:settings):
// key, type, required, and the title and description per language of version 1, checked here with the
// schema's rules, then PUT /api/v1/consent-definitions/{key}; a key already taken is refused, not replaced.
(function () {
  'use strict';
  var C = window.WardConsole,
    h = C.h,
    $ = C.$;
  var enc = encodeURIComponent,
    td = C.td,
    words = C.consentWords;

  var list = async function () {
    return (await C.api('GET', '/api/v1/consent-definitions')).consent_definitions;
  };

  C.pages.consents = async function () {
    var form = $('#nc-form');
    async function load() {
      var defs = (await list()).sort(function (a, b) {
        return a.key < b.key ? -1 : 1;
      });
      C.fill(
        $('#consents-table tbody'),
        defs.map(function (d) {
          var v = C.currentVersion(d),
            href = '/console/consents/' + enc(d.key);
          return h(
            'tr',
            { 'data-key': d.key },
            h('td', {}, h('a', { href: href }, d.key)),
            td(v.texts[0].title),
            td(words.type[d.consent_type] || d.consent_type),
            td(words.status[d.status] || d.status),
            td(d.required ? 'Yes' : 'No'),
            td('Version ' + v.version_id),
            td(
              v.texts
                .map(function (t) {
                  return t.language;
                })
                .join(', '),
            ),
            h('td', {}, h('a', { href: href, 'aria-label': 'Open ' + d.key }, 'Open')),
          );
        }),
        8,
        'No consent definition yet.',
      );
    }
    if (form) {
      var editor = C.consentTexts('nc');
      editor.set([]);
      form.addEventListener('submit', function (e) {
        e.preventDefault();
        var key = form.elements.key,
          read = editor.read(),
          pattern = new RegExp(key.dataset.pattern),
          problems = [];
        key.value = key.value.trim();
        if (!pattern.test(key.value))
          problems.push({ el: key, message: 'The key must be ' + key.dataset.allowed + '.' });
        if (C.showProblems(form, problems.concat(read.problems))) return;
        var body = {
          consent_type: form.elements.consent_type.value,
          required: form.elements.required.checked,
          versions: [{ version_id: 1, texts: read.texts }],
        };
        C.run(
          async function () {
            var taken = (await list()).some(function (d) {
              return d.key === key.value;
            });
            if (taken) {
              C.showProblems(form, [
                {
                  el: key,
                  message: 'A consent definition ' + key.value + ' exists already: open it to publish a new version.',
                },
              ]);
              return;
            }
            try {
              await C.api('PUT', '/api/v1/consent-definitions/' + enc(key.value), body);
            } catch (err) {
              var fields = { key: key, consent_type: form.elements.consent_type };
              var problems = editor.problems(err.details, 0).map(function (p, i) {
                var d = err.details[i];
                return fields[d.field] ? { el: fields[d.field], message: p.message } : p;
              });
              if (!C.showProblems(form, problems)) throw err;
              return;
            }
            C.go('/console/consents/' + enc(key.value), 'Consent definition ' + key.value + ' created.');
          },
          form.querySelector('button[type=submit]'),
          'Creating…',
        );
      });
    }
    await load();
  };
})();
