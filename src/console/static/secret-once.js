// Ward console, the one-time secret panel (a classic script after console.js): a generated secret (a
// client's, a webhook endpoint's or a hook's) is shown once, with Copy and Hide; hiding drops it from
// the page and gives the focus back to the page's heading.
(function () {
  'use strict';
  var C = window.WardConsole,
    h = C.h,
    $ = C.$;

  /**
   * A panel in `slot` showing a secret once (copy it, then hide it, which drops it); `note` says what
   * else to know; `label` names the field (default: Signing secret).
   */
  C.showOnce = function (slot, title, secret, note, label) {
    var input = h('input', { id: 'secret-value', readonly: true, class: 'secret', spellcheck: 'false' });
    input.value = secret;
    input.setAttribute('aria-describedby', 'secret-once');
    var copy = h('button', { type: 'button', id: 'copy-secret' }, 'Copy secret');
    var dismiss = h(
      'button',
      { type: 'button', id: 'dismiss-secret', class: 'secondary' },
      'I have stored it: hide the secret',
    );
    var panel = h(
      'section',
      { class: 'secret-panel', id: 'secret-panel', 'aria-labelledby': 'secret-title' },
      h('h2', { id: 'secret-title', tabindex: '-1' }, title),
      h(
        'p',
        { id: 'secret-once' },
        'Copy it now and keep it somewhere safe: it is shown only this once and Ward cannot show it again.' +
          (note ? ' ' + note : ''),
      ),
      h('label', { for: 'secret-value' }, label || 'Signing secret'),
      input,
      h('div', { class: 'actions' }, copy, dismiss),
    );
    copy.addEventListener('click', async function () {
      try {
        await navigator.clipboard.writeText(secret);
      } catch {
        input.select();
        document.execCommand('copy');
      }
      C.status('Secret copied to the clipboard.');
    });
    dismiss.addEventListener('click', function () {
      panel.remove();
      secret = null;
      C.status('Secret hidden.');
      $('h1').setAttribute('tabindex', '-1');
      $('h1').focus();
    });
    slot.replaceChildren(panel);
    panel.querySelector('h2').focus();
  };
})();
