// Every sign-in method records the same audit events (src/sign-in-methods/audit.ts): `login.succeeded`
// with the method and the client, `login.failed` with a reason, on every path: the hosted login form,
// the Core SDK's password login, the password grant, the hosted passkey form, passwordless (magic
// link), social login and its link page, custom tokens. Read back from the audit table, on SQLite and
// PostgreSQL.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Browser } from '../helpers/browser.js';
import { auditRows } from '../helpers/audit.js';
import { engines } from '../helpers/databases.js';
import { submitLoginPage } from '../helpers/hosted-login.js';
import { codeIn, postJson, startMfaWard, type MfaWard } from '../helpers/mfa.js';
import {
  CONFIDENTIAL_SECRET,
  PUBLIC_CLIENT,
  authorizeUrl,
  location,
  pkcePair,
  signup,
  tokenRequest,
} from '../helpers/oauth.js';
import { SoftAuthenticator } from '../helpers/soft-authenticator.js';
import { startTinyIdp, type TinyIdp } from '../helpers/tiny-idp.js';

const CB = 'https://app.example/cb';
const ORIGIN = 'https://app.example';
const W = '/identity/v1/webauthn';
const MOBILE = {
  ...PUBLIC_CLIENT,
  client_id: 'mobile',
  grant_types: ['authorization_code', 'refresh_token', 'password'],
};
const BACKEND = {
  client_id: 'ct-backend',
  type: 'confidential',
  client_secret: CONFIDENTIAL_SECRET,
  allowed_callback_urls: [CB],
  custom_token_login: true,
};
const NO_LIMITS = { login: { limit: null }, signup: { limit: null }, token: { limit: null } };

const field = (html: string, name: string) =>
  new RegExp(`name="${name}" value="([^"]*)"`).exec(html)?.[1]?.replace(/&amp;/g, '&') ?? '';

for (const engine of engines()) {
  describe(`sign-in audit events on ${engine}`, () => {
    let m: MfaWard;
    let idp: TinyIdp;
    before(async () => {
      idp = await startTinyIdp();
      m = await startMfaWard({
        engine,
        clients: [PUBLIC_CLIENT, MOBILE, BACKEND],
        account: {
          rate_limits: NO_LIMITS,
          passwordless: { magic_link: true, sms: false, signup: false },
          // The Core SDK's passkeys on the app's origin (turned on by the passkey tests only).
          passkeys: { enabled: false, rp_id: 'app.example', origins: [ORIGIN] },
        },
        socialProviders: [
          {
            name: 'corp',
            type: 'oidc',
            issuer: idp.issuer,
            client_id: idp.clientId,
            client_secret: idp.clientSecret,
            label: 'Corp',
          },
        ],
      });
    });
    after(async () => {
      await m.close();
      await idp.close();
    });

    /** The audit rows of an action written since `since` (the buffered rows flushed first). */
    const rows = (action: string, since: number) => auditRows(m.ward, { action, since, limit: 100 });

    /** Exactly one row of the action since `since`; its details are checked against `expected`. */
    async function one(action: string, since: number, expected: Record<string, unknown>, client?: string) {
      const found = await rows(action, since);
      assert.equal(found.length, 1, `one ${action}: ${JSON.stringify(found)}`);
      const row = found[0]!;
      for (const [k, v] of Object.entries(expected)) assert.deepEqual(row.details[k], v, `${action} ${k}`);
      if (client) assert.equal(row.target, `client:${client}`);
      return row;
    }

    /** A point in time after every row written so far (Ward's clock is the test's, and stands still). */
    const now = () => {
      m.ward.clock.advance(1000);
      return m.ward.clock.now();
    };

    /** The hosted login page of a fresh authorization request, in a fresh browser. */
    async function loginPage() {
      const browser = new Browser(m.ward);
      const res = await browser.get(
        authorizeUrl({
          client_id: 'spa',
          response_type: 'code',
          redirect_uri: CB,
          scope: 'openid email',
          code_challenge: pkcePair().challenge,
          code_challenge_method: 'S256',
        }),
      );
      const html = await res.text();
      assert.equal(res.status, 200, html.slice(0, 300));
      return { browser, html, interaction: field(html, 'interaction'), csrf: field(html, 'csrf') };
    }

    it('the hosted login form: a wrong password is login.failed, the right one login.succeeded', async () => {
      const user = await signup(m.ward);
      const since = now();
      const page = await loginPage();
      const wrong = await submitLoginPage(page.browser, page.html, user.email, 'not the password');
      assert.equal(wrong.status, 401);
      const failed = await one('login.failed', since, { method: 'password', reason: 'wrong_password' }, 'spa');
      assert.equal(failed.outcome, 'failed');
      assert.doesNotMatch(JSON.stringify(failed), /not the password/, 'no secret in the audit log');
      const again = await loginPage();
      const right = await submitLoginPage(again.browser, again.html, user.email, user.password);
      assert.equal(right.status, 303);
      const ok = await one('login.succeeded', since, { method: 'password', amr: ['pwd'] }, 'spa');
      assert.equal(ok.actor_id, user.id);
      assert.equal(ok.outcome, 'success');
    });

    it('the Core SDK password login: login.failed with its reason, login.succeeded with the client', async () => {
      const user = await signup(m.ward);
      const since = now();
      const login = (password: string) =>
        postJson(m.ward, '/identity/v1/password/login', {
          client_id: 'spa',
          scope: 'openid',
          email: user.email,
          password,
        });
      assert.equal((await login('not the password')).status, 400);
      await one('login.failed', since, { method: 'password', reason: 'wrong_password' }, 'spa');
      assert.equal((await login(user.password)).status, 200);
      assert.equal((await one('login.succeeded', since, { method: 'password' }, 'spa')).actor_id, user.id);
    });

    it('the password grant: login.failed and login.succeeded, marked as the grant', async () => {
      const user = await signup(m.ward, 'mobile');
      const since = now();
      const grant = (password: string) =>
        tokenRequest(m.ward, {
          grant_type: 'password',
          username: user.email,
          password,
          client_id: 'mobile',
          scope: 'openid',
        });
      assert.equal((await grant('not the password')).status, 400);
      await one(
        'login.failed',
        since,
        { method: 'password', reason: 'wrong_password', grant_type: 'password' },
        'mobile',
      );
      assert.equal((await grant(user.password)).status, 200);
      await one('login.succeeded', since, { method: 'password', grant_type: 'password' }, 'mobile');
    });

    it('the hosted passkey form: a refused assertion is login.failed of the passkey method', async () => {
      m.ward.setAccount({ passkeys: { ...m.ward.registry.account().passkeys, enabled: true } });
      try {
        const page = await loginPage();
        const since = now();
        const res = await page.browser.postForm('/oauth/authorize/passkey', {
          interaction: page.interaction,
          csrf: page.csrf,
          assertion: 'not json',
        });
        assert.equal(res.status, 400);
        await one('login.failed', since, { method: 'passkey', reason: 'malformed' }, 'spa');
      } finally {
        m.ward.setAccount({ passkeys: { ...m.ward.registry.account().passkeys, enabled: false } });
      }
    });

    it('the Core SDK passkey sign-in: login.succeeded with the client, a replayed assertion login.failed', async () => {
      m.ward.setAccount({ passkeys: { ...m.ward.registry.account().passkeys, enabled: true } });
      try {
        const authenticator = new SoftAuthenticator();
        const email = `pk-${engine}-${Date.now()}@example.com`;
        const o = await postJson(m.ward, `${W}/signup-options`, {
          client_id: 'spa',
          origin: ORIGIN,
          profile: { email },
        });
        assert.equal(o.status, 200, JSON.stringify(o.body));
        const credential = authenticator.create(o.body.options.public_key, ORIGIN);
        const created = await postJson(m.ward, `${W}/signup`, { public_key_credential: credential });
        assert.equal(created.status, 200, JSON.stringify(created.body));
        const since = now();
        const a = await postJson(m.ward, `${W}/authentication-options`, { client_id: 'spa', origin: ORIGIN, email });
        assert.equal(a.status, 200, JSON.stringify(a.body));
        const assertion = authenticator.get(a.body.public_key, ORIGIN);
        const signedIn = await postJson(m.ward, `${W}/authentication`, assertion);
        assert.equal(signedIn.status, 200, JSON.stringify(signedIn.body));
        const ok = await one('login.succeeded', since, { method: 'passkey' }, 'spa');
        assert.deepEqual(ok.details.amr, ['webauthn', 'mfa']);
        assert.equal((await postJson(m.ward, `${W}/authentication`, assertion)).status, 400);
        await one('login.failed', since, { method: 'passkey', reason: 'error.webauthn.invalidChallenge' });
      } finally {
        m.ward.setAccount({ passkeys: { ...m.ward.registry.account().passkeys, enabled: false } });
      }
    });

    it('a magic link sign-in on the hosted page: a wrong code is login.failed, the right one login.succeeded', async () => {
      const user = await signup(m.ward);
      const page = await loginPage();
      const sent = await page.browser.postForm('/oauth/authorize/passwordless', {
        interaction: page.interaction,
        csrf: page.csrf,
        auth_type: 'magic_link',
        email: user.email,
      });
      assert.equal(sent.status, 200, await sent.text());
      // The address and the link are left out: the address's random part may be six digits too.
      const text = (await m.smtp.next(user.email)).text.replace(/https?:\/\/\S+/g, '').replaceAll(user.email, '');
      const code = codeIn(text);
      const since = now();
      const verify = (verification_code: string) =>
        page.browser.postForm('/oauth/authorize/passwordless/verify', {
          interaction: page.interaction,
          csrf: page.csrf,
          auth_type: 'magic_link',
          email: user.email,
          verification_code,
        });
      assert.equal((await verify(code === '000000' ? '111111' : '000000')).status, 400);
      await one('login.failed', since, { method: 'magic_link', reason: 'error.invalidVerificationCode' }, 'spa');
      const right = await verify(code);
      assert.equal(right.status, 303, await right.text());
      const ok = await one(
        'login.succeeded',
        since,
        { method: 'magic_link', amr: ['otp', 'email'], created: false },
        'spa',
      );
      assert.equal(ok.actor_id, user.id);
    });

    it('a custom token: a used-up token is login.failed, a live one login.succeeded', async () => {
      const user = await signup(m.ward);
      const token = await m.ward.registry.tkn.issueCustom(user.id, BACKEND.client_id);
      const since = now();
      const login = () =>
        new Browser(m.ward).get(
          `/identity/v1/custom-token/login?${new URLSearchParams({
            client_id: BACKEND.client_id,
            response_type: 'code',
            redirect_uri: CB,
            scope: 'openid',
            token,
          })}`,
        );
      assert.ok(location(await login()).searchParams.get('code'));
      assert.equal(
        (await one('login.succeeded', since, { method: 'custom_token' }, BACKEND.client_id)).actor_id,
        user.id,
      );
      assert.equal(location(await login()).searchParams.get('error'), 'access_denied');
      await one('login.failed', since, { method: 'custom_token', reason: 'invalid_token' }, BACKEND.client_id);
    });

    /** /oauth/authorize?provider=corp through the provider and back: Ward's last answer. */
    async function viaProvider(browser = new Browser(m.ward)) {
      const start = await browser.get(
        authorizeUrl({
          client_id: 'spa',
          response_type: 'code',
          redirect_uri: CB,
          scope: 'openid email',
          code_challenge: pkcePair().challenge,
          code_challenge_method: 'S256',
          provider: 'corp',
        }),
      );
      const back = await browser.get(location(start).toString());
      return { browser, res: await browser.get(location(back).toString()) };
    }

    it('social login: login.succeeded with its provider; a refusal and a wrong link password are login.failed', async () => {
      const sub = `corp-${engine}-${Date.now()}`;
      idp.account = { sub, email: `${sub}@corp.example`, email_verified: true, given_name: 'A', family_name: 'B' };
      const since = now();
      assert.equal((await viaProvider()).res.status, 302);
      await one('login.succeeded', since, { method: 'social', provider: 'corp', amr: ['social', 'corp'] }, 'spa');

      idp.mode = 'refuse';
      try {
        assert.equal((await viaProvider()).res.status, 302);
      } finally {
        idp.mode = 'ok';
      }
      const refused = await rows('login.failed', since);
      assert.equal(refused.length, 1, JSON.stringify(refused));
      assert.equal(refused[0]!.details.method, 'social');
      assert.equal(refused[0]!.target, 'client:spa');

      const owner = await signup(m.ward);
      idp.account = { sub: `${sub}-link`, email: owner.email, email_verified: true, given_name: 'A', family_name: 'B' };
      const { res, browser } = await viaProvider();
      const html = await res.text();
      const wrong = await browser.postForm('/identity/v1/oauth/link', {
        link_token: field(html, 'link_token'),
        csrf: field(html, 'csrf'),
        password: 'not the password',
      });
      assert.equal(wrong.status, 401);
      const failures = await rows('login.failed', since);
      assert.equal(failures.length, 2);
      const link = failures.find((f) => f.details.reason === 'wrong_password');
      assert.ok(link, JSON.stringify(failures));
      assert.equal(link.details.method, 'social');
      assert.equal(link.details.provider, 'corp');
      assert.equal(link.target, 'client:spa');
    });
  });
}
