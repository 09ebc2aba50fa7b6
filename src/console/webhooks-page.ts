// The HTML of the Webhooks pages (static/webhooks.js, webhook.js and hooks.js fill and drive them): the
// list of webhook endpoints with a form to register one (the events are the catalog's, or all of them),
// the blocking hooks with their form and recent calls; and one endpoint's page: its settings, Enable /
// Disable, Send test event, Rotate secret (with the overlap), Delete, its health, its recent deliveries
// with their attempts (Resend), and Replay a time range. Everything needs manage:webhooks (data-perm).
import { html, type SafeHtml } from '../lib/html.js';
import { HOOK_EVENTS } from '../hooks/events.js';
import { WEBHOOK_EVENT_TYPES } from '../webhooks/catalog.js';

const field = (id: string, label: string, name: string, attrs: SafeHtml, hint?: string) =>
  html`<div class="field"><label for="${id}">${label}</label><input id="${id}" name="${name}" ${attrs}${
    hint ? html` aria-describedby="${id}-hint"` : html``
  }>${hint ? html`<p class="hint" id="${id}-hint">${hint}</p>` : html``}</div>`;

const check = (id: string, label: string, name: string, value = 'on', checked = false) =>
  html`<div class="check"><input type="checkbox" id="${id}" name="${name}" value="${value}"${
    checked ? html` checked` : html``
  }><label for="${id}">${label}</label></div>`;

const th = (label: string) => html`<th scope="col">${label}</th>`;
const table = (id: string, caption: string, columns: string[]) =>
  html`<table id="${id}"><caption>${caption}</caption><thead><tr>${columns.map(th)}${th(
    'Actions',
  )}</tr></thead><tbody></tbody></table>`;

/** The endpoint form: `p` prefixes the ids (wn: new, we: edit). */
function endpointForm(p: string, submit: string): SafeHtml {
  const events = WEBHOOK_EVENT_TYPES.map((t) => check(`${p}-ev-${t.replace('.', '-')}`, t, 'event', t));
  return html`<form id="${p}-form" class="webhook-form" novalidate>
${field(`${p}-url`, 'URL', 'url', html`type="url" maxlength="2048" required autocomplete="off"`, 'https, or http to a loopback address (private and loopback targets need the account setting allow_private_webhook_targets).')}
${field(`${p}-description`, 'Description', 'description', html`type="text" maxlength="500" autocomplete="off"`)}
${check(`${p}-enabled`, 'Enabled', 'enabled', 'on', true)}
<fieldset><legend>Events</legend>${check(`${p}-all`, 'All events (*), present and future', 'all', 'on')}
<div class="events">${events}</div></fieldset>
<button type="submit">${submit}</button></form>`;
}

export const WEBHOOKS_BODY = html`<p id="wh-denied" class="notice" hidden>Your role cannot manage webhooks and hooks:
an Administrator or a Manager can.</p>
<section aria-labelledby="h-endpoints" id="endpoints-section"><h2 id="h-endpoints">Webhook endpoints</h2>
<p class="hint">Ward posts the events of its catalog (docs/webhooks.md) to these URLs, signed per Standard Webhooks with
each endpoint's secret.</p>
<details id="new-webhook" data-perm="manage:webhooks"><summary>New endpoint</summary>
${endpointForm('wn', 'Create endpoint')}</details>
<div id="secret-slot"></div>
${table('webhooks-table', 'Webhook endpoints', ['URL', 'Events', 'Enabled', 'Health'])}</section>
<section aria-labelledby="h-hooks" id="hooks-section"><h2 id="h-hooks">Hooks</h2>
<p class="hint">A hook is called before a sign-up, a sign-in or a token is issued, and may refuse it or add claims
(docs/hooks.md).</p>
<details id="new-hook" data-perm="manage:webhooks"><summary id="hook-form-title">New hook</summary>
<form id="hook-form" novalidate><input type="hidden" id="hk-id" name="id">
<div class="field"><label for="hk-event">Event</label><select id="hk-event" name="event">
${HOOK_EVENTS.map((e) => html`<option value="${e}">${e}</option>`)}</select></div>
${field('hk-url', 'URL', 'url', html`type="url" maxlength="2048" required autocomplete="off"`)}
${field('hk-timeout', 'Timeout (ms)', 'timeout_ms', html`type="number" min="100" max="10000" step="100" value="2000"`)}
<div class="field"><label for="hk-policy">On failure</label><select id="hk-policy" name="failure_policy"
aria-describedby="hk-policy-hint"><option value="closed">closed: refuse</option><option value="open">open: go on</option>
</select><p class="hint" id="hk-policy-hint">What Ward does on a timeout, an error or a malformed answer.</p></div>
${field('hk-description', 'Description', 'description', html`type="text" maxlength="500" autocomplete="off"`)}
${check('hk-enabled', 'Enabled', 'enabled', 'on', true)}
<button type="submit" id="hook-submit">Create hook</button>
<button type="button" id="hook-cancel" class="secondary" hidden>Cancel editing</button></form></details>
<div id="hook-secret-slot"></div>
${table('hooks-table', 'Hooks', ['Event', 'URL', 'Timeout', 'On failure', 'Enabled'])}
<section id="hook-calls" aria-labelledby="h-calls" hidden><h3 id="h-calls">Recent calls</h3>
<table id="hook-calls-table"><caption id="hook-calls-caption">Calls</caption><thead><tr>${[
  'When',
  'Outcome',
  'Status',
  'Latency',
  'Answer (first bytes)',
].map(th)}</tr></thead><tbody></tbody></table></section></section>`;

export const WEBHOOK_BODY = html`<p><a href="/console/webhooks">Back to the webhooks</a></p>
<div id="secret-slot"></div>
<section aria-labelledby="h-endpoint"><h2 id="h-endpoint">Endpoint</h2><dl id="webhook-details"></dl>
<div class="actions" data-perm="manage:webhooks">
<button type="button" id="toggle-enabled">Disable</button>
<button type="button" id="send-test">Send test event</button>
<label for="overlap">Old secret still signs for</label><select id="overlap">
<option value="0">no overlap</option><option value="3600">1 hour</option><option value="86400" selected>1 day</option>
<option value="604800">7 days</option></select>
<button type="button" id="rotate-secret">Rotate secret</button>
<button type="button" id="delete-webhook" class="danger">Delete endpoint</button></div>
<details id="edit-webhook" data-perm="manage:webhooks"><summary>Edit endpoint</summary>
${endpointForm('we', 'Save endpoint')}</details></section>
<section aria-labelledby="h-health"><h2 id="h-health">Health</h2><dl id="health"></dl></section>
<section aria-labelledby="h-deliveries"><h2 id="h-deliveries">Recent deliveries</h2>
<p data-perm="manage:webhooks"><button type="button" id="refresh-deliveries" class="secondary">Refresh</button></p>
${table('deliveries-table', 'Deliveries, newest first', ['Created', 'Event', 'Status', 'Attempts'])}</section>
<section aria-labelledby="h-replay" data-perm="manage:webhooks"><h2 id="h-replay">Replay a time range</h2>
<p class="hint" id="replay-hint">Sends again every event of the range this endpoint was sent, oldest first.</p>
<form id="replay-form" class="filters">
${field('replay-from', 'From', 'from', html`type="datetime-local" step="1" required`)}
${field('replay-to', 'To', 'to', html`type="datetime-local" step="1" required`)}
<button type="submit" aria-describedby="replay-hint">Replay</button></form></section>`;
