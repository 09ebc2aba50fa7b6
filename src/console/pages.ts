// The console's HTML: one shell (skip link, navigation, a live status region, the page's main) and
// the static structure of each page; /console/static/console.js fills the data in from the management
// API and removes what the signed-in role may not use (elements marked data-perm="permission").
import { escapeHtml } from '../http/pages.js';

export type PageName = 'login' | 'callback' | 'clients' | 'client' | 'settings' | 'users' | 'user' | 'audit';

const NAV: Array<[PageName, string, string]> = [
  ['clients', 'Clients', '/console/clients'], ['settings', 'Account settings', '/console/settings'],
  ['users', 'Users', '/console/users'], ['audit', 'Audit log', '/console/audit'],
];

function nav(active: PageName): string {
  const current = active === 'client' ? 'clients' : active === 'user' ? 'users' : active;
  const links = NAV.map(([n, label, href]) => `<li><a href="${href}"${n === current ? ' aria-current="page"' : ''}>${label}</a></li>`).join('');
  return `<nav aria-label="Console"><ul>${links}</ul><p class="who"><span id="who"></span> <button type="button" id="logout" class="link">Sign out</button></p></nav>`;
}

export function shell(page: PageName, title: string, body: string): string {
  const chrome = page === 'login' || page === 'callback' ? '' : nav(page);
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(title)} · Ward console</title><link rel="stylesheet" href="/console/static/console.css">
<script src="/console/static/console.js" defer></script><script src="/console/static/pages.js" defer></script></head>
<body data-page="${page}"><a class="skip" href="#main">Skip to content</a><header><p class="brand">Ward console</p>${chrome}</header>
<main id="main" tabindex="-1"><h1>${escapeHtml(title)}</h1><div id="status" role="status" aria-live="polite"></div><div id="error" role="alert"></div>${body}</main></body></html>`;
}

const search = (id: string, label: string, name: string) =>
  `<form id="${id}" class="search" role="search"><label for="${id}-q">${label}</label><input id="${id}-q" name="${name}" type="search"><button type="submit">Search</button></form>`;

const number = (name: string, label: string, min: number, max: number) =>
  `<label for="s-${name}">${label}</label><input id="s-${name}" name="${name}" type="number" min="${min}" max="${max}" required>`;

export const PAGES: Record<PageName, { title: string; body: string }> = {
  login: {
    title: 'Sign in',
    body: `<p>Sign in with your Ward account. Your role decides what you can see and change.</p><button type="button" id="signin">Sign in with Ward</button>`,
  },
  callback: { title: 'Signing in', body: `<p id="callback-msg">Completing the sign-in…</p><p><a href="/console/login" id="callback-retry" hidden>Sign in again</a></p>` },
  clients: {
    title: 'Clients',
    body: `${search('client-search', 'Search clients by id or name', 'q')}<table id="clients-table"><caption>Clients</caption>
<thead><tr><th scope="col">Client ID</th><th scope="col">Name</th><th scope="col">Type</th><th scope="col">JWT Algorithm</th><th scope="col">Keys</th></tr></thead><tbody></tbody></table>`,
  },
  client: {
    title: 'Client',
    body: `<section aria-labelledby="h-details"><h2 id="h-details">Details</h2><dl id="client-details"></dl></section>
<section aria-labelledby="h-alg"><h2 id="h-alg">JWT Algorithm</h2><form id="alg-form"><label for="alg">JWT Algorithm</label>
<select id="alg" name="jwt_algorithm"><option value="RS256">RS256</option><option value="HS256">HS256</option></select>
<button type="submit" data-perm="manage:clients">Save algorithm</button></form></section>
<section aria-labelledby="h-keys"><h2 id="h-keys">Signing keys</h2><p>Key state: <strong id="key-state">…</strong></p>
<div class="actions" data-perm="manage:keys"><button type="button" id="rotate" aria-describedby="key-hint">Rotate</button>
<button type="button" id="sync" aria-describedby="key-hint">Account sync</button></div><p id="key-hint" class="hint"></p>
<table id="keys-table"><caption>Keys of this client</caption><thead><tr><th scope="col">kid</th><th scope="col">Status</th><th scope="col">Created</th>
<th scope="col">Retired</th><th scope="col">Revoked</th><th scope="col"><span class="sr">Actions</span></th></tr></thead><tbody></tbody></table></section>`,
  },
  settings: {
    title: 'Account settings',
    body: `<form id="settings-form"><fieldset><legend>Multi-factor authentication</legend><label for="s-mfa_required">MFA required</label>
<select id="s-mfa_required" name="mfa_required"><option value="always">Always</option><option value="never">Never</option></select></fieldset>
<fieldset><legend>Verification codes</legend>${number('verification_code_length', 'Code length (digits)', 4, 10)}
${number('verification_code_ttl', 'Code lifetime (seconds)', 30, 600)}${number('verification_max_attempts', 'Attempts per code', 1, 20)}
${number('verification_requests_per_step_up', 'Codes per step-up', 0, 100)}</fieldset>
<fieldset><legend>Token lifetimes (seconds)</legend>${number('access_token_ttl', 'Access token', 1, 315360000)}${number('id_token_ttl', 'ID token', 1, 315360000)}</fieldset>
<button type="submit" data-perm="manage:settings">Save settings</button></form>`,
  },
  users: {
    title: 'Users',
    body: `${search('user-search', 'Search users by email, phone, name or id', 'q')}<table id="users-table"><caption>Users</caption>
<thead><tr><th scope="col">Email</th><th scope="col">Name</th><th scope="col">Phone</th><th scope="col">Role</th><th scope="col">Created</th></tr></thead><tbody></tbody></table>`,
  },
  user: {
    title: 'User',
    body: `<section aria-labelledby="h-profile"><h2 id="h-profile">Profile</h2><dl id="user-details"></dl>
<button type="button" id="revoke-sessions" data-perm="manage:users">Revoke all sessions</button></section>
<section aria-labelledby="h-factors"><h2 id="h-factors">Second factors</h2><table id="factors-table"><caption>MFA credentials</caption>
<thead><tr><th scope="col">Type</th><th scope="col">Destination</th><th scope="col">Verified</th><th scope="col">Added</th><th scope="col"><span class="sr">Actions</span></th></tr></thead><tbody></tbody></table></section>`,
  },
  audit: {
    title: 'Audit log',
    body: `<form id="audit-filter" class="search"><label for="audit-action">Filter by action</label><input id="audit-action" name="action" list="audit-actions" placeholder="e.g. key.rotated">
<datalist id="audit-actions"></datalist><button type="submit">Filter</button></form><table id="audit-table"><caption>Management actions, newest first</caption>
<thead><tr><th scope="col">When</th><th scope="col">Action</th><th scope="col">Actor</th><th scope="col">Target</th><th scope="col">Outcome</th></tr></thead><tbody></tbody></table>`,
  },
};
