// The static structure of each console page (the shell is in shell.ts); the page scripts fill the
// data in from the management API.
import { CLIENT_BODY, CREATE_CLIENT_BODY } from './client-page.js';
import { CONSENT_BODY, CONSENTS_BODY, USER_CONSENTS_SECTION } from './consents-page.js';
import { SETTINGS_BODY } from './settings-page.js';
import { WEBHOOK_BODY, WEBHOOKS_BODY } from './webhooks-page.js';
import { CREATE_USER_FORM, USER_ACCOUNT_SECTION, USER_FACTORS_SECTION, USER_PROFILE_FORM } from './user-admin-page.js';
import { html, type SafeHtml } from '../lib/html.js';
import type { PageName } from './shell.js';

export { shell, type PageName } from './shell.js';

const search = (id: string, label: string, name: string) =>
  html`<form id="${id}" class="search" role="search"><label for="${id}-q">${label}</label><input id="${id}-q" name="${name}" type="search"><button type="submit">Search</button></form>`;

/** A table the page script fills: its caption and column headers; `actions` adds a last column for buttons. */
const table = (id: string, caption: string, columns: string[], actions = false) => {
  const heads = [...columns, ...(actions ? [html`<span class="sr">Actions</span>`] : [])];
  return html`<table id="${id}"><caption>${caption}</caption>
<thead><tr>${heads.map((c) => html`<th scope="col">${c}</th>`)}</tr></thead><tbody></tbody></table>`;
};

const keysTable = (id: string, caption: string) =>
  table(id, caption, ['kid', 'Algorithm', 'Status', 'Created', 'Retired', 'Revoked'], true);

const text = (id: string, label: string, name: string, extra: SafeHtml = html``) =>
  html`<div class="field"><label for="${id}">${label}</label><input id="${id}" name="${name}" ${extra}></div>`;

const options = (list: Array<[string, string]>) =>
  list.map(([value, label]) => html`<option value="${value}">${label}</option>`);

const SITE_KEYS = html`<p id="site-hint" class="hint">The global key pairs sign the tokens of every client synced with
global: the RSA pair for RS256 clients, the EC P-256 pair for ES256, the Ed25519 pair for EdDSA (made when a client
first uses that algorithm). Rotating makes a new pair of the chosen family current; the replaced key stays published as
previous for a grace period. Revoking takes a key out of /jwks.json at once.</p>
<div class="actions" data-perm="manage:keys"><label for="rotate-site-alg">Key family</label>
<select id="rotate-site-alg">
${options([
  ['RS256', 'RS256 (RSA)'],
  ['ES256', 'ES256 (EC P-256)'],
  ['EdDSA', 'EdDSA (Ed25519)'],
])}</select>
<button type="button" id="rotate-site" aria-describedby="site-hint">Rotate site key</button></div>
${keysTable('site-keys-table', 'Global key set')}`;

const ROLE_FORM = html`<section aria-labelledby="h-role" data-perm="manage:roles"><h2 id="h-role">Console role</h2>
<form id="role-form"><label for="role">Role</label><select id="role" name="role" aria-describedby="role-hint">
${options([
  ['', 'No role (no console access)'],
  ['viewer', 'Viewer'],
  ['developer', 'Developer'],
  ['manager', 'Manager'],
  ['administrator', 'Administrator'],
])}</select>
<p class="hint" id="role-hint">Viewer reads; Developer manages clients and keys; Manager also settings and users;
Administrator also roles.</p>
<button type="submit">Save role</button></form></section>`;

const USER = html`<section aria-labelledby="h-profile"><h2 id="h-profile">Profile</h2><dl id="user-details"></dl>
<div class="actions" data-perm="manage:users"><button type="button" id="toggle-disabled">Disable user</button>
<button type="button" id="revoke-sessions">Revoke all sessions</button></div>${USER_PROFILE_FORM}</section>
${USER_ACCOUNT_SECTION}
${ROLE_FORM}
${USER_FACTORS_SECTION}
<section aria-labelledby="h-passkeys"><h2 id="h-passkeys">Passkeys</h2>
${table('passkeys-table', 'Passkeys (WebAuthn)', ['Name', 'Kind', 'Added', 'Last used'], true)}</section>
${USER_CONSENTS_SECTION}`;

const AUDIT = html`<form id="audit-filter" class="filters"><div class="field"><label for="audit-action">Action</label>
<input id="audit-action" name="action" list="audit-actions" placeholder="e.g. key.rotated"></div>
<datalist id="audit-actions"></datalist>${text('audit-actor', 'Actor (user or client id)', 'actor')}
${text('audit-target', 'Target (e.g. client:backend)', 'target')}
${text('audit-since', 'Since', 'since', html`type="datetime-local" step="1"`)}
${text('audit-until', 'Until', 'until', html`type="datetime-local" step="1"`)}
<div class="field"><label for="audit-limit">Per page</label><select id="audit-limit" name="limit">
<option>25</option><option selected>50</option><option>100</option></select></div>
<button type="submit">Filter</button></form>
${table('audit-table', 'Management actions, newest first', ['When', 'Action', 'Actor', 'Target', 'Outcome', 'Details'])}
<nav class="pager" aria-label="Audit pages"><button type="button" id="audit-newer">Newer</button>
<span id="audit-page" aria-live="polite"></span><button type="button" id="audit-older">Older</button></nav>`;

export const PAGES: Record<PageName, { title: string; body: SafeHtml }> = {
  login: {
    title: 'Sign in',
    body: html`<p id="notice" class="notice" hidden></p>
<p>Sign in with your Ward account. Your role decides what you can see and change.</p>
<button type="button" id="signin">Sign in with Ward</button>`,
  },
  callback: {
    title: 'Signing in',
    body: html`<p id="callback-msg">Completing the sign-in&hellip;</p>
<p><a href="/console/login" id="callback-retry" hidden>Sign in again</a></p>`,
  },
  clients: {
    title: 'Clients',
    body: html`<p data-perm="manage:clients"><a class="button" href="/console/create-client">New client</a></p>
${search('client-search', 'Search clients by id or name', 'q')}
${table('clients-table', 'Clients', ['Client ID', 'Name', 'Type', 'JWT Algorithm', 'Keys'])}`,
  },
  'create-client': { title: 'New client', body: CREATE_CLIENT_BODY },
  client: { title: 'Client', body: CLIENT_BODY },
  'site-keys': { title: 'Site keys', body: SITE_KEYS },
  settings: { title: 'Account settings', body: SETTINGS_BODY },
  consents: { title: 'Consents', body: CONSENTS_BODY },
  consent: { title: 'Consent definition', body: CONSENT_BODY },
  users: {
    title: 'Users',
    body: html`${search('user-search', 'Search users by email, phone, name or id', 'q')}${CREATE_USER_FORM}
${table('users-table', 'Users', ['Email', 'Name', 'Phone', 'Role', 'Status', 'Created'])}`,
  },
  user: { title: 'User', body: USER },
  webhooks: { title: 'Webhooks', body: WEBHOOKS_BODY },
  webhook: { title: 'Webhook endpoint', body: WEBHOOK_BODY },
  audit: { title: 'Audit log', body: AUDIT },
};
