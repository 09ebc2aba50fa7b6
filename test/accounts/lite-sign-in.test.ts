// A lite profile (lite_only, made by an administrator or an import) signs in with nothing, even a
// credential it somehow has: a password (the Core SDK's password login and the hosted login page), a
// passwordless code or link (none is sent), a passkey, a social identity (linked, or by its email), a
// custom token; each refused exactly as an unknown user is, and audited as `login.failed` with reason
// `lite_profile` and the user. Forgot-password sends it nothing either. On SQLite and PostgreSQL.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { auditRows } from '../helpers/audit.js';
import { Browser } from '../helpers/browser.js';
import { engines } from '../helpers/databases.js';
import { submitLoginPage } from '../helpers/hosted-login.js';
import { CONSOLE_CLIENT, api, consoleToken } from '../helpers/management.js';
import { startMfaWard, type MfaWard } from '../helpers/mfa.js';
import { CONFIDENTIAL_SECRET, PUBLIC_CLIENT, authorizeUrl, location, pkcePair, signup } from '../helpers/oauth.js';
import { SoftAuthenticator } from '../helpers/soft-authenticator.js';
import { startTinyIdp, type TinyIdp } from '../helpers/tiny-idp.js';

const CALLBACK = 'https://app.example/cb';
type Api = ReturnType<typeof api>;

for (const engine of engines())
  describe(`a lite profile signs in with nothing (${engine})`, () => {
    let m: MfaWard;
    let idp: TinyIdp;
    let admin: Api;
    before(async () => {
      idp = await startTinyIdp();
      m = await startMfaWard({
        engine,
        clients: [
          PUBLIC_CLIENT,
          CONSOLE_CLIENT,
          {
            client_id: 'app-backend',
            type: 'confidential',
            client_secret: CONFIDENTIAL_SECRET,
            allowed_callback_urls: [CALLBACK],
            custom_token_login: true,
          },
        ],
        account: {
          passkeys: { enabled: true },
          passwordless: { magic_link: true, signup: true },
          rate_limits: { login: { limit: null }, signup: { limit: null } },
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
      admin = api(m.ward, (await consoleToken(m.ward, 'manager')).token);
    });
    after(async () => {
      await m.close();
      await idp.close();
    });

    const post = async (path: string, body: Record<string, unknown>) => {
      const res = await m.ward.fetch(path, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      return { status: res.status, body: (await res.json().catch(() => ({}))) as Record<string, any> };
    };
    const makeLite = async (id: string) => {
      const res = await admin.patch(`/api/v1/users/${id}`, { lite_only: true });
      assert.equal(res.status, 200, JSON.stringify(res.body));
    };
    /** The login.failed events of this user with reason lite_profile. */
    const liteRefusals = async (userId: string, method: string) => {
      const events = await auditRows(m.ward, { action: 'login.failed', limit: 500 });
      return events.filter(
        (e) => e.details.reason === 'lite_profile' && e.details.method === method && e.actor_id === userId,
      );
    };

    it('a password, right or wrong, reads like an unknown user on the API and the hosted page', async () => {
      const u = await signup(m.ward);
      assert.equal((await post('/identity/v1/password/login', { client_id: 'spa', ...u })).status, 200);
      await makeLite(u.id);
      const right = await post('/identity/v1/password/login', {
        client_id: 'spa',
        email: u.email,
        password: u.password,
      });
      const unknown = await post('/identity/v1/password/login', {
        client_id: 'spa',
        email: `nobody-${u.id}@example.com`,
        password: u.password,
      });
      assert.equal(right.status, 400);
      assert.deepEqual(right.body, unknown.body, 'the same answer as for an address of no account');
      assert.equal(right.body.error_message_key, 'error.invalidEmailOrPassword');
      assert.equal((await liteRefusals(u.id, 'password')).length, 1, 'audited with its reason and user');

      // The hosted login page: the same page as for an unknown address.
      const pagesFor = async (email: string) => {
        const browser = new Browser(m.ward);
        const page = await browser.get(
          authorizeUrl({
            client_id: 'spa',
            response_type: 'code',
            redirect_uri: CALLBACK,
            scope: 'openid',
            state: 's',
            code_challenge: pkcePair().challenge,
            code_challenge_method: 'S256',
          }),
        );
        const res = await submitLoginPage(browser, await page.text(), email, u.password);
        const html = await res.text();
        return { status: res.status, error: /role="alert"[^>]*>([^<]*)</.exec(html)?.[1] };
      };
      const hosted = await pagesFor(u.email);
      assert.deepEqual(hosted, await pagesFor(`nobody-${u.id}@example.com`));
      assert.notEqual(hosted.status, 303, 'no sign-in');
      assert.equal((await liteRefusals(u.id, 'password')).length, 2);
    });

    it('passwordless: no code is sent, as to an address of no account; an older code is refused', async () => {
      const u = await signup(m.ward);
      const start = (email: string) =>
        post('/identity/v1/passwordless/start', {
          client_id: 'spa',
          auth_type: 'magic_link',
          email,
          response_type: 'code',
          redirect_uri: CALLBACK,
          scope: 'openid',
          code_challenge: pkcePair().challenge,
          code_challenge_method: 'S256',
        });
      // A code sent while the profile was a full one...
      assert.equal((await start(u.email)).status, 200);
      const earlier = await m.smtp.next(u.email);
      await makeLite(u.id);
      const lite = await start(u.email);
      assert.equal(lite.status, 200);
      assert.deepEqual(lite.body, {});
      await assert.rejects(m.smtp.next(u.email, 700), /no email/, 'nothing sent to a lite profile');
      assert.equal((await liteRefusals(u.id, 'magic_link')).length, 1);
      // ...is refused like a wrong one once the profile is lite.
      const token = /verification_code=([A-Za-z0-9_-]+)/.exec(earlier.text)![1]!;
      const used = await post('/identity/v1/passwordless/verify', {
        auth_type: 'magic_link',
        email: u.email,
        verification_code: token,
      });
      assert.equal(used.body.error_message_key, 'error.invalidVerificationCode');
      assert.equal((await liteRefusals(u.id, 'magic_link')).length, 2);
      // Forgot-password sends it nothing either.
      const forgot = await post('/identity/v1/forgot-password', { client_id: 'spa', email: u.email });
      assert.equal(forgot.status, 204);
      await assert.rejects(m.smtp.next(u.email, 700), /no email/);
    });

    it('a passkey it holds is refused like an unknown passkey', async () => {
      const key = new SoftAuthenticator();
      const email = `lite-key-${Date.now()}@example.com`;
      const options = await post('/identity/v1/webauthn/signup-options', {
        client_id: 'spa',
        origin: m.ward.url,
        profile: { email },
      });
      assert.equal(options.status, 200, JSON.stringify(options.body));
      const created = await post('/identity/v1/webauthn/signup', {
        public_key_credential: key.create(options.body.options.public_key, m.ward.url),
      });
      assert.equal(created.status, 200, JSON.stringify(created.body));
      const id = (await m.ward.registry.storage.users.findByEmail(email))!.id;
      const signIn = async () => {
        const o = await post('/identity/v1/webauthn/authentication-options', { client_id: 'spa', origin: m.ward.url });
        return post('/identity/v1/webauthn/authentication', key.get(o.body.public_key, m.ward.url));
      };
      assert.equal((await signIn()).status, 200, 'the key signs the full profile in');
      await makeLite(id);
      const refused = await signIn();
      assert.equal(refused.status, 400);
      assert.equal(refused.body.error_message_key, 'error.webauthn.verificationFailed');
      assert.equal(refused.body.error_description, 'Unknown passkey');
      assert.equal((await liteRefusals(id, 'passkey')).length, 1);
    });

    it('a social identity it holds, or its email at a provider, signs nothing in', async () => {
      const social = async () => {
        const browser = new Browser(m.ward);
        const start = await browser.get(
          authorizeUrl({
            client_id: 'spa',
            response_type: 'code',
            redirect_uri: CALLBACK,
            scope: 'openid email',
            state: 'soc',
            code_challenge: pkcePair().challenge,
            code_challenge_method: 'S256',
            provider: 'corp',
          }),
        );
        const back = await browser.get(location(start).toString());
        return location(await browser.get(location(back).toString()));
      };
      const email = `lite-social-${Date.now()}@corp.example`;
      idp.account = { sub: `corp-${email}`, email, email_verified: true, given_name: 'L', family_name: 'S' };
      assert.ok((await social()).searchParams.get('code'), 'the first login creates the user');
      const id = (await m.ward.registry.storage.users.findByEmail(email))!.id;
      await makeLite(id);
      const linked = await social();
      assert.equal(linked.searchParams.get('error'), 'access_denied');
      assert.equal(linked.searchParams.get('code'), null);
      // A lite profile made by an administrator, and a provider's verified email that matches it.
      const made = await admin.post('/api/v1/users', {
        email: `made-${email}`,
        password: 'a long enough password',
        email_verified: true,
      });
      assert.equal(made.status, 201, JSON.stringify(made.body));
      await makeLite(made.body.id);
      idp.account = { ...idp.account, sub: `other-${email}`, email: `made-${email}` };
      const byEmail = await social();
      assert.equal(byEmail.searchParams.get('error'), 'access_denied', 'no link page either');
      assert.equal((await liteRefusals(id, 'social')).length, 1);
      assert.equal((await liteRefusals(made.body.id, 'social')).length, 1);
      assert.equal(await m.ward.registry.storage.identities.find('corp', `other-${email}`), undefined);
    });

    it('a custom token minted for it signs nothing in', async () => {
      const u = await signup(m.ward);
      await makeLite(u.id);
      const minted = await admin.post('/api/v1/custom-tokens', { user_id: u.id, client_id: 'app-backend' });
      assert.equal(minted.status, 201, JSON.stringify(minted.body));
      const res = await m.ward.fetch(
        `/identity/v1/custom-token/login?${new URLSearchParams({
          client_id: 'app-backend',
          response_type: 'code',
          redirect_uri: CALLBACK,
          scope: 'openid',
          state: 'ct',
          token: minted.body.token,
        })}`,
      );
      assert.equal(location(res).searchParams.get('error'), 'access_denied');
      assert.equal((await liteRefusals(u.id, 'custom_token')).length, 1);
    });
  });
