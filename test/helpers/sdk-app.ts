// A single-page application on its own HTTPS server on loopback, for running the unmodified Core SDK (its UMD build, as a web page loads it) in Chromium. /sdk.js is
// the SDK; /cb exchanges the code in its URL with the SDK (PKCE verifier from the app's storage) and
// leaves the outcome in window.auth; every other path is a page with `window.client` and a button
// #go that runs `window.go()` (a user gesture, so the SDK may open a popup). Its origin is
// https://127.0.0.1:<port> (another site than Ward's https://localhost:<port>) unless `host` names
// one the browser maps to loopback (launchChromium's loopbackHosts). Loopback only.
//
// Also the Node side of the same SDK (startShopSdk): the "shop-web" public client of a page at
// https://shop.example, the SDK run in Node on sdk-shims' browser globals against a listening Ward.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:https';
import { createRequire } from 'node:module';
import type { BrowserContext, Page } from 'playwright-core';
import { makeDevCertificate } from '../../src/bootstrap/data-dir.js';
import { location } from './oauth.js';
import { installBrowserShims, type SdkPage } from './sdk-shims.js';
import { startWard, type TestWard, type TestWardOptions } from './ward.js';

const SDK_BUNDLE = readFileSync(
  createRequire(import.meta.url).resolve('@reachfive/identity-core/umd/identity-core.min.js'),
  'utf8',
);

export interface SdkApp {
  /** https://<host>:<port> */
  origin: string;
  /** The Ward the SDK talks to, as the browser reaches it (set once it runs: Ward's client names this app's origin). */
  wardUrl: string;
  clientId: string;
  /** A public client of this app, to give startWard. */
  client(): Record<string, unknown>;
  close(): Promise<void>;
}

export async function startSdkApp(opts: { host?: string; clientId?: string } = {}): Promise<SdkApp> {
  const host = opts.host ?? '127.0.0.1';
  const clientId = opts.clientId ?? 'sdk-app';
  const tls = await makeDevCertificate([host]);
  const page = (path: string) => {
    const setup = `<script src="/sdk.js"></script><script>window.client = reach5.createClient({ domain: ${JSON.stringify(new URL(app.wardUrl).host)}, clientId: ${JSON.stringify(app.clientId)} });</script>`;
    if (path !== '/cb')
      return `<!doctype html><title>App</title>${setup}<button id="go" onclick="window.go()">Go</button>`;
    return `<!doctype html><title>Callback</title>${setup}<h1>Callback</h1><script>
client.exchangeAuthorizationCodeWithPkce({ code: new URL(location.href).searchParams.get('code'), redirectUri: location.origin + '/cb' })
  .then(function (a) { window.auth = a; }, function (e) { window.auth = { failed: e }; });</script>`;
  };
  const server = createServer(tls, (req, res) => {
    const path = new URL(req.url ?? '/', 'https://app').pathname;
    if (path === '/sdk.js') {
      res.writeHead(200, { 'content-type': 'text/javascript' });
      return res.end(SDK_BUNDLE);
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(page(path));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `https://${host}:${(server.address() as { port: number }).port}`;
  const app: SdkApp = {
    origin,
    wardUrl: '',
    clientId,
    client: () => ({
      client_id: clientId,
      name: 'SDK app',
      type: 'public',
      jwt_algorithm: 'RS256',
      allowed_callback_urls: [`${origin}/cb`, `${origin}/other`],
      allowed_origins: [origin],
      sso: true,
      scope: 'openid email profile',
    }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return app;
}

/** A new tab on the app's home page, once the SDK client exists. */
export async function openSdkApp(context: BrowserContext, app: SdkApp, path = '/'): Promise<Page> {
  const page = await context.newPage();
  await page.goto(app.origin + path);
  await sdkReady(page);
  return page;
}

export const sdkReady = (page: Page) =>
  page.waitForFunction(() => typeof (window as unknown as { client?: unknown }).client === 'object');

/** What the callback page's exchange gave: the SDK's AuthResult, or `{failed}`. */
export async function callbackOutcome(page: Page, app: SdkApp): Promise<Record<string, unknown>> {
  await page.waitForURL((u) => u.origin === app.origin && u.pathname === '/cb');
  return (await page
    .waitForFunction(() => (window as unknown as { auth?: unknown }).auth)
    .then((h) => h.jsonValue())) as Record<string, unknown>;
}

export type SdkOutcome = { ok?: Record<string, any>; failed?: Record<string, any> };

/** Runs `client[method](arg)` in the page: its result, or its rejection (an Error as {message}). */
export const sdkCall = (page: Page, method: string, arg?: unknown): Promise<SdkOutcome> =>
  page.evaluate(
    ([m, a]) => {
      const client = (window as unknown as { client: Record<string, (x: unknown) => Promise<Record<string, unknown>>> })
        .client;
      return client[m as string]!(a ?? undefined).then(
        (ok) => ({ ok }),
        (failed) => ({ failed: failed instanceof Error ? { message: failed.message } : failed }),
      );
    },
    [method, arg ?? null] as const,
  );

export const SHOP_ORIGIN = 'https://shop.example';
export const SHOP_CALLBACK = `${SHOP_ORIGIN}/callback`;
export const SHOP_PASSWORD = 'a long enough password';
export type Sdk = typeof import('@reachfive/identity-core');
export type SdkClient = ReturnType<Sdk['createClient']>;
/** What the SDK rejects with on an error answer. */
export type SdkError = {
  error?: string;
  errorMessageKey?: string;
  errorDetails?: Array<{ field: string; code: string }>;
};

/** The public client of the shop's page (SHOP_ORIGIN, callback SHOP_CALLBACK), to give startWard. */
export const shopWebClient = (): Record<string, unknown> => ({
  client_id: 'shop-web',
  name: 'Shop',
  type: 'public',
  jwt_algorithm: 'RS256',
  allowed_callback_urls: [SHOP_CALLBACK],
  allowed_origins: [SHOP_ORIGIN],
  sso: true,
});

export interface ShopSdk {
  ward: TestWard;
  /** The shims' page: the SDK's navigations and the browser that follows them. */
  page: SdkPage;
  sdk: Sdk;
  /** A new SDK client of shop-web on this Ward. */
  client(): SdkClient;
  /** A new address at example.com, `<prefix>-<random>@example.com`. */
  newEmail(prefix?: string): string;
  /** getUser through the SDK, `fields` as given. */
  getUser(accessToken: string, fields?: string): Promise<Record<string, unknown>>;
  /**
   * Signs up through the SDK (a new email and SHOP_PASSWORD, unless `data` names them; `scope` when
   * given, the SDK's own otherwise), follows its navigation to the code (a 302) and exchanges it.
   */
  signedUp(
    data: Record<string, unknown>,
    scope?: string,
  ): Promise<{ accessToken: string; idToken: string; email: string }>;
}

/**
 * A Ward with shop-web (first) and `opts.clients`, the browser globals of a page at SHOP_ORIGIN, and
 * the unmodified Core SDK loaded. The caller closes `ward`.
 */
export async function startShopSdk(opts: TestWardOptions = {}): Promise<ShopSdk> {
  const ward = await startWard({ ...opts, clients: [shopWebClient(), ...(opts.clients ?? [])] });
  const page = installBrowserShims(ward, SHOP_ORIGIN);
  const sdk: Sdk = await import('@reachfive/identity-core');
  const client = () => sdk.createClient({ domain: new URL(ward.url).host, clientId: 'shop-web' });
  const newEmail = (prefix = 'sdk') => `${prefix}-${randomBytes(4).toString('hex')}@example.com`;
  return {
    ward,
    page,
    sdk,
    client,
    newEmail,
    getUser: async (accessToken, fields) =>
      (await client().getUser({ accessToken, fields })) as Record<string, unknown>,
    async signedUp(data, scope) {
      const full = { email: newEmail(), password: SHOP_PASSWORD, ...data } as { email: string; password: string };
      const nav = page.nextNavigation();
      await client().signup({
        data: full,
        auth: scope === undefined ? { redirectUri: SHOP_CALLBACK } : { redirectUri: SHOP_CALLBACK, scope },
      });
      const res = await page.browser.get(await nav);
      assert.equal(res.status, 302, await res.text());
      const code = location(res).searchParams.get('code')!;
      const auth = await client().exchangeAuthorizationCodeWithPkce({ code, redirectUri: SHOP_CALLBACK });
      assert.ok(auth.accessToken);
      return { accessToken: auth.accessToken!, idToken: auth.idToken!, email: full.email };
    },
  };
}
