// Ward console, Audit log: filters (action, actor, target, since / until) and paging. A page asks the
// API for one event more than it shows, to know whether an older page exists; "Older" continues
// after the last event shown (before = its time, before_id = its id); "Newer" goes back a page. Each row
// shows the event's details (such as the reason of a factor reset).
(function () {
  'use strict';
  var C = window.WardConsole,
    h = C.h,
    $ = C.$;
  var td = C.td;

  /** An event's details as "key: value; ..." (e.g. the reason of a factor reset); secrets are never in them. */
  function details(d) {
    return Object.keys(d || {})
      .map(function (k) {
        var v = d[k];
        return k + ': ' + (v !== null && typeof v === 'object' ? JSON.stringify(v) : String(v));
      })
      .join('; ');
  }

  C.pages.audit = async function () {
    var form = $('#audit-filter'),
      tbody = $('#audit-table tbody'),
      older = $('#audit-older'),
      newer = $('#audit-newer');
    var seen = {},
      cursors = [],
      cursor = null,
      last = null,
      hasMore = false;

    function query() {
      var q = new URLSearchParams(),
        e = form.elements,
        limit = Number(e.limit.value);
      ['action', 'actor', 'target'].forEach(function (n) {
        var v = e[n].value.trim();
        if (v) q.set(n, v);
      });
      ['since', 'until'].forEach(function (n) {
        if (e[n].value) q.set(n, new Date(e[n].value).toISOString());
      });
      q.set('limit', String(limit + 1));
      if (cursor) {
        q.set('before', cursor.at);
        q.set('before_id', cursor.id);
      }
      return { q: q, limit: limit };
    }
    async function load() {
      var req = query();
      var data = await C.api('GET', '/api/v1/audit?' + req.q.toString());
      var events = data.events.slice(0, req.limit),
        more = data.events.length > req.limit;
      events.forEach(function (e) {
        if (!seen[e.action]) {
          seen[e.action] = true;
          $('#audit-actions').append(h('option', { value: e.action }));
        }
      });
      C.fill(
        tbody,
        events.map(function (e) {
          return h(
            'tr',
            { 'data-id': e.id },
            td(C.date(e.at)),
            h('td', {}, h('code', {}, e.action)),
            td(e.actor_type + ' ' + e.actor_id),
            td(e.target),
            td(e.outcome),
            td(details(e.details)),
          );
        }),
        6,
        'No event.',
      );
      last = events.length ? events[events.length - 1] : null;
      hasMore = more;
      settle();
      $('#audit-page').textContent =
        'Page ' + (cursors.length + 1) + (events.length ? ', ' + events.length + ' events' : '');
    }
    /** run() re-enables the pressed button afterwards: set both again from the page shown. */
    var settle = function () {
      older.disabled = !hasMore;
      newer.disabled = cursors.length === 0;
    };
    var go = function (button, label) {
      return C.run(load, button, label).then(settle);
    };
    form.addEventListener('submit', function (e) {
      e.preventDefault();
      cursors = [];
      cursor = null;
      go(form.querySelector('button[type=submit]'), 'Filtering…');
    });
    older.addEventListener('click', function () {
      if (!last) return;
      cursors.push(cursor);
      cursor = { at: last.at, id: last.id };
      go(older, 'Loading older events…');
    });
    newer.addEventListener('click', function () {
      if (!cursors.length) return;
      cursor = cursors.pop();
      go(newer, 'Loading newer events…');
    });
    await load();
  };
})();
