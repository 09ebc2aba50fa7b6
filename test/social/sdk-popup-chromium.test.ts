// The unmodified ReachFive Core SDK (its UMD build, as a web page loads it) in headless Chromium:
// loginWithSocialProvider in popup mode. The SDK opens /oauth/authorize?display=popup&provider=tiny
// in a window with winchan; the provider (test/helpers/tiny-idp.ts) comes back at once to Ward,
// whose answer page hands the code to the opener and closes; the SDK then takes the application to
// its redirectUri with the code, where the SDK exchanges it with its PKCE verifier. The application
// (https://app.example) is fictional: its pages are answered by context.route. Loopback only.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { after, before, describe, it } from 'node:test';
import { decodeJwt } from 'jose';
import type { BrowserContext, Page } from 'playwright-core';
import { launchChromium, type Chromium } from '../helpers/chromium.js';
import { PUBLIC_CLIENT } from '../helpers/oauth.js';
import { startTinyIdp, type TinyIdp } from '../helpers/tiny-idp.js';
import { startWard, type TestWard } from '../helpers/ward.js';

const APP = 'https://app.example';
const SDK_BUNDLE = readFileSync(createRequire(import.meta.url).resolve('@reachfive/identity-core/umd/identity-core.min.js'), 'utf8');

describe('Core SDK loginWithSocialProvider in popup mode, in Chromium', { timeout: 120_000 }, () => {
  let tiny: TinyIdp;
  let ward: TestWard;
  let chromium: Chromium;
  before(async () => {
    tiny = await startTinyIdp();
    ward = await startWard({
      clients: [PUBLIC_CLIENT],
      socialProviders: [{ name: 'tiny', type: 'oidc', issuer: tiny.issuer, client_id: tiny.clientId, client_secret: tiny.clientSecret, label: 'Tiny IdP' }],
    });
    chromium = await launchChromium();
    // Ward answers on loopback here: Chromium asks the user before a site may reach a local address.
    await chromium.context.grantPermissions(['local-network-access'], { origin: APP });
    await appPages(chromium.context);
  });
  after(async () => {
    await chromium?.close();
    await ward?.close();
    await tiny?.close();
  });

  /** The application: a page with the SDK and a sign-in button, and its callback page exchanging the code. */
  async function appPages(context: BrowserContext): Promise<void> {
    const domain = new URL(ward.url).host;
    const setup = `<script src="/sdk.js"></script><script>window.client = reach5.createClient({ domain: ${JSON.stringify(domain)}, clientId: 'spa' });</script>`;
    const home = `<!doctype html><title>App</title>${setup}<button id="go">Sign in with Tiny</button><script>
document.getElementById('go').onclick = function () {
  window.outcome = 'pending';
  client.on('authentication_failed', function (e) { window.failed = e; });
  client.loginWithSocialProvider('tiny', { popupMode: true, redirectUri: '${APP}/cb', scope: 'openid email profile' })
    .then(function () { window.outcome = 'resolved'; }, function (e) { window.outcome = { rejected: e }; });
};</script>`;
    const callback = `<!doctype html><title>Callback</title>${setup}<h1>Callback</h1><script>
client.exchangeAuthorizationCodeWithPkce({ code: new URL(location.href).searchParams.get('code'), redirectUri: '${APP}/cb' })
  .then(function (a) { window.auth = a; }, function (e) { window.auth = { failed: e }; });</script>`;
    await context.route(`${APP}/**`, (route) => {
      const path = new URL(route.request().url()).pathname;
      if (path === '/sdk.js') return route.fulfill({ status: 200, contentType: 'text/javascript', body: SDK_BUNDLE });
      return route.fulfill({ status: 200, contentType: 'text/html', body: path === '/cb' ? callback : home });
    });
  }

  async function openApp(): Promise<Page> {
    const page = await chromium.context.newPage();
    await page.goto(`${APP}/`);
    await page.waitForFunction(() => typeof (window as unknown as { client?: unknown }).client === 'object');
    return page;
  }

  it('signs in through the popup: the app lands on its redirectUri with a code the SDK exchanges', async () => {
    tiny.account = { sub: 'tiny-popup', email: 'tiny.popup@example.com', email_verified: true, given_name: 'Pop', family_name: 'Up' };
    const page = await openApp();
    const popupOpened = page.waitForEvent('popup');
    const authorizeSent = chromium.context.waitForEvent('request', (r) => r.url().startsWith(`${ward.url}/oauth/authorize?`));
    await page.click('#go');
    const popup = await popupOpened;
    const authorize = new URL((await authorizeSent).url());
    assert.equal(`${authorize.origin}${authorize.pathname}`, `${ward.url}/oauth/authorize`);
    assert.equal(authorize.searchParams.get('display'), 'popup');
    assert.equal(authorize.searchParams.get('provider'), 'tiny');
    assert.equal(authorize.searchParams.get('code_challenge_method'), 'S256');

    if (!popup.isClosed()) await popup.waitForEvent('close');
    await page.waitForURL((u) => u.pathname === '/cb');
    const landed = new URL(page.url());
    assert.match(landed.searchParams.get('code') ?? '', /^[A-Za-z0-9_-]{43}$/);
    const auth = await page.waitForFunction(() => (window as unknown as { auth?: unknown }).auth).then((h) => h.jsonValue()) as Record<string, unknown>;
    assert.equal(auth.failed, undefined, JSON.stringify(auth));
    assert.equal(auth.tokenType, 'Bearer');
    const claims = decodeJwt(auth.idToken as string);
    assert.equal(claims.email, 'tiny.popup@example.com');
    assert.equal(claims.auth_type, 'tiny');
    await page.close();
  });

  it('a refusal at the provider reaches the app as a rejected promise and authentication_failed, no navigation', async () => {
    tiny.mode = 'refuse';
    const page = await openApp();
    try {
      const popupOpened = page.waitForEvent('popup');
      await page.click('#go');
      const popup = await popupOpened;
      if (!popup.isClosed()) await popup.waitForEvent('close');
      const outcome = await page.waitForFunction(() => (window as unknown as { outcome?: unknown }).outcome !== 'pending' && (window as unknown as { outcome?: unknown }).outcome).then((h) => h.jsonValue()) as { rejected?: Record<string, string> };
      assert.equal(outcome.rejected?.error, 'access_denied', JSON.stringify(outcome));
      const failed = await page.evaluate(() => (window as unknown as { failed?: Record<string, string> }).failed);
      assert.equal(failed?.error, 'access_denied');
      assert.equal(new URL(page.url()).pathname, '/', 'the app stays where it was');
    } finally {
      tiny.mode = 'ok';
      await page.close();
    }
  });
});
