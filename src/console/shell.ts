// The console's HTML shell: a skip link, the navigation, a live status region and an alert region,
// the page's main, and the scripts that page needs (all same-origin files: the CSP forbids inline
// script and style). console.js, dialog.js and secret-once.js come first on every page; page scripts fill
// WardConsole.pages and remove what the signed-in role may not use (elements marked data-perm).
import { html, type SafeHtml } from '../lib/html.js';

export type PageName =
  | 'login'
  | 'callback'
  | 'clients'
  | 'create-client'
  | 'client'
  | 'site-keys'
  | 'settings'
  | 'consents'
  | 'consent'
  | 'users'
  | 'user'
  | 'webhooks'
  | 'webhook'
  | 'audit';

/** The navigation: page, label, address, and the permission without which the link is removed. */
const NAV: Array<[PageName, string, string, string?]> = [
  ['clients', 'Clients', '/console/clients'],
  ['site-keys', 'Site keys', '/console/site-keys'],
  ['settings', 'Account settings', '/console/settings'],
  ['consents', 'Consents', '/console/consents'],
  ['users', 'Users', '/console/users'],
  ['webhooks', 'Webhooks', '/console/webhooks', 'manage:webhooks'],
  ['audit', 'Audit log', '/console/audit'],
];

/** The page scripts of each page, after the core ones; every name must exist in src/console/static/. */
export const PAGE_SCRIPTS: Record<PageName, string[]> = {
  login: [],
  callback: [],
  clients: ['clients.js'],
  'create-client': ['client-form.js', 'clients.js'],
  client: ['client-form.js', 'keys.js', 'client.js'],
  'site-keys': ['keys.js'],
  settings: ['settings.js'],
  consents: ['consent-texts.js', 'consents.js'],
  consent: ['consent-texts.js', 'consent.js'],
  users: ['users.js', 'user-admin.js'],
  user: ['users.js', 'user-admin.js', 'user-factors.js', 'consent-texts.js', 'user-consents.js'],
  webhooks: ['webhooks.js', 'hooks.js'],
  webhook: ['webhooks.js', 'webhook.js'],
  audit: ['audit.js'],
};
export const CORE_SCRIPTS = ['console.js', 'dialog.js', 'secret-once.js'];

function nav(active: PageName): SafeHtml {
  const parent: Partial<Record<PageName, PageName>> = {
    client: 'clients',
    'create-client': 'clients',
    consent: 'consents',
    user: 'users',
    webhook: 'webhooks',
  };
  const current = parent[active] ?? active;
  const links = NAV.map(
    ([n, label, href, perm]) =>
      html`<li${perm ? html` data-perm="${perm}"` : html``}><a href="${href}"${n === current && html` aria-current="page"`}>${label}</a></li>`,
  );
  return html`<nav aria-label="Console"><ul>${links}</ul>
<p class="who"><span id="who"></span> <button type="button" id="logout" class="link">Sign out</button></p></nav>`;
}

export function shell(page: PageName, title: string, body: SafeHtml): string {
  const chrome = page !== 'login' && page !== 'callback' && nav(page);
  const scripts = [...CORE_SCRIPTS, ...PAGE_SCRIPTS[page]].map(
    (s) => html`<script src="/console/static/${s}" defer></script>`,
  );
  return html`<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1">
<title>${title} · Ward console</title><link rel="stylesheet" href="/console/static/console.css">
${scripts}</head>
<body data-page="${page}"><a class="skip" href="#main">Skip to content</a>
<header><p class="brand">Ward console</p>${chrome}</header>
<main id="main" tabindex="-1"><h1>${title}</h1>
<div id="status" role="status" aria-live="polite"></div><div id="error" role="alert"></div>
${body}</main></body></html>`.toString();
}
