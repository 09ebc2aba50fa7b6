// The hosted login page's passkey sign-in in headless Chromium with a virtual authenticator: the email
// field offers passkey autofill (autocomplete "username webauthn") and a button makes a modal request
// (automation cannot pick from autofill); the assertion goes back with the page's form and the sign-in
// ends at the app's callback. The passkey was made by the Core SDK's signup on the app's site.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { decodeJwt } from 'jose';
import { launchChromium, type Chromium } from '../helpers/chromium.js';
import { addVirtualAuthenticator, sdkThroughCallback } from '../helpers/passkeys.js';
import { callbackOutcome, openSdkApp, startSdkApp, type SdkApp } from '../helpers/sdk-app.js';
import { startWard, type TestWard } from '../helpers/ward.js';

describe('hosted login page: passkeys in Chromium', { timeout: 120_000 }, () => {
  let ward: TestWard;
  let app: SdkApp;
  let chromium: Chromium;
  before(async () => {
    app = await startSdkApp({ host: 'app.ward.test' });
    ward = await startWard({
      issuerHost: 'id.ward.test',
      clients: [app.client()],
      account: { passkeys: { enabled: true, rp_id: 'ward.test', origins: [app.origin] } },
    });
    ward.setAccount({ passkeys: { origins: [app.origin, ward.issuer] } });
    app.wardUrl = ward.issuer;
    chromium = await launchChromium({ loopbackHosts: ['app.ward.test', 'id.ward.test'] });
  });
  after(async () => {
    await chromium?.close();
    await ward?.close();
    await app?.close();
  });

  /** A page of the app whose authenticator holds a passkey made by the SDK's signup; answers the user id. */
  async function passkeyHolder(noAutofill: boolean) {
    const page = await chromium.context.newPage();
    // A browser without autofill for passkeys: only the button is left.
    if (noAutofill)
      await page.addInitScript(
        'PublicKeyCredential.isConditionalMediationAvailable = function () { return Promise.resolve(false); };',
      );
    await page.goto(app.origin);
    await page.waitForFunction(() => typeof (window as unknown as { client?: unknown }).client === 'object');
    await addVirtualAuthenticator(page, { hasResidentKey: true, hasUserVerification: true });
    const email = `hosted-passkey-${Date.now()}@example.com`;
    const signedUp = await sdkThroughCallback(page, app, 'signupWithWebAuthn', [
      { profile: { email }, friendlyName: 'Laptop' },
      { redirectUri: `${app.origin}/cb` },
    ]);
    await page.goto(app.origin);
    await page.waitForFunction(() => typeof (window as unknown as { client?: unknown }).client === 'object');
    return { page, sub: decodeJwt(signedUp.idToken).sub };
  }

  /** The SDK sends the browser to Ward's login page (prompt=login: the SSO session is not enough). */
  const toLoginPage = (page: Page) =>
    void page
      .evaluate(
        (cb) =>
          (window as unknown as { client: { loginFromSession(x: unknown): Promise<unknown> } }).client.loginFromSession(
            {
              redirectUri: cb,
              prompt: 'login',
            },
          ),
        `${app.origin}/cb`,
      )
      .catch(() => null);

  it('autofill: the login page asks for a passkey at once (conditional mediation) and signs in with it', async () => {
    const { page, sub } = await passkeyHolder(false);
    const before = ward.logs.length;
    toLoginPage(page);
    // The virtual authenticator answers the autofill request itself: no click.
    const auth = await callbackOutcome(page, app);
    const claims = decodeJwt(auth.idToken as string);
    assert.equal(claims.sub, sub);
    assert.deepEqual(claims.amr, ['webauthn', 'mfa']);
    assert.ok(
      ward.logs.slice(before).some((l) => l.includes('passkey login (hosted page)')),
      "through the login page's form",
    );
    await page.close();
  });

  it('without autofill: the email field still says webauthn, and the passkey button signs in', async () => {
    const { page, sub } = await passkeyHolder(true);
    toLoginPage(page);
    const button = page.getByRole('button', { name: 'Sign in with a passkey' });
    await button.waitFor();
    assert.equal(new URL(page.url()).origin, ward.issuer, "Ward's login page");
    assert.equal(await page.getByLabel('Email').getAttribute('autocomplete'), 'username webauthn');
    await button.click();
    const auth = await callbackOutcome(page, app);
    const claims = decodeJwt(auth.idToken as string);
    assert.equal(claims.sub, sub);
    assert.deepEqual(claims.amr, ['webauthn', 'mfa']);
    await page.close();
  });

  it('passkeys off: the login page offers none', async () => {
    ward.setAccount({ passkeys: { enabled: false } });
    try {
      const page = await openSdkApp(chromium.context, app);
      void page
        .evaluate(
          (cb) =>
            (
              window as unknown as { client: { loginFromSession(x: unknown): Promise<unknown> } }
            ).client.loginFromSession({ redirectUri: cb, prompt: 'login' }),
          `${app.origin}/cb`,
        )
        .catch(() => null);
      await page.getByLabel('Password').waitFor();
      assert.equal(new URL(page.url()).origin, ward.issuer, "Ward's login page");
      assert.equal(await page.getByRole('button', { name: 'Sign in with a passkey' }).count(), 0);
      assert.equal(await page.getByLabel('Email').getAttribute('autocomplete'), 'username');
      await page.close();
    } finally {
      ward.setAccount({ passkeys: { enabled: true } });
    }
  });
});
