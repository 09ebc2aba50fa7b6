// A device's sign-in is the usual one: under MFA required = Always the password is followed by the
// second factor (an email code, through the test SMTP server), and only then the approval page; the
// device's ID token carries mfa. The browser's SSO session then answers the next device at once
// (straight to its approval page). A third-party client's approval is remembered as its consent.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { decodeJwt } from 'jose';
import { Browser } from '../helpers/browser.js';
import { engines } from '../helpers/databases.js';
import { codeIn, giveFactors, startMfaWard, type MfaWard } from '../helpers/mfa.js';
import { signup } from '../helpers/oauth.js';

const DEVICE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';
const TV = {
  client_id: 'tv',
  name: 'Partner TV',
  type: 'public',
  first_party: false,
  // Single sign-on: a signed-in browser's session answers its next device.
  sso: true,
  logo_uri: 'https://tv.example/logo.png',
  allowed_callback_urls: ['https://tv.example/cb'],
  grant_types: [DEVICE_GRANT],
};
const field = (html: string, name: string) =>
  new RegExp(`name="${name}" value="([^"]*)"`).exec(html)?.[1]?.replace(/&amp;/g, '&') ?? '';

for (const engine of engines()) {
  describe(`a device's sign-in with a second factor (${engine})`, () => {
    let m: MfaWard;
    before(async () => {
      m = await startMfaWard({ engine, clients: [TV], account: { mfa_required: 'always' } });
    });
    after(() => m.close());

    const form = (path: string, params: Record<string, string>) =>
      m.ward.fetch(path, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(params).toString(),
      });
    const startDevice = async () =>
      (await (await form('/oauth/device_authorization', { client_id: 'tv', scope: 'openid email' })).json()) as {
        device_code: string;
        user_code: string;
      };
    const enterCode = async (browser: Browser, userCode: string) => {
      const page = await browser.get('/device');
      return browser.postForm('/device', { csrf: field(await page.text(), 'csrf'), user_code: userCode });
    };
    const poll = async (deviceCode: string) =>
      (
        await form('/oauth/token', { grant_type: DEVICE_GRANT, device_code: deviceCode, client_id: 'tv' })
      ).json() as Promise<Record<string, string>>;

    it('asks the second factor before the approval page; the SSO session then answers the next device', async () => {
      const user = await signup(m.ward, 'tv');
      await giveFactors(m.ward, user.id, { email: user.email });
      const d = await startDevice();
      const browser = new Browser(m.ward);
      const entered = await enterCode(browser, d.user_code);
      assert.equal(entered.status, 303);
      const login = await (await browser.get(entered.headers.get('location')!)).text();
      const afterPassword = await browser.postForm('/oauth/authorize/login', {
        interaction: field(login, 'interaction'),
        csrf: field(login, 'csrf'),
        email: user.email,
        password: user.password,
      });
      assert.equal(afterPassword.status, 200);
      const mfaHtml = await afterPassword.text();
      assert.match(mfaHtml, /Verify it is you/);
      assert.doesNotMatch(mfaHtml, /on your device\?/, 'no approval before the second factor');
      const code = codeIn((await m.smtp.next(user.email)).text);
      const verified = await browser.postForm('/oauth/authorize/mfa', {
        interaction: field(mfaHtml, 'interaction'),
        csrf: field(mfaHtml, 'csrf'),
        step_up: field(mfaHtml, 'step_up'),
        challenge_id: field(mfaHtml, 'challenge_id'),
        auth_type: 'email',
        verification_code: code,
        action: 'verify',
      });
      assert.equal(verified.status, 200);
      const approval = await verified.text();
      assert.match(approval, /Connect Partner TV on your device\?/);
      assert.match(approval, /<img src="https:\/\/tv.example\/logo.png"/, "the client's logo");
      assert.equal((await poll(d.device_code)).error, 'authorization_pending');
      const done = await browser.postForm('/oauth/authorize/consent', {
        interaction: field(approval, 'interaction'),
        csrf: field(approval, 'csrf'),
        decision: 'allow',
      });
      assert.match(await done.text(), /data-device="approved"/);
      m.ward.clock.advance(6_000);
      const tokens = await poll(d.device_code);
      assert.ok(tokens.id_token, JSON.stringify(tokens));
      const claims = decodeJwt(tokens.id_token!);
      assert.equal(claims.sub, user.id);
      assert.ok((claims.amr as string[]).includes('mfa'));
      assert.deepEqual(
        (await m.ward.registry.storage.consents.find(user.id, 'tv'))?.scopes,
        ['email', 'openid'],
        "a third-party client's approval is its consent",
      );

      // The same browser, signed in with mfa: the next device goes straight to its approval page.
      const next = await startDevice();
      const again = await enterCode(browser, next.user_code);
      assert.equal(again.status, 200);
      const nextApproval = await again.text();
      assert.match(nextApproval, /Connect Partner TV on your device\?/);
      const denied = await browser.postForm('/oauth/authorize/consent', {
        interaction: field(nextApproval, 'interaction'),
        csrf: field(nextApproval, 'csrf'),
        decision: 'deny',
      });
      assert.match(await denied.text(), /data-device="denied"/);
      assert.equal((await poll(next.device_code)).error, 'access_denied');
    });
  });
}
