// A single-page application that signs in with oidc-client-ts, on its own HTTPS server on loopback
// (https://127.0.0.1:<port>, another site than Ward's, unless `host` names one the browser maps to
// loopback: launchChromium's loopbackHosts). /oidc.js is the
// library, bundled by esbuild from its npm package as an app's build would; every page creates
// `window.mgr`, a UserManager with the library's defaults but for the app's own values (authority,
// client_id, redirect_uri, silent_redirect_uri, scope). /cb finishes a redirect sign-in and leaves the
// outcome in `window.outcome`; /silent is the page the library loads in its hidden iframe for a
// prompt=none renew; every other path is a plain page. `oidcCall` runs one of the manager's methods.
import { createServer } from 'node:https';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import type { Page } from 'playwright-core';
import { makeDevCertificate } from '../../src/bootstrap/data-dir.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

let bundle: Promise<string> | undefined;
/** oidc-client-ts as one script that defines the global `oidc` (built once per process). */
function library(): Promise<string> {
  bundle ??= build({
    stdin: { contents: "export * from 'oidc-client-ts';", resolveDir: ROOT, loader: 'js' },
    bundle: true,
    format: 'iife',
    globalName: 'oidc',
    platform: 'browser',
    target: 'es2020',
    write: false,
    logLevel: 'silent',
  }).then((r) => r.outputFiles[0]!.text);
  return bundle;
}

export interface OidcClientApp {
  /** https://<host>:<port> */
  origin: string;
  clientId: string;
  /** The public client of this app, to give startWard. */
  client(): Record<string, unknown>;
  /** Sets the authority (Ward's URL) once Ward runs: Ward's client names this app's origin. */
  useAuthority(url: string): void;
  close(): Promise<void>;
}

export async function startOidcClientApp(opts: {
  clientId: string;
  scope: string;
  host?: string;
}): Promise<OidcClientApp> {
  const host = opts.host ?? '127.0.0.1';
  const [tls, script] = await Promise.all([makeDevCertificate([host]), library()]);
  let authority = '';
  const page = (path: string) => {
    const settings = {
      authority,
      client_id: opts.clientId,
      redirect_uri: `${app.origin}/cb`,
      silent_redirect_uri: `${app.origin}/silent`,
      post_logout_redirect_uri: `${app.origin}/signed-out`,
      scope: opts.scope,
    };
    const setup = `<script src="/oidc.js"></script><script>window.mgr = new oidc.UserManager(${JSON.stringify(settings)});</script>`;
    if (path === '/cb')
      return `<!doctype html><title>Callback</title>${setup}<script>
window.outcome = mgr.signinRedirectCallback().then(function (u) { return { ok: JSON.parse(JSON.stringify(u)) }; },
  function (e) { return { failed: { message: String(e && e.message), error: e && e.error } }; });</script>`;
    if (path === '/signed-out')
      return `<!doctype html><title>Signed out</title>${setup}<script>
window.outcome = mgr.signoutRedirectCallback().then(function (r) { return { ok: JSON.parse(JSON.stringify(r || null)) }; },
  function (e) { return { failed: { message: String(e && e.message), error: e && e.error } }; });</script>`;
    if (path === '/silent')
      return `<!doctype html><title>Silent</title>${setup}<script>mgr.signinSilentCallback();</script>`;
    return `<!doctype html><title>App</title>${setup}<h1>App</h1>`;
  };
  const server = createServer(tls, (req, res) => {
    const path = new URL(req.url ?? '/', 'https://app').pathname;
    if (path === '/oidc.js') {
      res.writeHead(200, { 'content-type': 'text/javascript' });
      return res.end(script);
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(page(path));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const app: OidcClientApp = {
    origin: `https://${host}:${(server.address() as { port: number }).port}`,
    clientId: opts.clientId,
    client: () => ({
      client_id: opts.clientId,
      name: 'oidc-client-ts app',
      type: 'public',
      jwt_algorithm: 'RS256',
      allowed_callback_urls: [`${app.origin}/cb`, `${app.origin}/silent`],
      allowed_origins: [app.origin],
      post_logout_redirect_uris: [`${app.origin}/signed-out`],
      sso: true,
    }),
    useAuthority: (url) => {
      authority = url;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return app;
}

/** The tokens and claims oidc-client-ts keeps for the signed-in user (its User object, as JSON). */
export interface OidcUser {
  access_token: string;
  refresh_token?: string | null;
  id_token?: string;
  scope?: string;
  expires_at?: number;
  profile: Record<string, unknown>;
}

export type OidcOutcome = { ok?: OidcUser | null; failed?: { message: string; error?: string } };

/** Runs `mgr[method](arg)` in the page: its result (a User as JSON), or its rejection. */
export const oidcCall = (page: Page, method: string, arg?: unknown): Promise<OidcOutcome> =>
  page.evaluate(
    ([m, a]) => {
      const mgr = (window as unknown as { mgr: Record<string, (x?: unknown) => Promise<unknown>> }).mgr;
      return mgr[m as string]!(a ?? undefined).then(
        (ok) => ({ ok: ok === undefined ? null : JSON.parse(JSON.stringify(ok)) }),
        (e) => ({ failed: { message: String(e?.message), error: e?.error } }),
      );
    },
    [method, arg ?? null] as const,
  );

/** What the callback page's signinRedirectCallback gave. */
export async function callbackOutcome(page: Page, app: OidcClientApp): Promise<OidcOutcome> {
  await page.waitForURL((u) => u.origin === app.origin && u.pathname === '/cb');
  return page.evaluate(() => (window as unknown as { outcome: Promise<OidcOutcome> }).outcome);
}
