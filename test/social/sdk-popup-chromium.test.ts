// The unmodified ReachFive Core SDK in headless Chromium, in an app on its own site (test/helpers/sdk-app.ts):
// loginWithSocialProvider in popup mode. The SDK opens /oauth/authorize?display=popup&provider=tiny
// in a window with winchan; the provider (test/helpers/tiny-idp.ts) comes back at once to Ward,
// whose answer page hands the code to the opener and closes; the SDK then takes the application to
// its redirectUri with the code, where the SDK exchanges it with its PKCE verifier. Loopback only.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { decodeJwt } from 'jose';
import type { Page } from 'playwright-core';
import { launchChromium, type Chromium } from '../helpers/chromium.js';
import { callbackOutcome, openSdkApp, startSdkApp, type SdkApp } from '../helpers/sdk-app.js';
import { startTinyIdp, type TinyIdp } from '../helpers/tiny-idp.js';
import { startWard, type TestWard } from '../helpers/ward.js';

describe('Core SDK loginWithSocialProvider in popup mode, in Chromium', { timeout: 120_000 }, () => {
  let tiny: TinyIdp;
  let ward: TestWard;
  let chromium: Chromium;
  let app: SdkApp;
  before(async () => {
    tiny = await startTinyIdp();
    app = await startSdkApp();
    ward = await startWard({
      clients: [app.client()],
      socialProviders: [
        {
          name: 'tiny',
          type: 'oidc',
          issuer: tiny.issuer,
          client_id: tiny.clientId,
          client_secret: tiny.clientSecret,
          label: 'Tiny IdP',
        },
      ],
    });
    app.wardUrl = ward.url;
    chromium = await launchChromium();
  });
  after(async () => {
    await chromium?.close();
    await ward?.close();
    await app?.close();
    await tiny?.close();
  });

  /** Clicks the app's button, which signs in with Tiny IdP in a popup; resolves once the popup is closed. */
  async function signInWithPopup(page: Page): Promise<URL> {
    await page.evaluate((origin) => {
      const w = window as unknown as {
        client: {
          on(e: string, f: (x: unknown) => void): void;
          loginWithSocialProvider(p: string, o: object): Promise<void>;
        };
        go(): void;
        outcome: unknown;
        failed: unknown;
      };
      w.outcome = 'pending';
      w.client.on('authentication_failed', (e) => {
        w.failed = e;
      });
      w.go = () => {
        w.client
          .loginWithSocialProvider('tiny', {
            popupMode: true,
            redirectUri: `${origin}/cb`,
            scope: 'openid email profile',
          })
          .then(
            () => {
              w.outcome = 'resolved';
            },
            (e) => {
              w.outcome = { rejected: e };
            },
          );
      };
    }, app.origin);
    const popupOpened = page.waitForEvent('popup');
    const authorizeSent = chromium.context.waitForEvent('request', (r) =>
      r.url().startsWith(`${ward.url}/oauth/authorize?`),
    );
    await page.click('#go');
    const popup = await popupOpened;
    const authorize = new URL((await authorizeSent).url());
    if (!popup.isClosed()) await popup.waitForEvent('close');
    return authorize;
  }

  it('signs in through the popup: the app lands on its redirectUri with a code the SDK exchanges', async () => {
    tiny.account = {
      sub: 'tiny-popup',
      email: 'tiny.popup@example.com',
      email_verified: true,
      given_name: 'Pop',
      family_name: 'Up',
    };
    const page = await openSdkApp(chromium.context, app);
    const authorize = await signInWithPopup(page);
    assert.equal(`${authorize.origin}${authorize.pathname}`, `${ward.url}/oauth/authorize`);
    assert.equal(authorize.searchParams.get('display'), 'popup');
    assert.equal(authorize.searchParams.get('provider'), 'tiny');
    assert.equal(authorize.searchParams.get('code_challenge_method'), 'S256');

    const auth = await callbackOutcome(page, app);
    assert.match(new URL(page.url()).searchParams.get('code') ?? '', /^[A-Za-z0-9_-]{43}$/);
    assert.equal(auth.failed, undefined, JSON.stringify(auth));
    assert.equal(auth.tokenType, 'Bearer');
    const claims = decodeJwt(auth.idToken as string);
    assert.equal(claims.email, 'tiny.popup@example.com');
    assert.equal(claims.auth_type, 'tiny');
    await page.close();
  });

  it('a refusal at the provider reaches the app as a rejected promise and authentication_failed, no navigation', async () => {
    tiny.mode = 'refuse';
    const page = await openSdkApp(chromium.context, app);
    try {
      await signInWithPopup(page);
      const outcome = (await page
        .waitForFunction(
          () =>
            (window as unknown as { outcome?: unknown }).outcome !== 'pending' &&
            (window as unknown as { outcome?: unknown }).outcome,
        )
        .then((h) => h.jsonValue())) as { rejected?: Record<string, string> };
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
