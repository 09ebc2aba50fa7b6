// Passwordless first factors with the unmodified Core SDK's browser build in headless Chromium: a magic
// link asked for by the app (startPasswordless) and opened in the same browser signs in there directly
// (the app at app.ward.test is same-site with Ward at id.ward.test, so the browser keeps Ward's
// pre-login cookie); an SMS code in the SDK's web_message mode (verifyPasswordless) answers the
// AuthResult in the page. On SQLite and PostgreSQL.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { decodeJwt } from 'jose';
import { engines } from '../helpers/databases.js';
import { launchChromium, type Chromium } from '../helpers/chromium.js';
import { codeIn, postJson, startMfaWard, type MfaWard } from '../helpers/mfa.js';
import { sdkCalls } from '../helpers/passkeys.js';
import { callbackOutcome, openSdkApp, startSdkApp, type SdkApp } from '../helpers/sdk-app.js';

for (const engine of engines()) {
  describe(`Core SDK passwordless in Chromium on ${engine}`, { timeout: 180_000 }, () => {
    let w: MfaWard;
    let app: SdkApp;
    let chromium: Chromium;
    before(async () => {
      app = await startSdkApp({ host: 'app.ward.test' });
      w = await startMfaWard({
        engine,
        clients: [app.client()],
        account: { passwordless: { magic_link: true, sms: true } },
        issuerHost: 'id.ward.test',
      });
      app.wardUrl = w.ward.issuer;
      chromium = await launchChromium({ loopbackHosts: ['app.ward.test', 'id.ward.test'] });
    });
    after(async () => {
      await chromium?.close();
      await w?.close();
      await app?.close();
    });

    const newUser = async () => {
      const email = `chromium-pl-${Date.now()}@example.com`;
      const phone = `+336${String(Date.now()).slice(-8)}`;
      const res = await postJson(w.ward, '/identity/v1/signup', {
        client_id: app.client().client_id,
        data: { email, phone_number: phone, password: 'a long enough password' },
      });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      return { id: res.body.id as string, email, phone };
    };

    it('a magic link opened in the browser that asked signs in there, back to the app', async () => {
      const u = await newUser();
      const page = await openSdkApp(chromium.context, app);
      const redirectUri = `${app.origin}/cb`;
      const started = await sdkCalls(page, 'startPasswordless', [
        { authType: 'magic_link', email: u.email },
        { redirectUri },
      ]);
      assert.ok(!started.failed, JSON.stringify(started));
      const link = /https:\/\/\S+passwordless\/verify\S+/.exec((await w.smtp.next(u.email)).text)![0];
      assert.ok(link.startsWith(w.ward.issuer));
      await page.goto(link);
      const auth = await callbackOutcome(page, app);
      assert.equal(decodeJwt(auth.idToken as string).sub, u.id);
      assert.deepEqual(decodeJwt(auth.idToken as string).amr, ['otp', 'email']);
      await page.close();
    });

    it("an SMS code in the SDK's web_message mode", async () => {
      const u = await newUser();
      const page = await openSdkApp(chromium.context, app);
      const redirectUri = `${app.origin}/cb`;
      const started = await sdkCalls(page, 'startPasswordless', [
        { authType: 'sms', phoneNumber: u.phone },
        { redirectUri },
      ]);
      assert.ok(!started.failed, JSON.stringify(started));
      const code = codeIn((await w.sms.next(u.phone)).body);
      const verified = await sdkCalls(page, 'verifyPasswordless', [
        { authType: 'sms', phoneNumber: u.phone, verificationCode: code },
        { useWebMessage: true, redirectUri },
      ]);
      assert.ok(verified.ok?.accessToken, JSON.stringify(verified));
      assert.equal(decodeJwt(verified.ok.idToken).sub, u.id);
      await page.close();
    });
  });
}
