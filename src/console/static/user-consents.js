// Ward console, a user's consents (after users.js, user-admin.js and user-factors.js): from
// GET /api/v1/users/{id}/profile-consents, each consent of the user (state, the version and language
// given, type, when, who reported it) and every change of them, newest first. A consent is named by its
// definition's title when the role may read the definitions, else by its key.
(function () {
  'use strict';
  var C = window.WardConsole,
    h = C.h,
    $ = C.$;
  var enc = encodeURIComponent,
    td = C.td,
    words = C.consentWords;

  var userPage = C.pages.user;
  C.pages.user = async function () {
    await userPage();
    var id = decodeURIComponent(location.pathname.split('/')[3] || '');
    var data = await C.api('GET', '/api/v1/users/' + enc(id) + '/profile-consents');
    var titles = {};
    if (C.can('read:settings'))
      (await C.api('GET', '/api/v1/consent-definitions')).consent_definitions.forEach(function (d) {
        titles[d.key] = C.currentVersion(d).texts[0].title;
      });
    var name = function (key) {
      return titles[key] ? titles[key] + ' (' + key + ')' : key;
    };
    var version = function (c) {
      return c.consent_version ? 'Version ' + c.consent_version.version_id : null;
    };
    var language = function (c) {
      return c.consent_version ? c.consent_version.language : null;
    };
    var reporter = function (c) {
      return words.reporter[c.reporter] || c.reporter;
    };
    C.fill(
      $('#user-consents-table tbody'),
      Object.keys(data.consents)
        .sort()
        .map(function (key) {
          var c = data.consents[key];
          return h(
            'tr',
            { 'data-key': key },
            td(name(key)),
            td(words.state(c)),
            td(version(c)),
            td(language(c)),
            td(words.type[c.consent_type] || c.consent_type),
            td(C.date(c.date)),
            td(reporter(c)),
          );
        }),
      7,
      'No consent given or refused.',
    );
    C.fill(
      $('#consent-history-table tbody'),
      data.history
        .slice()
        .reverse()
        .map(function (c) {
          return h(
            'tr',
            { 'data-key': c.key },
            td(C.date(c.date)),
            td(name(c.key)),
            td(words.state(c)),
            td(version(c)),
            td(language(c)),
            td(reporter(c)),
          );
        }),
      6,
      'No change yet.',
    );
  };
})();
