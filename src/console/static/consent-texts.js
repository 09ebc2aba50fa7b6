// Ward console, consents: what the Consents pages share. The texts editor of a version: one fieldset
// per language (language, title, description) with Add a language and Remove, read and checked with the
// rules the page carries from the settings schema (a language tag, each language once, a title, the
// lengths); the problems (the page's own checks, or the API's error_details) marked on their fields
// and said in the alert region. And the words for consent types, states and reporters.
(function () {
  'use strict';
  var C = window.WardConsole,
    h = C.h,
    $ = C.$;
  var seq = 0;

  C.consentWords = {
    type: { 'opt-in': 'Opt-in', 'opt-out': 'Opt-out', 'double-opt-in': 'Double opt-in' },
    status: { active: 'Active', archived: 'Archived' },
    reporter: { end_user: 'The user', managed: 'An administrator', import: 'An import' },
    /** A consent or history entry's state in words. */
    state: function (c) {
      if (c.waiting_double_accept) return 'Waiting for the mailed confirmation';
      return c.granted ? 'Granted' : 'Not granted';
    },
  };
  /** The current version of a definition: the highest version_id. */
  C.currentVersion = function (d) {
    return d.versions.reduce(function (a, b) {
      return b.version_id > a.version_id ? b : a;
    });
  };
  /** A language tag as Ward matches texts: fr_FR is fr-FR. */
  var same = function (tag) {
    return String(tag).toLowerCase().replace('_', '-');
  };

  /**
   * Shows problems ([{el, message}]) on a form: each field marked invalid, every message in the alert
   * region, the focus on the first. False when there is none.
   */
  C.showProblems = function (form, problems) {
    form.querySelectorAll('[aria-invalid]').forEach(function (el) {
      el.removeAttribute('aria-invalid');
    });
    if (!problems.length) return false;
    problems.forEach(function (p) {
      if (p.el) p.el.setAttribute('aria-invalid', 'true');
    });
    C.error(
      problems
        .map(function (p) {
          return p.message;
        })
        .join(' '),
    );
    var first = problems.find(function (p) {
      return p.el;
    });
    if (first) first.el.focus();
    return true;
  };

  /** The editor of the texts in #<p>-texts. */
  C.consentTexts = function (p) {
    var box = $('#' + p + '-texts'),
      rules = box.dataset,
      languagePattern = new RegExp(rules.languagePattern);

    function rows() {
      return Array.from(box.querySelectorAll('fieldset.consent-text'));
    }
    /** Numbers the fieldsets; the first is the fallback language; a single one cannot be removed. */
    function renumber() {
      var all = rows();
      all.forEach(function (set, i) {
        set.querySelector('legend').textContent = 'Language ' + (i + 1) + (i === 0 ? ' (the fallback)' : '');
        var remove = set.querySelector('button');
        remove.setAttribute('aria-label', 'Remove language ' + (i + 1));
        remove.disabled = all.length === 1;
      });
    }
    function add(t) {
      var id = p + '-t' + ++seq;
      var remove = h('button', { type: 'button', class: 'danger' }, 'Remove');
      var set = h(
        'fieldset',
        { class: 'consent-text' },
        h('legend', {}),
        h('label', { for: id + '-language' }, 'Language'),
        h('input', {
          id: id + '-language',
          name: 'language',
          type: 'text',
          list: 'consent-languages',
          maxlength: 35,
          autocomplete: 'off',
          spellcheck: 'false',
          placeholder: 'en, fr-FR',
          required: true,
        }),
        h('label', { for: id + '-title' }, 'Title'),
        h('input', { id: id + '-title', name: 'title', type: 'text', maxlength: rules.titleMax, required: true }),
        h('label', { for: id + '-description' }, 'Description'),
        h('textarea', { id: id + '-description', name: 'description', rows: 3, maxlength: rules.descriptionMax }),
        remove,
      );
      set.querySelector('[name=language]').value = t.language || '';
      set.querySelector('[name=title]').value = t.title || '';
      set.querySelector('[name=description]').value = t.description || '';
      remove.addEventListener('click', function () {
        var next = set.nextElementSibling || set.previousElementSibling;
        set.remove();
        renumber();
        if (next) next.querySelector('input').focus();
      });
      box.append(set);
      renumber();
      return set;
    }
    $('#' + p + '-add-text').addEventListener('click', function () {
      add({}).querySelector('input').focus();
    });

    return {
      /** Replaces the fieldsets with these texts (one empty fieldset for none). */
      set: function (texts) {
        box.replaceChildren();
        (texts.length ? texts : [{}]).forEach(add);
      },
      /** The texts as the API takes them, and the problems found in them ([{el, message}]). */
      read: function () {
        var problems = [],
          seen = [];
        var texts = rows().map(function (set, i) {
          var f = function (name) {
            return set.querySelector('[name=' + name + ']');
          };
          var n = 'Language ' + (i + 1) + ': ';
          var t = {
            language: f('language').value.trim(),
            title: f('title').value.trim(),
            description: f('description').value,
          };
          if (!languagePattern.test(t.language))
            problems.push({ el: f('language'), message: n + 'the language must be ' + rules.languageAllowed + '.' });
          else if (seen.indexOf(same(t.language)) >= 0)
            problems.push({ el: f('language'), message: n + t.language + ' has a text already: one per language.' });
          seen.push(same(t.language));
          if (!t.title || t.title.length > Number(rules.titleMax))
            problems.push({
              el: f('title'),
              message: n + 'the title is required (at most ' + rules.titleMax + ' characters).',
            });
          if (t.description.length > Number(rules.descriptionMax))
            problems.push({
              el: f('description'),
              message: n + 'the description has at most ' + rules.descriptionMax + ' characters.',
            });
          return t;
        });
        if (!texts.length) problems.push({ el: $('#' + p + '-add-text'), message: 'Give at least one language.' });
        return { texts: texts, problems: problems };
      },
      /**
       * The API's error_details on these texts (fields such as versions.2.texts.0.title, `version` the
       * index of the version they are) as problems; the others as they are.
       */
      problems: function (details, version) {
        var all = rows();
        return details.map(function (d) {
          // versions.1.texts.0.title (the request's shape) or versions[1].texts[0].title (the settings' rules).
          var m = /^versions[.[](\d+)\]?\.texts(?:[.[](\d+)\]?)?(?:\.(\w+))?$/.exec(d.field || '');
          if (!m || Number(m[1]) !== version) return { el: null, message: d.field + ': ' + d.message + '.' };
          var set = m[2] === undefined ? null : all[Number(m[2])];
          if (!set) return { el: all[0] && all[0].querySelector('input'), message: 'The texts: ' + d.message + '.' };
          return {
            el: set.querySelector('[name=' + (m[3] || 'language') + ']'),
            message: 'Language ' + (Number(m[2]) + 1) + ', the ' + (m[3] || 'text') + ': ' + d.message + '.',
          };
        });
      },
    };
  };
})();
