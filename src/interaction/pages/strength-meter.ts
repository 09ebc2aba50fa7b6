// The password strength a hosted page shows as the user types (signup, reset): the page asks Ward's
// own /identity/v1/password/strength (zxcvbn-ts on the server, the policy's scorer), debounced, and
// shows the score in a <meter> with its word. Nothing is decided here: the server checks on submit.
import type { Language } from '../../errors/ward-error.js';
import { html, type SafeHtml } from '../../lib/html.js';
import { textsIn } from '../../texts/texts.js';

/** The meter's markup, placed under the password input `#password`; `clientId` names the page's client. */
export const strengthMeterHtml = (language: Language, clientId: string): SafeHtml => {
  const t = textsIn(language).pages.strength;
  return html`<p class="muted"><label for="strength" class="inline">${t.label}</label>
<meter id="strength" min="0" max="4" low="2" high="3" optimum="4" value="0" data-client="${clientId}"
data-words="${JSON.stringify(t.words)}"></meter>
<span id="strength-text" aria-live="polite"></span></p>`;
};

/** The script of the meter (its page allows it by hash, and fetches to Ward's own origin only). */
export const strengthMeterScript = `(function () {
  'use strict';
  var input = document.getElementById('password');
  var meter = document.getElementById('strength');
  var text = document.getElementById('strength-text');
  if (!input || !meter || !window.fetch) return;
  var words = JSON.parse(meter.getAttribute('data-words'));
  var clientId = meter.getAttribute('data-client');
  var timer = null;
  var asked = 0;
  input.addEventListener('input', function () {
    clearTimeout(timer);
    var password = input.value;
    var mine = ++asked;
    if (!password) { meter.value = 0; text.textContent = ''; return; }
    timer = setTimeout(function () {
      fetch('/identity/v1/password/strength', {
        method: 'POST', credentials: 'omit', headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ client_id: clientId, password: password })
      }).then(function (r) { return r.ok ? r.json() : null; }).then(function (b) {
        if (!b || mine !== asked || typeof b.score !== 'number') return;
        meter.value = b.score;
        text.textContent = words[b.score] || '';
      }, function () {});
    }, 250);
  });
})();`;
