// Account recovery for a passkey-only user, with the unmodified Core SDK's browser build in headless
// Chromium and virtual authenticators: the passkey is lost (its authenticator removed), the user asks
// for recovery (requestAccountRecovery: a code by email, read from the real SMTP sink), registers a new
// passkey with it (resetPasskeys: webauthn/reset-options then reset), which replaces the old ones, and
// signs in with it. A wrong code and a used code are refused. On SQLite and PostgreSQL.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { decodeJwt } from 'jose';
import { engines } from '../helpers/databases.js';
import { launchChromium, type Chromium } from '../helpers/chromium.js';
import { codeIn, startMfaWard, type MfaWard } from '../helpers/mfa.js';
import { addVirtualAuthenticator, sdkCalls, sdkThroughCallback } from '../helpers/passkeys.js';
import { openSdkApp, startSdkApp, type SdkApp } from '../helpers/sdk-app.js';

for (const engine of engines()) {
  describe(`passkey account recovery in Chromium on ${engine}`, { timeout: 180_000 }, () => {
    let w: MfaWard;
    let app: SdkApp;
    let chromium: Chromium;
    before(async () => {
      app = await startSdkApp({ host: 'app.ward.test' });
      w = await startMfaWard({
        engine,
        clients: [app.client()],
        account: { passkeys: { enabled: true, rp_id: 'ward.test', origins: [app.origin] } },
      });
      app.wardUrl = w.ward.url.replace('localhost', 'id.ward.test');
      chromium = await launchChromium({ loopbackHosts: ['app.ward.test', 'id.ward.test'] });
    });
    after(async () => {
      await chromium?.close();
      await w?.close();
      await app?.close();
    });

    it('a user who lost their passkey recovers the account with a new one, which replaces the old', async () => {
      const page = await openSdkApp(chromium.context, app);
      const removeLost = await addVirtualAuthenticator(page, { hasResidentKey: true, hasUserVerification: true });
      const redirectUri = `${app.origin}/cb`;
      const email = `recover-${Date.now()}@example.com`;
      const signedUp = await sdkThroughCallback(page, app, 'signupWithWebAuthn', [
        { profile: { email }, friendlyName: 'Old phone' },
        { redirectUri },
      ]);
      const userId = decodeJwt(signedUp.idToken).sub!;

      // The phone is lost: a new authenticator, and recovery by email.
      await page.goto(app.origin);
      await removeLost();
      await addVirtualAuthenticator(page, { hasResidentKey: true, hasUserVerification: true });
      await page.waitForFunction(() => typeof (window as unknown as { client?: unknown }).client === 'object');
      const asked = await sdkCalls(page, 'requestAccountRecovery', [{ email }]);
      assert.ok(!asked.failed, JSON.stringify(asked));
      const mail = await w.smtp.next(email);
      assert.match(mail.subject, /Recover your .* account/);
      const code = codeIn(mail.text);
      const clientId = app.client().client_id;

      const wrong = await sdkCalls(page, 'resetPasskeys', [
        { email, verificationCode: code === '000000' ? '111111' : '000000', clientId },
      ]);
      assert.equal(wrong.failed?.errorMessageKey, 'error.invalidVerificationCode');
      const reset = await sdkCalls(page, 'resetPasskeys', [
        { email, verificationCode: code, clientId, friendlyName: 'New phone' },
      ]);
      assert.ok(!reset.failed, JSON.stringify(reset));
      const keys = await w.ward.registry.storage.passkeys.listOfUser(userId);
      assert.deepEqual(
        keys.map((k) => k.friendly_name),
        ['New phone'],
        'the new passkey replaced the old one',
      );
      assert.match((await w.smtp.next(email)).subject, /new passkey was registered/);

      const again = await sdkCalls(page, 'resetPasskeys', [{ email, verificationCode: code, clientId }]);
      assert.equal(again.failed?.errorMessageKey, 'error.invalidVerificationCode', 'a code works once');

      await page.goto(app.origin);
      const login = await sdkThroughCallback(page, app, 'loginWithWebAuthn', [{ email, auth: { redirectUri } }]);
      assert.equal(decodeJwt(login.idToken).sub, userId);
      await page.close();
    });

    it('answers the same for an unknown address and sends nothing', async () => {
      const page = await openSdkApp(chromium.context, app);
      const before = w.smtp.messages.length;
      const asked = await sdkCalls(page, 'requestAccountRecovery', [{ email: `ghost-${Date.now()}@example.com` }]);
      assert.ok(!asked.failed, JSON.stringify(asked));
      await w.ward.registry.background.drain();
      assert.equal(w.smtp.messages.length, before);
      await page.close();
    });
  });
}
