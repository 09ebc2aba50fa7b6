// The bot's HTTPS linking page, on the server side: the HTML (with Ward's domain and the client id in
// a JSON script element) and the build of its script: browser/link.ts and the unmodified
// @reachfive/identity-core from node_modules, bundled by esbuild into dist/link.js (no CDN).
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const here = dirname(fileURLToPath(import.meta.url));
export const BUNDLE = join(here, 'dist', 'link.js');

/** Bundles browser/link.ts with the Core SDK into dist/link.js. */
export async function buildLinkingPage(outfile = BUNDLE): Promise<string> {
  await build({
    entryPoints: [join(here, 'browser', 'link.ts')],
    outfile,
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: 'es2020',
    minify: true,
    sourcemap: false,
    legalComments: 'none',
    logLevel: 'silent',
    define: { 'process.env.NODE_ENV': '"production"', global: 'globalThis' },
    // regenerator-runtime (inside the SDK) assigns the global `regeneratorRuntime`; in strict mode that
    // throws unless the global exists, and its fallback is Function(...), which the page's CSP
    // (no 'unsafe-eval') refuses. Declaring it outside the bundle's IIFE keeps the CSP strict.
    banner: { js: 'var regeneratorRuntime;' },
  });
  return outfile;
}

export function loadBundle(path = BUNDLE): Promise<Buffer> {
  return readFile(path);
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export interface LinkingPageConfig {
  /** Ward's host[:port] (the Core SDK's `domain`). */
  domain: string;
  clientId: string;
  botName: string;
  scope?: string;
}

export function linkingPageHtml(cfg: LinkingPageConfig): string {
  // JSON inside HTML: "<" escaped so no value can close the script element.
  const json = JSON.stringify({
    domain: cfg.domain,
    clientId: cfg.clientId,
    scope: cfg.scope ?? 'openid profile email',
  }).replace(/</g, '\\u003c');
  const name = escapeHtml(cfg.botName);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Link your account to ${name}</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:24rem;margin:3rem auto;padding:0 1rem}label,input,button{display:block;width:100%;box-sizing:border-box}input{margin:.25rem 0 1rem;padding:.5rem}button{padding:.6rem}#status{color:#8a1c1c}</style>
</head><body>
<h1>Link Messenger to ${name}</h1>
<form id="login" method="post" autocomplete="on">
<label for="email">Email</label><input id="email" name="email" type="email" autocomplete="username" required>
<label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password" required>
<button id="submit" type="submit">Sign in and link</button>
</form>
<p id="status" role="status" hidden></p>
<p><a id="hosted" href="#">Use the sign-in page instead</a></p>
<script id="config" type="application/json">${json}</script>
<script src="/link.js"></script>
</body></html>`;
}

/** Headers for the page: no framing, scripts from this origin only, no referrer leaving with the token. */
export const PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'unsafe-inline'; connect-src https:; form-action 'none'; frame-ancestors 'none'; base-uri 'none'",
};
