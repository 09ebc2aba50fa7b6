// Passkeys with the unmodified Core SDK's browser build in headless Chromium and a virtual
// authenticator (DevTools protocol): signup with a passkey, sign-in with an email and with a
// discoverable credential, adding a second passkey (on an authenticator without resident keys or
// user verification), listing, removing. The app is https://app.ward.test, Ward https://id.ward.test
// (both mapped to loopback), the relying-party ID ward.test. On SQLite and PostgreSQL.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { decodeJwt } from 'jose';
import { engines } from '../helpers/databases.js';
import { launchChromium, type Chromium } from '../helpers/chromium.js';
import { giveFactors } from '../helpers/mfa.js';
import { addVirtualAuthenticator, sdkCalls, sdkThroughCallback } from '../helpers/passkeys.js';
import { openSdkApp, startSdkApp, type SdkApp } from '../helpers/sdk-app.js';
import { startWard, type TestWard } from '../helpers/ward.js';

for (const engine of engines()) {
  describe(`Core SDK passkeys in Chromium on ${engine}`, { timeout: 180_000 }, () => {
    let ward: TestWard;
    let app: SdkApp;
    let chromium: Chromium;
    before(async () => {
      app = await startSdkApp({ host: 'app.ward.test' });
      ward = await startWard({
        engine,
        clients: [app.client()],
        account: { passkeys: { enabled: true, rp_id: 'ward.test', origins: [app.origin] } },
      });
      app.wardUrl = ward.url.replace('localhost', 'id.ward.test');
      chromium = await launchChromium({ loopbackHosts: ['app.ward.test', 'id.ward.test'] });
    });
    after(async () => {
      await chromium?.close();
      await ward?.close();
      await app?.close();
    });

    it('signs up with a passkey, signs in with it by email and discoverably, adds, lists and removes passkeys', async () => {
      const page = await openSdkApp(chromium.context, app);
      const removeFirst = await addVirtualAuthenticator(page, { hasResidentKey: true, hasUserVerification: true });
      const redirectUri = `${app.origin}/cb`;
      const email = `passkey-${Date.now()}@example.com`;

      const signedUp = await sdkThroughCallback(page, app, 'signupWithWebAuthn', [
        { profile: { email, givenName: 'Ada', familyName: 'Lovelace' }, friendlyName: 'Laptop' },
        { redirectUri },
      ]);
      assert.ok(signedUp.idToken, JSON.stringify(signedUp));
      const idToken = decodeJwt(signedUp.idToken);
      assert.equal(idToken.email, email);
      assert.deepEqual(idToken.amr, ['webauthn', 'mfa'], 'user verification: multi-factor');
      const user = await ward.registry.storage.users.findByEmail(email);
      assert.equal(user?.password_hash, null, 'no password');

      await page.goto(app.origin);
      const byEmail = await sdkThroughCallback(page, app, 'loginWithWebAuthn', [{ email, auth: { redirectUri } }]);
      assert.equal(decodeJwt(byEmail.idToken).sub, user!.id);

      await page.goto(app.origin);
      const discoverable = await sdkThroughCallback(page, app, 'loginWithWebAuthn', [
        { conditionalMediation: false, auth: { redirectUri } },
      ]);
      assert.equal(decodeJwt(discoverable.idToken).sub, user!.id, 'the resident key names its user');
      assert.deepEqual(decodeJwt(discoverable.idToken).amr, ['webauthn', 'mfa']);
      const token = discoverable.accessToken as string;

      // A second passkey, on another authenticator: no resident key, no user verification.
      await page.goto(app.origin);
      await removeFirst();
      await addVirtualAuthenticator(page, { hasResidentKey: false, hasUserVerification: false });
      await page.waitForFunction(() => typeof (window as unknown as { client?: unknown }).client === 'object');
      ward.clock.advance(1000); // the list is in creation order (the test clock stands still otherwise)
      const added = await sdkCalls(page, 'addNewWebAuthnDevice', [token, 'Security key']);
      assert.ok(!added.failed, JSON.stringify(added));
      const listed = await sdkCalls(page, 'listWebAuthnDevices', [token]);
      assert.deepEqual(
        (listed.ok as Array<{ friendlyName: string }>).map((d) => d.friendlyName),
        ['Laptop', 'Security key'],
      );
      const [first, second] = listed.ok as Array<{ id: string; createdAt: string; lastUsedAt?: string }>;
      assert.ok(first!.lastUsedAt && second!.createdAt && !second!.lastUsedAt);
      const keys = await ward.registry.storage.passkeys.listOfUser(user!.id);
      assert.equal(keys[0]!.counter > 0, true, 'the sign counter is kept');
      assert.deepEqual(
        keys.map((k) => k.device_type),
        ['singleDevice', 'singleDevice'],
      );

      // Signing in with the second one (no user verification): a single factor.
      const single = await sdkThroughCallback(page, app, 'loginWithWebAuthn', [{ email, auth: { redirectUri } }]);
      assert.deepEqual(decodeJwt(single.idToken).amr, ['webauthn']);

      await page.goto(app.origin);
      await page.waitForFunction(() => typeof (window as unknown as { client?: unknown }).client === 'object');
      const removed = await sdkCalls(page, 'removeWebAuthnDevice', [token, first!.id]);
      assert.ok(!removed.failed, JSON.stringify(removed));
      const last = await sdkCalls(page, 'removeWebAuthnDevice', [token, second!.id]);
      assert.equal(last.failed?.errorMessageKey, 'error.webauthn.lastSignInMethod', 'the last way to sign in stays');
      assert.deepEqual(
        ((await sdkCalls(page, 'listWebAuthnDevices', [token])).ok as Array<{ id: string }>).map((d) => d.id),
        [second!.id],
      );
      await page.close();
    });

    it('MFA required = Always: a passkey with user verification signs in (its token adds a passkey); one without gets the second factor', async () => {
      const page = await openSdkApp(chromium.context, app);
      const removeFirst = await addVirtualAuthenticator(page, { hasResidentKey: true, hasUserVerification: true });
      const redirectUri = `${app.origin}/cb`;
      const email = `mfa-passkey-${Date.now()}@example.com`;
      let fresh = '';
      const signedUp = await sdkThroughCallback(page, app, 'signupWithWebAuthn', [
        { profile: { email }, friendlyName: 'Phone' },
        { redirectUri },
      ]);
      const userId = decodeJwt(signedUp.idToken).sub!;
      await giveFactors(ward, userId, { email });
      ward.setAccount({ mfa_required: 'always' });
      try {
        await page.goto(app.origin);
        const login = await sdkThroughCallback(page, app, 'loginWithWebAuthn', [{ email, auth: { redirectUri } }]);
        assert.deepEqual(decodeJwt(login.idToken).amr, ['webauthn', 'mfa'], 'no second factor asked');
        fresh = login.accessToken as string;

        ward.setAccount({ passkeys: { user_verification_is_mfa: false } });
        await page.goto(app.origin);
        await page.waitForFunction(() => typeof (window as unknown as { client?: unknown }).client === 'object');
        void page.evaluate(
          ([e, cb]) =>
            (window as unknown as { client: { loginWithWebAuthn(x: unknown): Promise<unknown> } }).client
              .loginWithWebAuthn({ email: e, auth: { redirectUri: cb } })
              .catch(() => null),
          [email, redirectUri] as const,
        );
        // The account says a passkey is one factor: Ward's second-factor page, not the app's callback.
        await page.waitForSelector('form[action="/oauth/authorize/mfa"] input[name="verification_code"]');
        assert.equal(new URL(page.url()).origin, app.wardUrl);
      } finally {
        ward.setAccount({ mfa_required: 'never', passkeys: { user_verification_is_mfa: true } });
      }
      // The user has a factor: the SDK adds a passkey with a token fresh from a sign-in with mfa (issue 33).
      await page.goto(app.origin);
      await removeFirst();
      await addVirtualAuthenticator(page, { hasResidentKey: true, hasUserVerification: true });
      await page.waitForFunction(() => typeof (window as unknown as { client?: unknown }).client === 'object');
      const added = await sdkCalls(page, 'addNewWebAuthnDevice', [fresh, 'Tablet']);
      assert.ok(!added.failed, JSON.stringify(added));
      assert.equal((await ward.registry.storage.passkeys.listOfUser(userId)).length, 2);
      await page.close();
    });
  });
}
