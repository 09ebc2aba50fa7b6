// Ward console, the Webhooks page's Hooks section: the blocking hooks (event, URL, timeout, failure
// policy, enabled), New hook (its whsec_ secret shown once), Edit (the same form, PATCH), Delete behind
// the confirmation dialog, and a hook's recent calls (outcome, status, latency, first bytes of the answer).
(function () {
  'use strict';
  var C = window.WardConsole,
    h = C.h,
    $ = C.$;
  var enc = encodeURIComponent;
  var td = C.td;

  C.pages.hooksSection = async function () {
    var form = $('#hook-form'),
      manage = C.can('manage:webhooks');
    function editing(hook) {
      $('#hk-id').value = hook ? hook.id : '';
      $('#hk-event').value = hook ? hook.event : 'before.signup';
      $('#hk-url').value = hook ? hook.url : '';
      $('#hk-timeout').value = hook ? hook.timeout_ms : 2000;
      $('#hk-policy').value = hook ? hook.failure_policy : 'closed';
      $('#hk-description').value = hook ? hook.description || '' : '';
      $('#hk-enabled').checked = hook ? hook.enabled : true;
      $('#hook-submit').textContent = hook ? 'Save hook' : 'Create hook';
      $('#hook-form-title').textContent = hook ? 'Edit hook ' + hook.url : 'New hook';
      $('#hook-cancel').hidden = !hook;
      if (hook) {
        $('#new-hook').open = true;
        $('#hk-url').focus();
      }
    }
    async function calls(hook) {
      var data = await C.api('GET', '/api/v1/hooks/' + enc(hook.id) + '/calls');
      $('#hook-calls').hidden = false;
      $('#hook-calls-caption').textContent = 'Recent calls of ' + hook.url + ' (' + hook.event + ')';
      C.fill(
        $('#hook-calls-table tbody'),
        data.calls.map(function (c) {
          return h(
            'tr',
            {},
            td(C.date(c.at)),
            td(c.outcome),
            td(c.status === null ? c.error : c.status),
            td(c.latency_ms + ' ms'),
            h('td', {}, h('code', {}, (c.response || '').slice(0, 200))),
          );
        }),
        5,
        'No call yet.',
      );
    }
    async function load() {
      var data = await C.api('GET', '/api/v1/hooks');
      C.fill(
        $('#hooks-table tbody'),
        data.hooks.map(function (k) {
          var show = h('button', { type: 'button', class: 'secondary', 'aria-label': 'Calls of ' + k.url }, 'Calls');
          show.addEventListener('click', function () {
            C.run(function () {
              return calls(k);
            }, show);
          });
          var actions = [show];
          if (manage) {
            var edit = h('button', { type: 'button', 'aria-label': 'Edit hook ' + k.url }, 'Edit');
            edit.addEventListener('click', function () {
              editing(k);
            });
            var del = h('button', { type: 'button', class: 'danger', 'aria-label': 'Delete hook ' + k.url }, 'Delete');
            del.addEventListener('click', async function () {
              var yes = await C.confirm({
                title: 'Delete the hook ' + k.url + '?',
                confirm: 'Delete hook',
                danger: true,
                message: 'Ward stops calling it before ' + k.event + ' at once, and its calls are forgotten.',
              });
              if (!yes) return C.status('Nothing deleted.');
              C.run(
                async function () {
                  await C.api('DELETE', '/api/v1/hooks/' + enc(k.id));
                  await load();
                  C.status('Hook ' + k.url + ' deleted.');
                },
                del,
                'Deleting…',
              );
            });
            actions.push(edit, del);
          }
          return h(
            'tr',
            { 'data-id': k.id },
            td(k.event),
            td(k.url),
            td(k.timeout_ms + ' ms'),
            td(k.failure_policy),
            td(k.enabled ? 'Yes' : 'No'),
            h('td', {}, h.apply(null, ['div', { class: 'actions' }].concat(actions))),
          );
        }),
        6,
        'No hook yet.',
      );
    }
    if (form) {
      $('#hook-cancel').addEventListener('click', function () {
        editing(null);
      });
      form.addEventListener('submit', function (e) {
        e.preventDefault();
        var id = $('#hk-id').value;
        var body = {
          event: $('#hk-event').value,
          url: $('#hk-url').value.trim(),
          timeout_ms: Number($('#hk-timeout').value),
          failure_policy: $('#hk-policy').value,
          description: $('#hk-description').value,
          enabled: $('#hk-enabled').checked,
        };
        if (!body.url) return C.error('The URL is required.');
        C.run(
          async function () {
            var out = await C.api(id ? 'PATCH' : 'POST', '/api/v1/hooks' + (id ? '/' + enc(id) : ''), body);
            editing(null);
            await load();
            if (out.secret) C.showOnce($('#hook-secret-slot'), 'Signing secret of the hook ' + out.url, out.secret);
            C.status(id ? 'Hook saved.' : 'Hook ' + out.url + ' registered.');
          },
          $('#hook-submit'),
          'Saving…',
        );
      });
    }
    await load();
  };
})();
