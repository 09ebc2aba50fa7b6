// Ward console, one webhook endpoint (/console/webhooks/<id>): its settings (Edit endpoint), Enable /
// Disable, Send test event, Rotate secret (the new whsec_ shown once; the old one still signs for the
// chosen overlap), Delete behind the confirmation dialog, its health, its recent deliveries with their
// attempts (status, latency, first bytes of the answer) and Resend, and Replay a time range.
(function () {
  'use strict';
  var C = window.WardConsole,
    h = C.h,
    $ = C.$;
  var enc = encodeURIComponent;
  var OVERLAP = { 0: 'no overlap', 3600: 'one hour', 86400: 'one day', 604800: 'seven days' };

  C.pages.webhook = async function () {
    var id = decodeURIComponent(location.pathname.split('/').pop());
    var base = '/api/v1/webhooks/' + enc(id);
    var manage = C.can('manage:webhooks');
    var w;
    if (!manage) {
      C.error('Your role cannot manage webhooks: an Administrator or a Manager can.');
      return;
    }

    async function endpoint() {
      w = await C.api('GET', base);
      C.dl($('#webhook-details'), [
        ['URL', w.url],
        ['Events', C.endpointEvents(w.events)],
        ['Enabled', w.enabled ? 'Yes' : 'No'],
        ['Description', w.description],
        ['Managed by', w.managed_by === 'config' ? 'the config file (change it there)' : 'the API and this console'],
        ['Previous secret signs until', w.previous_secret_expires_at ? C.date(w.previous_secret_expires_at) : null],
        ['Created', C.date(w.created_at)],
      ]);
      // An endpoint of the config file is changed there: only the test event and replay stay.
      if (w.managed_by === 'config')
        [
          '#toggle-enabled',
          '#rotate-secret',
          '#overlap',
          'label[for="overlap"]',
          '#delete-webhook',
          '#edit-webhook',
        ].forEach(function (sel) {
          var el = $(sel);
          if (el) el.remove();
        });
      var toggle = $('#toggle-enabled');
      if (toggle) toggle.textContent = w.enabled ? 'Disable' : 'Enable';
      if ($('#we-form')) C.webhookForm.write('we', w);
    }
    async function health() {
      var x = await C.api('GET', base + '/health');
      C.dl($('#health'), [
        ['State', C.webhookHealth(Object.assign({}, w, x))],
        ['Failed attempts in a row', String(x.consecutive_failures)],
        ['Failing since', x.failing_since && C.date(x.failing_since)],
        ['Last success', x.last_success_at && C.date(x.last_success_at)],
        ['Last failure', x.last_failure_at && C.date(x.last_failure_at)],
        ['Attempts in the last 24 h', String(x.attempts_24h)],
        ['Success rate (24 h)', x.success_rate_24h === null ? null : Math.round(x.success_rate_24h * 1000) / 10 + ' %'],
        ['Waiting to be sent', String(x.pending)],
      ]);
    }
    function attempts(list) {
      if (!list.length) return '—';
      return h.apply(
        null,
        ['ol', { class: 'attempts' }].concat(
          list.map(function (a) {
            return h(
              'li',
              {},
              C.date(a.at) + ' · ' + (a.status === null ? a.error || 'no answer' : 'HTTP ' + a.status),
              ' · ' + a.latency_ms + ' ms',
              a.response ? h('code', {}, a.response.slice(0, 200)) : null,
            );
          }),
        ),
      );
    }
    async function deliveries() {
      var data = await C.api('GET', base + '/deliveries');
      C.fill(
        $('#deliveries-table tbody'),
        data.deliveries.map(function (d) {
          var resend = null;
          if (manage) {
            resend = h('button', { type: 'button', 'aria-label': 'Resend ' + d.event_type + ' ' + d.id }, 'Resend');
            resend.addEventListener('click', function () {
              C.run(
                async function () {
                  await C.api('POST', base + '/deliveries/' + enc(d.id) + '/resend', {});
                  await refresh();
                  C.status('Delivery of ' + d.event_type + ' queued again.');
                },
                resend,
                'Queuing…',
              );
            });
          }
          return h(
            'tr',
            { 'data-id': d.id, 'data-event': d.event_type },
            h('td', {}, C.date(d.created_at)),
            h('td', {}, d.event_type),
            h('td', {}, d.status + (d.last_error ? ' (' + d.last_error + ')' : '')),
            h('td', {}, attempts(d.attempts)),
            h('td', {}, resend),
          );
        }),
        5,
        'No delivery yet.',
      );
    }
    async function refresh() {
      await endpoint();
      await Promise.all([health(), deliveries()]);
    }

    var toggle = $('#toggle-enabled');
    if (toggle)
      toggle.addEventListener('click', function () {
        C.run(
          async function () {
            await C.api('PATCH', base, { enabled: !w.enabled });
            await refresh();
            C.status(w.enabled ? 'Endpoint enabled.' : 'Endpoint disabled.');
          },
          toggle,
          'Saving…',
        );
      });
    var test = $('#send-test');
    if (test)
      test.addEventListener('click', function () {
        C.run(
          async function () {
            await C.api('POST', base + '/test', {});
            await refresh();
            C.status('Test event queued: it appears under Recent deliveries.');
          },
          test,
          'Sending…',
        );
      });
    var rotate = $('#rotate-secret');
    if (rotate)
      rotate.addEventListener('click', async function () {
        var overlap = Number($('#overlap').value);
        var yes = await C.confirm({
          title: 'Rotate the secret of ' + w.url + '?',
          confirm: 'Rotate secret',
          message:
            'Ward signs with a new secret from now on' +
            (overlap
              ? '; the current one also signs for ' + OVERLAP[overlap] + ', while the site switches.'
              : ', alone.'),
        });
        if (!yes) return C.status('Secret unchanged.');
        C.run(
          async function () {
            var out = await C.api('POST', base + '/rotate-secret', { overlap_seconds: overlap });
            await refresh();
            C.showOnce(
              $('#secret-slot'),
              'New signing secret of ' + out.url,
              out.secret,
              out.previous_secret_expires_at
                ? 'The previous secret also signs until ' + C.date(out.previous_secret_expires_at) + '.'
                : 'The previous secret no longer signs.',
            );
            C.status('Secret rotated.');
          },
          rotate,
          'Rotating…',
        );
      });
    var del = $('#delete-webhook');
    if (del)
      del.addEventListener('click', async function () {
        var yes = await C.confirm({
          title: 'Delete the endpoint ' + w.url + '?',
          confirm: 'Delete endpoint',
          danger: true,
          message: 'Ward stops sending it events at once, and its deliveries are forgotten.',
        });
        if (!yes) return C.status('Nothing deleted.');
        C.run(
          async function () {
            await C.api('DELETE', base);
            C.go('/console/webhooks', 'Endpoint ' + w.url + ' deleted.');
          },
          del,
          'Deleting…',
        );
      });
    C.webhookForm.bind('we', async function (body) {
      await C.api('PATCH', base, body);
      await refresh();
      $('#edit-webhook').open = false;
      C.status('Endpoint saved.');
    });
    var replay = $('#replay-form');
    if (replay)
      replay.addEventListener('submit', function (e) {
        e.preventDefault();
        var from = $('#replay-from').value,
          to = $('#replay-to').value;
        if (!from || !to) return C.error('Give the start and the end of the range.');
        C.run(
          async function () {
            var out = await C.api('POST', base + '/replay', {
              from: new Date(from).toISOString(),
              to: new Date(to).toISOString(),
            });
            await refresh();
            C.status(
              out.deliveries +
                ' event(s) queued again.' +
                (out.truncated ? ' More remain: replay again from ' + C.date(out.last_event_at) + '.' : ''),
            );
          },
          replay.querySelector('button'),
          'Replaying…',
        );
      });
    var again = $('#refresh-deliveries');
    if (again)
      again.addEventListener('click', function () {
        C.run(refresh, again, 'Loading…');
      });
    await refresh();
  };
})();
