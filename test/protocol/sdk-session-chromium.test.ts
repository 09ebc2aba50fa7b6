// The unmodified Core SDK in headless Chromium (test/helpers/sdk-app.ts), for what only a real
// browser shows: loginWithPassword (a credentialed cross-origin POST, then a top-level navigation
// through /oauth/authorize with the tkn), checkSession (a hidden iframe answered by
// response_mode=web_message: the page must be framable by the app and post to it, and the SSO
// cookie must reach it), getSessionInfo (a credentialed cross-origin GET) and logout.
// Two layouts. Ward on the app's own site (https://id.ward.test for https://app.ward.test, both
// mapped to loopback in the browser), as docs/operations.md ("Scale-out") advises: everything works.
// Ward on another site (https://localhost for https://127.0.0.1): this Chromium withholds
// third-party cookies (the iframe's request says `Sec-Fetch-Storage-Access: none`), as Safari and
// Firefox do, so the silent checks cannot see the session; the login itself still works.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { decodeJwt } from 'jose';
import type { Page } from 'playwright-core';
import { launchChromium, type Chromium } from '../helpers/chromium.js';
import { signup } from '../helpers/oauth.js';
import { callbackOutcome, openSdkApp, sdkCall as sdk, sdkReady, startSdkApp, type SdkApp } from '../helpers/sdk-app.js';
import { startWard, type TestWard } from '../helpers/ward.js';

/** The SDK's loginWithPassword from the app's button; resolves with the callback page's exchange. */
async function loginWithPassword(page: Page, app: SdkApp, email: string, password: string) {
  await page.evaluate(
    ([e, p]) => {
      const w = window as unknown as { client: { loginWithPassword(x: object): Promise<void> }; go(): void };
      w.go = () => {
        void w.client.loginWithPassword({ email: e, password: p, auth: { redirectUri: `${location.origin}/cb` } });
      };
    },
    [email, password] as const,
  );
  await page.click('#go');
  return callbackOutcome(page, app);
}

describe('Core SDK sessions in Chromium: loginWithPassword, checkSession, getSessionInfo, logout', {
  timeout: 120_000,
}, () => {
  let ward: TestWard;
  let chromium: Chromium;
  let sameSite: SdkApp;
  let otherSite: SdkApp;
  before(async () => {
    sameSite = await startSdkApp({ host: 'app.ward.test', clientId: 'same-site-app' });
    otherSite = await startSdkApp({ clientId: 'other-site-app' });
    ward = await startWard({ clients: [sameSite.client(), otherSite.client()] });
    sameSite.wardUrl = ward.url.replace('localhost', 'id.ward.test');
    otherSite.wardUrl = ward.url;
    chromium = await launchChromium({ loopbackHosts: ['app.ward.test', 'id.ward.test'] });
  });
  after(async () => {
    await chromium?.close();
    await ward?.close();
    await sameSite?.close();
    await otherSite?.close();
  });

  it("Ward on the app's site: signs in with a password, finds the session again from a hidden iframe, loses it after logout", async () => {
    const user = await signup(ward, sameSite.clientId);
    const page = await openSdkApp(chromium.context, sameSite);
    assert.equal((await sdk(page, 'checkSession')).failed?.error, 'login_required', 'no session yet');

    const login = await loginWithPassword(page, sameSite, user.email, user.password);
    assert.equal(login.failed, undefined, JSON.stringify(login));
    assert.equal(decodeJwt(login.idToken as string).email, user.email);

    await page.goto(`${sameSite.origin}/`);
    await sdkReady(page);
    const again = await sdk(page, 'checkSession');
    assert.equal(again.failed, undefined, JSON.stringify(again));
    assert.equal(
      decodeJwt(again.ok!.idToken as string).email,
      user.email,
      'a new code from the iframe, exchanged by the SDK',
    );
    assert.ok(again.ok!.accessToken);
    const info = await sdk(page, 'getSessionInfo');
    assert.equal(info.ok?.isAuthenticated, true, JSON.stringify(info));
    assert.equal(info.ok?.email, user.email);

    await page.evaluate(() => {
      void (window as unknown as { client: { logout(o: object): Promise<void> } }).client.logout({
        redirectTo: `${location.origin}/other`,
      });
    });
    await page.waitForURL(`${sameSite.origin}/other`);
    await sdkReady(page);
    assert.equal((await sdk(page, 'checkSession')).failed?.error, 'login_required');
    assert.equal((await sdk(page, 'getSessionInfo')).ok?.isAuthenticated, false);
    await page.close();
  });

  it('Ward on another site: the login works; the iframe, sent no cookie by the browser, answers login_required', async () => {
    const user = await signup(ward, otherSite.clientId);
    const page = await openSdkApp(chromium.context, otherSite);
    const login = await loginWithPassword(page, otherSite, user.email, user.password);
    assert.equal(login.failed, undefined, JSON.stringify(login));
    assert.equal(decodeJwt(login.idToken as string).email, user.email);
    assert.ok(
      (await chromium.context.cookies(ward.url)).some((c) => c.name === '__Host-ward_sso' && c.sameSite === 'None'),
      'the session cookie, SameSite=None',
    );

    await page.goto(`${otherSite.origin}/`);
    await sdkReady(page);
    const iframeRequest = chromium.context.waitForEvent('request', (r) =>
      r.url().startsWith(`${ward.url}/oauth/authorize?`),
    );
    const check = await sdk(page, 'checkSession');
    assert.equal(
      (await (await iframeRequest).allHeaders())['sec-fetch-storage-access'],
      'none',
      'the browser withholds third-party cookies',
    );
    assert.equal(check.failed?.error, 'login_required', JSON.stringify(check));
    await page.close();
  });
});
