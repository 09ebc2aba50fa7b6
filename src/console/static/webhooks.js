// Ward console, webhooks: what the Webhooks pages share (the endpoint form read and written, the health in words) and the Webhooks page's endpoints: the list (URL, events,
// enabled, health) and New endpoint, whose generated whsec_ secret is shown once. Every call needs
// manage:webhooks: a role without it sees a notice and no list.
(function () {
  'use strict';
  var C = window.WardConsole,
    h = C.h,
    $ = C.$;
  var enc = encodeURIComponent;

  /** The endpoint form (#<p>-form): its fields as the API takes them. */
  function readForm(p) {
    var form = $('#' + p + '-form');
    var all = $('#' + p + '-all').checked;
    var events = all
      ? ['*']
      : Array.from(form.querySelectorAll('input[name="event"]:checked')).map(function (i) {
          return i.value;
        });
    return {
      url: form.elements.url.value.trim(),
      description: form.elements.description.value,
      enabled: form.elements.enabled.checked,
      events: events,
    };
  }
  function writeForm(p, w) {
    var form = $('#' + p + '-form');
    form.elements.url.value = w.url || '';
    form.elements.description.value = w.description || '';
    form.elements.enabled.checked = w.enabled !== false;
    var all = (w.events || []).indexOf('*') >= 0;
    $('#' + p + '-all').checked = all;
    form.querySelectorAll('input[name="event"]').forEach(function (i) {
      i.checked = !all && w.events.indexOf(i.value) >= 0;
      i.disabled = all;
    });
  }
  function bindForm(p, submit) {
    var form = $('#' + p + '-form');
    if (!form) return;
    var all = $('#' + p + '-all');
    all.addEventListener('change', function () {
      form.querySelectorAll('input[name="event"]').forEach(function (i) {
        i.disabled = all.checked;
      });
    });
    form.addEventListener('submit', function (e) {
      e.preventDefault();
      var body = readForm(p);
      if (!body.url) return C.error('The URL is required.');
      if (!body.events.length) return C.error('Choose at least one event, or All events.');
      C.run(
        function () {
          return submit(body);
        },
        form.querySelector('button[type="submit"]'),
        'Saving…',
      );
    });
  }

  /** The health of an endpoint in words. */
  C.webhookHealth = function (w) {
    if (!w.enabled) return w.disabled_reason === 'failing' ? 'Disabled by Ward: failing for a day' : 'Disabled';
    if (w.consecutive_failures) return 'Failing: ' + w.consecutive_failures + ' failed attempt(s) in a row';
    return w.last_success_at ? 'Healthy' : 'No delivery yet';
  };
  C.webhookForm = { read: readForm, write: writeForm, bind: bindForm };
  C.endpointEvents = function (events) {
    return events.indexOf('*') >= 0 ? 'All events (*)' : events.join(', ');
  };

  C.pages.webhooks = async function () {
    if (!C.can('manage:webhooks')) {
      $('#wh-denied').hidden = false;
      $('#endpoints-section').remove();
      $('#hooks-section').remove();
      return;
    }
    async function load() {
      var data = await C.api('GET', '/api/v1/webhooks');
      C.fill(
        $('#webhooks-table tbody'),
        data.webhooks.map(function (w) {
          return h(
            'tr',
            { 'data-id': w.id },
            h(
              'td',
              {},
              h('a', { href: '/console/webhooks/' + enc(w.id) }, w.url),
              w.managed_by === 'config' ? h('span', { class: 'hint' }, ' (config file)') : null,
            ),
            h('td', {}, C.endpointEvents(w.events)),
            h('td', {}, w.enabled ? 'Yes' : 'No'),
            h('td', {}, C.webhookHealth(w)),
            h('td', {}, h('a', { href: '/console/webhooks/' + enc(w.id), 'aria-label': 'Open ' + w.url }, 'Open')),
          );
        }),
        5,
        'No webhook endpoint yet.',
      );
    }
    bindForm('wn', async function (body) {
      var made = await C.api('POST', '/api/v1/webhooks', body);
      $('#wn-form').reset();
      writeForm('wn', { events: [] });
      await load();
      C.showOnce($('#secret-slot'), 'Signing secret of ' + made.url, made.secret);
      C.status('Endpoint ' + made.url + ' registered.');
    });
    await load();
    if (C.pages.hooksSection) await C.pages.hooksSection();
  };
})();
