// Captcha on the Core SDK's calls, on both engines, against a local siteverify simulator speaking the
// providers' protocol: the unmodified SDK's signup, loginWithPassword, requestPasswordReset and
// startPasswordless pass with a good token and are refused (400, error.captcha.*) without one, with a
// forged or replayed one, a v3 score under the account's minimum, or another provider's name; nothing is
// created or sent on a refusal. The provider down: 503 by default, let through when the account says
// so. The secret and the token never reach Ward's log.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startCaptchaSim, type CaptchaSim } from '../helpers/captcha-sim.js';
import { engines } from '../helpers/databases.js';
import { startMfaWard, type MfaWard } from '../helpers/mfa.js';
import { installBrowserShims } from '../helpers/sdk-shims.js';

const ORIGIN = 'https://shop.example';
const CALLBACK = 'https://shop.example/callback';
const auth = { redirectUri: CALLBACK };
const SHOP = {
  client_id: 'shop-web',
  name: 'Shop',
  type: 'public',
  allowed_callback_urls: [CALLBACK],
  allowed_origins: [ORIGIN],
  sso: true,
};
type Sdk = typeof import('@reachfive/identity-core');
type Refusal = { errorMessageKey?: string; error?: string };

for (const engine of engines()) {
  describe(`captcha on the Core SDK's calls (${engine})`, () => {
    let m: MfaWard;
    let sim: CaptchaSim;
    let client: ReturnType<Sdk['createClient']>;
    before(async () => {
      sim = await startCaptchaSim();
      m = await startMfaWard({
        engine,
        clients: [SHOP],
        env: { WARD_CAPTCHA_SECRET: sim.secret },
        account: {
          passwordless: { magic_link: true },
          rate_limits: { login: { limit: null }, signup: { limit: null } },
          captcha: { provider: 'recaptcha', verify_url: sim.url, min_score: 0.5 },
        },
      });
      installBrowserShims(m.ward, ORIGIN);
      const sdk: Sdk = await import('@reachfive/identity-core');
      client = sdk.createClient({ domain: new URL(m.ward.url).host, clientId: 'shop-web' });
    });
    after(async () => {
      await m.close();
      await sim.close();
    });

    let n = 0;
    const email = () => `captcha-${engine}-${++n}-${Date.now()}@example.com`;
    const password = 'a captcha-checked passphrase';
    const refusedWith = (key: string) => (e: Refusal) => {
      assert.equal(e.errorMessageKey, key, JSON.stringify(e));
      return true;
    };

    it('signs up with a good token, refuses a missing, forged or replayed one (nothing created)', async () => {
      const who = email();
      const data = { email: who, password, givenName: 'Ada' };
      await assert.rejects(client.signup({ data }), refusedWith('error.captcha.missing'));
      await assert.rejects(
        client.signup({ data, captchaToken: 'forged', captchaProvider: 'recaptcha' }),
        refusedWith('error.captcha.failed'),
      );
      assert.equal(await m.ward.registry.storage.users.findByEmail(who), undefined);
      const token = sim.issue();
      await client.signup({ data, captchaToken: token, captchaProvider: 'recaptcha', auth });
      assert.ok(await m.ward.registry.storage.users.findByEmail(who));
      // The token went to the provider with the secret and the user's address.
      const asked = sim.requests.at(-1)!;
      assert.deepEqual({ ok: asked.secretOk, response: asked.response }, { ok: true, response: token });
      assert.ok(asked.remoteip, 'the user address is sent');
      // Used once: the provider says timeout-or-duplicate, Ward refuses.
      await assert.rejects(
        client.signup({ data: { ...data, email: email() }, captchaToken: token, auth }),
        refusedWith('error.captcha.failed'),
      );
    });

    it('checks password login, with the v3 score against min_score and the provider named', async () => {
      const who = email();
      await client.signup({ data: { email: who, password }, captchaToken: sim.issue(), auth });
      const login = (captchaToken?: string, captchaProvider?: 'recaptcha' | 'captchafox') =>
        client.loginWithPassword({
          email: who,
          password,
          captchaToken,
          captchaProvider,
          auth: { redirectUri: CALLBACK },
        });
      await assert.rejects(login(), refusedWith('error.captcha.missing'));
      await assert.rejects(login(sim.issue({ score: 0.2 })), refusedWith('error.captcha.failed'));
      await assert.rejects(login(sim.issue(), 'captchafox'), refusedWith('error.captcha.failed'));
      // Refused before the password is checked: no failure counted, no audit event of a wrong password.
      await m.ward.registry.events.flush();
      const failures = await m.ward.registry.storage.audit.list({ action: 'login.failed', limit: 50 });
      assert.equal(failures.filter((e) => JSON.stringify(e).includes(who)).length, 0);
      assert.equal(m.smtp.messages.filter((x) => x.to === who && /paused/.test(x.subject)).length, 0);
      await login(sim.issue({ score: 0.9 }), 'recaptcha');
    });

    it('checks the password reset request and the passwordless start; refuses before sending', async () => {
      const who = email();
      await client.signup({ data: { email: who, password }, captchaToken: sim.issue(), auth });
      const sent = () => m.smtp.messages.filter((x) => x.to === who).length;
      const before = sent();
      await assert.rejects(client.requestPasswordReset({ email: who }), refusedWith('error.captcha.missing'));
      await assert.rejects(
        client.startPasswordless({ authType: 'magic_link', email: who }, { redirectUri: CALLBACK }),
        refusedWith('error.captcha.missing'),
      );
      await new Promise((r) => setTimeout(r, 100));
      assert.equal(sent(), before, 'nothing sent on a refusal');
      await client.requestPasswordReset({ email: who, captchaToken: sim.issue() });
      await m.smtp.next(who);
      await client.startPasswordless(
        { authType: 'magic_link', email: who, captchaToken: sim.issue() },
        { redirectUri: CALLBACK },
      );
      await m.smtp.next(who);
    });

    it('answers 503 when the provider is down, or lets through when the account says so', async () => {
      const signup = (captchaToken: string) =>
        m.ward.fetch('/identity/v1/signup', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            client_id: 'shop-web',
            data: { email: email(), password },
            captcha_token: captchaToken,
          }),
        });
      sim.failWith = 500;
      try {
        const down = await signup(sim.issue());
        assert.equal(down.status, 503);
        assert.equal(
          ((await down.json()) as { error_message_key: string }).error_message_key,
          'error.captcha.unavailable',
        );
        m.ward.setAccount({
          captcha: { provider: 'recaptcha', verify_url: sim.url, min_score: 0.5, allow_when_unavailable: true },
        });
        assert.equal((await signup(sim.issue())).status, 200);
      } finally {
        sim.failWith = null;
        // setAccount merges over the current settings: the policy is put back by name.
        m.ward.setAccount({ captcha: { allow_when_unavailable: false } });
      }
      // A hung provider is cut at the account's timeout_ms, then the same policy applies.
      sim.hang = true;
      m.ward.setAccount({ captcha: { provider: 'recaptcha', verify_url: sim.url, timeout_ms: 300 } });
      try {
        assert.equal((await signup(sim.issue())).status, 503);
      } finally {
        sim.hang = false;
        m.ward.setAccount({ captcha: { timeout_ms: 3000 } });
      }
    });

    it('asks no captcha where the account does not apply it, and keeps the secret and tokens out of the log', async () => {
      m.ward.setAccount({
        captcha: { provider: 'recaptcha', verify_url: sim.url, applies_to: ['signup'] },
      });
      try {
        const who = email();
        await client.signup({ data: { email: who, password }, captchaToken: sim.issue(), auth });
        await client.loginWithPassword({ email: who, password, auth: { redirectUri: CALLBACK } });
      } finally {
        m.ward.setAccount({
          captcha: { applies_to: ['signup', 'password_login', 'passwordless_start', 'password_reset'] },
        });
      }
      const log = m.ward.logs.join('');
      assert.ok(!log.includes(sim.secret), 'the secret is not logged');
      for (const r of sim.requests) if (r.response) assert.ok(!log.includes(r.response), 'no token is logged');
    });
  });
}
