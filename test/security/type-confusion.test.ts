// LG-04 (type confusion): every public JSON / form endpoint answers a wrongly typed field with a
// clear 4xx JSON error (error_message_key, no internals), never a 500, a crash or a hang. Field by
// field, a valid-looking body gets each of null, true, numbers (1e309 and 1e999 parse to Infinity),
// arrays (one nested 5,000 deep), objects (a {"$ne":""} operator too), "", a 10,000-character
// string, a string with a NUL and an unpaired surrogate, and the valid value with a NUL appended;
// the whole body is also sent as [], a string, a number, null, with every field twice and with
// unknown fields. /oauth/token, /oauth/revoke and /oauth/introspect get the same as forms (repeated, empty, bare,
// %00 and malformed-percent values); a few path parameters and query strings get NULs too. Real
// credentials (Bearer, step_up token, SSO and CSRF cookies) are set up first, so the sweep reaches
// each handler's own parsing. The hosted pages (login, MFA, consent, link, signup completion) and /oauth/authorize
// answer HTML by contract: for them the rule is "never 5xx, nothing internal". A 2xx answer is no
// failure (an unknown field is ignored; a wrong-typed optional one may be): those are listed as
// diagnostics. Runs on SQLite, and on PostgreSQL too when WARD_TEST_DATABASE_URL is set, whose text
// type cannot hold a NUL: that is where a NUL reaching a query used to answer 500.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Browser } from '../helpers/browser.js';
import { engines } from '../helpers/databases.js';
import { giveFactors, startMfaWard, type MfaWard } from '../helpers/mfa.js';
import {
  CONFIDENTIAL_CLIENT,
  PUBLIC_CLIENT,
  authorizeUrl,
  codeFor,
  location,
  pkcePair,
  redeem,
} from '../helpers/oauth.js';
import { NO_RATE_LIMITS, openLoginPage } from './support.js';
import { createSweeper, type Body, type Target } from './type-confusion-sweep.js';

const OPS_SECRET = 'an-ops-secret-of-at-least-32-bytes-long!!';
const OPS_CLIENT = {
  client_id: 'ops',
  type: 'confidential',
  client_secret: OPS_SECRET,
  grant_types: ['client_credentials'],
  management_scopes: ['read:clients'],
};

const PASSWORD_APP = { ...PUBLIC_CLIENT, client_id: 'password-app', grant_types: ['password'] };
const API_SECRET = 'a-resource-server-secret-of-32-bytes-or-more';
const API = { client_id: 'api', type: 'resource_server', client_secret: API_SECRET };

for (const engine of engines())
  describe(`LG-04: type confusion on the public endpoints (${engine})`, () => {
    let m: MfaWard;
    let started = 0;
    let minted = 0;
    let sweeper: ReturnType<typeof createSweeper>;
    const sweep: ReturnType<typeof createSweeper>['sweep'] = (...a) => sweeper.sweep(...a);

    // Credentials, set up once.
    let ssoBrowser: Browser; // a browser with an SSO session (mints codes without a password)
    let stepper: { access: string; email: string; password: string }; // has a verified email factor
    let stepUpToken: string;
    let challengeId: string;
    let emailReg: { access: string }; // a pending email registration
    let phoneReg: { access: string }; // a pending SMS registration
    let plain: { access: string; email: string; password: string; browser: Browser }; // no factors
    let refreshToken: string;
    let revocable: string;
    let hosted: { browser: Browser; csrf: string; interaction: string };

    async function tokensFor(scope = 'openid profile email') {
      const { code, verifier, user, browser } = await codeFor(m.ward, { scope });
      const { res, body } = await redeem(m.ward, code, verifier);
      assert.equal(res.status, 200, JSON.stringify(body));
      return {
        access: body.access_token!,
        refresh: body.refresh_token,
        email: user.email,
        password: user.password,
        id: user.id,
        browser,
      };
    }

    /** A fresh authorization code of 'spa' from the SSO session, with its verifier. */
    async function mintCode(): Promise<{ code: string; verifier: string }> {
      const pkce = pkcePair();
      minted++;
      const res = await ssoBrowser.get(
        authorizeUrl({
          client_id: 'spa',
          response_type: 'code',
          redirect_uri: 'https://app.example/cb',
          scope: 'openid',
          code_challenge: pkce.challenge,
          code_challenge_method: 'S256',
        }),
      );
      const code = location(res).searchParams.get('code');
      assert.ok(code, `no code: ${res.headers.get('location')}`);
      return { code, verifier: pkce.verifier };
    }

    const bearer = (access: string) => ({ authorization: `Bearer ${access}` });

    before(async () => {
      started = Date.now();
      m = await startMfaWard({
        engine,
        clients: [PUBLIC_CLIENT, CONFIDENTIAL_CLIENT, OPS_CLIENT, PASSWORD_APP, API],
        account: {
          ...NO_RATE_LIMITS,
          // Wrong codes are the point here: keep the per-user lockouts out of the way (their 429 is fine, but hides the parsing).
          verification_failures_per_user: { limit: 100, window_seconds: 3600 },
          verification_requests_per_step_up: 100,
          verification_requests_per_user: { limit: 10_000, window_seconds: 3600 },
        },
      });
      sweeper = createSweeper(m.ward, engine);
      const s = await tokensFor();
      await giveFactors(m.ward, s.id, { email: s.email });
      stepper = s;
      ssoBrowser = s.browser;
      const su = await post('/identity/v1/mfa/stepup', JSON.stringify(stepUpBody()), bearer(stepper.access));
      assert.equal(su.status, 200, await su.clone().text());
      stepUpToken = ((await su.json()) as { token: string }).token;
      const st = await post(
        '/identity/v1/passwordless/start',
        JSON.stringify({ step_up: stepUpToken, auth_type: 'email' }),
      );
      assert.equal(st.status, 200, await st.clone().text());
      challengeId = ((await st.json()) as { challenge_id: string }).challenge_id;

      emailReg = await tokensFor();
      assert.equal((await post('/identity/v1/mfa/credentials/emails', '{}', bearer(emailReg.access))).status, 200);
      phoneReg = await tokensFor();
      assert.equal(
        (
          await post(
            '/identity/v1/mfa/credentials/phone-numbers',
            JSON.stringify({ phone_number: '+33612345678' }),
            bearer(phoneReg.access),
          )
        ).status,
        200,
      );
      plain = await tokensFor();
      const r = await tokensFor('openid offline_access');
      assert.ok(r.refresh, 'a refresh token');
      refreshToken = r.refresh!;
      revocable = (await tokensFor()).access;

      const browser = new Browser(m.ward);
      const page = await openLoginPage(m.ward, browser);
      hosted = { browser, csrf: page.csrf, interaction: page.interaction };
    });
    after(async () => {
      await m.close();
    });

    function post(path: string, body: string, headers: Record<string, string> = {}, type = 'application/json') {
      return m.ward.fetch(path, { method: 'POST', body, headers: { 'content-type': type, ...headers } });
    }

    const stepUpBody = (): Body => ({
      client_id: 'spa',
      response_type: 'code',
      redirect_uri: 'https://app.example/cb',
      scope: 'openid email',
      state: 'st-1',
      nonce: 'n-1',
      code_challenge: pkcePair().challenge,
      code_challenge_method: 'S256',
    });

    const assertNone = (problems: string[]) =>
      assert.deepEqual(problems, [], `${problems.length} answers break the rule:\n${problems.join('\n')}`);

    it('signup and password login', async (ctx) => {
      const problems: string[] = [];
      let n = 0;
      await sweep(ctx, problems, {
        path: '/identity/v1/signup',
        body: () => ({
          client_id: 'spa',
          scope: 'openid profile email',
          data: {
            email: `tc${++n}-${Date.now()}@example.com`,
            password: 'correct horse battery',
            given_name: 'Ada',
            family_name: 'Lovelace',
          },
        }),
        fields: [
          'client_id',
          'scope',
          'data',
          'data.email',
          'data.password',
          'data.given_name',
          'data.family_name',
          'data.phone_number',
        ],
      });
      await sweep(ctx, problems, {
        path: '/identity/v1/password/login',
        body: () => ({ client_id: 'spa', scope: 'openid profile email', email: plain.email, password: plain.password }),
        fields: ['client_id', 'scope', 'email', 'password', 'username', 'phone_number'],
      });
      assertNone(problems);
    });

    it('step-up and passwordless', async (ctx) => {
      const problems: string[] = [];
      await sweep(ctx, problems, {
        path: '/identity/v1/mfa/stepup',
        body: stepUpBody,
        headers: () => bearer(stepper.access),
        fields: [
          'client_id',
          'response_type',
          'redirect_uri',
          'scope',
          'state',
          'nonce',
          'code_challenge',
          'code_challenge_method',
          'response_mode',
          'prompt',
          'max_age',
          'id_token_hint',
          'tkn',
          'action',
        ],
      });
      await sweep(ctx, problems, {
        path: '/identity/v1/passwordless/start',
        body: () => ({ step_up: stepUpToken, auth_type: 'email' }),
        fields: ['step_up', 'auth_type'],
      });
      await sweep(ctx, problems, {
        path: '/identity/v1/passwordless/verify',
        body: () => ({ challenge_id: challengeId, verification_code: '000000', trust_device: true }),
        fields: ['challenge_id', 'verification_code', 'trust_device'],
      });
      assertNone(problems);
    });

    it('MFA credentials, sessions, userinfo, unlink, update-profile', async (ctx) => {
      const problems: string[] = [];
      await sweep(ctx, problems, {
        path: '/identity/v1/mfa/credentials/emails/verify',
        body: () => ({ verification_code: '000000' }),
        headers: () => bearer(emailReg.access),
        fields: ['verification_code'],
      });
      await sweep(ctx, problems, {
        path: '/identity/v1/mfa/credentials/phone-numbers/verify',
        body: () => ({ verification_code: '000000' }),
        headers: () => bearer(phoneReg.access),
        fields: ['verification_code'],
      });
      await sweep(ctx, problems, {
        path: '/identity/v1/mfa/credentials/phone-numbers',
        body: () => ({ phone_number: '+33612345679' }),
        headers: () => bearer(phoneReg.access),
        fields: ['phone_number'],
      });
      await sweep(ctx, problems, {
        method: 'DELETE',
        path: '/identity/v1/mfa/credentials/phone-numbers',
        body: () => ({ phone_number: '+33612345670' }),
        headers: () => bearer(plain.access),
        fields: ['phone_number'],
      });
      await sweep(ctx, problems, {
        path: '/identity/v1/mfa/credentials/emails',
        body: () => ({}),
        headers: () => bearer(plain.access),
        fields: [],
      });
      await sweep(ctx, problems, {
        method: 'DELETE',
        path: '/identity/v1/mfa/credentials/emails',
        body: () => ({}),
        headers: () => bearer(plain.access),
        fields: [],
      });
      await sweep(ctx, problems, {
        method: 'DELETE',
        path: '/identity/v1/sessions/others',
        body: () => ({}),
        headers: () => bearer(plain.access),
        fields: [],
      });
      await sweep(ctx, problems, {
        path: '/identity/v1/userinfo',
        body: () => ({}),
        headers: () => bearer(plain.access),
        fields: [],
      });
      await sweep(ctx, problems, {
        path: '/identity/v1/unlink',
        body: () => ({ provider: 'corp' }),
        headers: () => bearer(plain.access),
        fields: ['identity_id', 'provider'],
      });
      // Account self-service: the Bearer calls, and those that take a code instead.
      const selfService: Array<[string, Record<string, unknown>]> = [
        ['/identity/v1/send-email-verification', { redirect_url: 'https://app.example/cb' }],
        ['/identity/v1/update-email', { email: 'sweep-new@example.com', redirect_url: 'https://app.example/cb' }],
        ['/identity/v1/update-phone-number', { phone_number: '+33612345678' }],
        ['/identity/v1/verify-phone-number', { phone_number: '+33612345678', verification_code: '000000' }],
        ['/identity/v1/update-password', { client_id: 'spa', old_password: 'not it', password: 'a new password 1' }],
      ];
      for (const [path, body] of selfService)
        await sweep(ctx, problems, {
          path,
          body: () => body,
          headers: () => bearer(plain.access),
          fields: Object.keys(body),
        });
      await sweep(ctx, problems, {
        path: '/identity/v1/send-phone-number-verification',
        body: () => ({}),
        headers: () => bearer(plain.access),
        fields: [],
      });
      await sweep(ctx, problems, {
        path: '/identity/v1/verify-email',
        body: () => ({ access_token: plain.access, email: 'sweep@example.com', verification_code: '000000' }),
        fields: ['access_token', 'email', 'verification_code'],
      });
      await sweep(ctx, problems, {
        path: '/identity/v1/forgot-password',
        encodings: ['json', 'form'],
        body: () => ({ client_id: 'spa', email: 'sweep@example.com', redirect_url: 'https://app.example/cb' }),
        fields: ['client_id', 'email', 'phone_number', 'redirect_url', 'return_to_after_password_reset'],
      });
      await sweep(ctx, problems, {
        path: '/identity/v1/update-password',
        encodings: ['json', 'form'],
        body: () => ({ client_id: 'spa', email: 'sweep@example.com', verification_code: '000000', password: 'pw 1' }),
        fields: ['client_id', 'email', 'phone_number', 'verification_code', 'password', 'user_id'],
      });
      await sweep(ctx, problems, {
        path: '/identity/v1/password/reset',
        html: true,
        encodings: ['form'],
        body: () => ({ user_id: 'u', verification_code: 'x'.repeat(43), password: 'p', password_confirmation: 'p' }),
        fields: ['user_id', 'verification_code', 'password', 'password_confirmation'],
      });
      await sweep(ctx, problems, {
        path: '/identity/v1/password/forgot',
        html: true,
        encodings: ['form'],
        body: () => ({ client_id: 'spa', email: 'sweep@example.com' }),
        fields: ['client_id', 'email'],
      });
      await sweep(ctx, problems, {
        path: '/identity/v1/update-profile',
        body: () => ({
          nickname: 'ada',
          birthdate: '1815-12-10',
          address: { locality: 'London' },
          custom_fields: {},
          redirect_url: 'https://app.example/profile',
        }),
        headers: () => bearer(plain.access),
        fields: ['nickname', 'birthdate', 'address', 'address.locality', 'custom_fields', 'redirect_url', 'zoneinfo'],
      });
      assertNone(problems);
    });

    it('token endpoint (JSON and form): authorization_code, refresh_token, client_credentials', async (ctx) => {
      const problems: string[] = [];
      const used = { code: 'no-such-code', verifier: pkcePair().verifier };
      await sweep(ctx, problems, {
        path: '/oauth/token',
        encodings: ['json', 'form'],
        // A live code where the checks after its consumption are confused; elsewhere a used one does (the refusal comes first).
        body: async (field) => {
          const { code, verifier } = field === 'redirect_uri' || field === 'code_verifier' ? await mintCode() : used;
          return {
            grant_type: 'authorization_code',
            client_id: 'spa',
            code,
            redirect_uri: 'https://app.example/cb',
            code_verifier: verifier,
          };
        },
        fields: ['grant_type', 'client_id', 'code', 'redirect_uri', 'code_verifier', 'client_secret', 'scope'],
      });
      await sweep(ctx, problems, {
        path: '/oauth/token',
        encodings: ['json', 'form'],
        body: () => ({ grant_type: 'refresh_token', client_id: 'spa', refresh_token: refreshToken, scope: 'openid' }),
        // An accepted request rotates the token: keep the newest.
        onAnswer: (status, text) => {
          if (status === 200) refreshToken = (JSON.parse(text) as { refresh_token: string }).refresh_token;
        },
        fields: ['refresh_token', 'scope', 'client_id'],
      });
      await sweep(ctx, problems, {
        path: '/oauth/token',
        encodings: ['json', 'form'],
        body: () => ({
          grant_type: 'client_credentials',
          client_id: 'ops',
          client_secret: OPS_SECRET,
          scope: 'read:clients',
        }),
        fields: ['client_id', 'client_secret', 'scope'],
      });
      await sweep(ctx, problems, {
        path: '/oauth/token',
        encodings: ['json', 'form'],
        body: () => ({
          grant_type: 'password',
          client_id: 'password-app',
          username: plain.email,
          password: plain.password,
          scope: 'openid',
        }),
        fields: ['client_id', 'username', 'password', 'scope'],
      });
      assertNone(problems);
    });

    it('introspection endpoint (JSON and form)', async (ctx) => {
      const problems: string[] = [];
      await sweep(ctx, problems, {
        path: '/oauth/introspect',
        encodings: ['json', 'form'],
        body: () => ({
          token: plain.access,
          client_id: 'api',
          client_secret: API_SECRET,
          token_type_hint: 'access_token',
        }),
        fields: ['token', 'client_id', 'client_secret', 'token_type_hint'],
      });
      assertNone(problems);
    });

    it('revocation endpoint (JSON and form)', async (ctx) => {
      const problems: string[] = [];
      await sweep(ctx, problems, {
        path: '/oauth/revoke',
        encodings: ['json', 'form'],
        body: () => ({ token: revocable, client_id: 'spa', token_type_hint: 'access_token' }),
        fields: ['token', 'client_id', 'client_secret', 'token_type_hint'],
      });
      assertNone(problems);
    });

    it('hosted pages (HTML by contract): login, MFA, consent, link, signup completion', async (ctx) => {
      const problems: string[] = [];
      const base = () => ({ csrf: hosted.csrf, interaction: hosted.interaction });
      // Posted by the browser as forms (JSON is parsed there too, but the sweep above covers the JSON parser).
      const common = { browser: hosted.browser, html: true, encodings: ['form'] as Array<'json' | 'form'> };
      await sweep(ctx, problems, {
        ...common,
        path: '/oauth/authorize/login',
        body: () => ({ ...base(), email: plain.email, password: 'a wrong password' }),
        fields: ['csrf', 'interaction', 'email', 'password'],
      });
      await sweep(ctx, problems, {
        ...common,
        path: '/oauth/authorize/mfa',
        body: () => ({
          ...base(),
          step_up: stepUpToken,
          auth_type: 'email',
          challenge_id: challengeId,
          verification_code: '000000',
        }),
        fields: ['step_up', 'auth_type', 'action', 'challenge_id', 'verification_code'],
      });
      await sweep(ctx, problems, {
        ...common,
        path: '/oauth/authorize/consent',
        body: () => ({ ...base(), decision: 'deny' }),
        fields: ['decision'],
      });
      await sweep(ctx, problems, {
        ...common,
        path: '/identity/v1/oauth/link',
        body: () => ({ csrf: hosted.csrf, link_token: 'not-a-link-token', password: 'x' }),
        fields: ['csrf', 'link_token', 'password'],
      });
      await sweep(ctx, problems, {
        ...common,
        path: '/identity/v1/signup/complete',
        body: () => ({
          csrf: hosted.csrf,
          signup_token: 'not-a-signup-token',
          email: 'sweep@example.com',
          'custom_fields.size': '42',
        }),
        fields: ['csrf', 'signup_token', 'email', 'given_name', 'custom_fields.size'],
      });
      assertNone(problems);
    });

    it('the hosted account page (HTML by contract): its forms', async (ctx) => {
      const problems: string[] = [];
      // A user without factors, signed in in this browser: the forms reach the self-service rules.
      const page = await (await plain.browser.get('/identity/v1/account')).text();
      assert.match(page, /<h1>Your account<\/h1>/);
      const csrf = /name="csrf" value="([^"]+)"/.exec(page)![1]!;
      const common = { browser: plain.browser, html: true, encodings: ['form'] as Array<'json' | 'form'> };
      const forms: Array<[string, Record<string, string>]> = [
        ['/identity/v1/account/email', { email: 'sweep-account@example.com', client_id: 'spa' }],
        ['/identity/v1/account/phone', { phone_number: '+33612345679' }],
        ['/identity/v1/account/phone/verify', { phone_number: '+33612345679', verification_code: '000000' }],
        [
          '/identity/v1/account/password',
          { old_password: 'not it', password: 'a new password 1', password_confirmation: 'a new password 1' },
        ],
        ['/identity/v1/account/step-up', { auth_type: 'email', step_up: 'not-a-step-up' }],
        [
          '/identity/v1/account/step-up/verify',
          { step_up: 'x', challenge_id: 'c'.repeat(32), auth_type: 'sms', verification_code: '000000' },
        ],
      ];
      for (const [path, body] of forms)
        await sweep(ctx, problems, {
          ...common,
          path,
          body: () => ({ csrf, ...body }),
          fields: ['csrf', ...Object.keys(body)],
        });
      assertNone(problems);
    });

    it('path parameters and query strings (NUL, unpaired surrogate, long)', async (ctx) => {
      const problems: string[] = [];
      const confused = ['%00', 'a%00b', '%ED%A0%80', 'x'.repeat(5000), '%', '%5B%5D'];
      const one = async (t: Target, what: string) => {
        const p = await sweeper.probe(t, '', '', what);
        if (p) problems.push(p);
      };
      for (const v of confused) {
        const label = v.length > 20 ? `${v.length} characters` : v;
        await one(
          {
            method: 'DELETE',
            path: `/identity/v1/mfa/trusteddevices/${v}`,
            body: () => ({}),
            fields: [],
            headers: () => bearer(plain.access),
          },
          `id=${label}`,
        );
        await one(
          {
            method: 'GET',
            path: `/identity/v1/sso/data?client_id=${v}`,
            body: () => ({}),
            fields: [],
            browser: ssoBrowser,
          },
          `client_id=${label}`,
        );
        await one(
          { method: 'GET', path: `/identity/v1/config?client_id=spa&lang=${v}`, body: () => ({}), fields: [] },
          `lang=${label}`,
        );
        for (const query of [`client_id=spa&token=${v}`, `client_id=${v}&token=t`])
          await one({ method: 'GET', path: `/identity/v1/signup/data?${query}`, body: () => ({}), fields: [] }, query);
        await one(
          {
            method: 'GET',
            path: `/identity/v1/signup/complete?signup_token=${v}`,
            body: () => ({}),
            fields: [],
            html: true,
          },
          `signup_token=${label}`,
        );
        await one(
          {
            method: 'GET',
            path: `/identity/v1/account?notice=${v}&client_id=${v}`,
            body: () => ({}),
            fields: [],
            browser: ssoBrowser,
            html: true,
          },
          `account page notice, client_id=${label}`,
        );
        await one(
          { method: 'GET', path: `/identity/v1/config?client_id=${v}`, body: () => ({}), fields: [] },
          `client_id=${label}`,
        );
        const pkce = pkcePair();
        const q = `response_type=code&redirect_uri=${encodeURIComponent('https://app.example/cb')}&scope=openid&code_challenge=${pkce.challenge}&code_challenge_method=S256`;
        // Through the SSO session: a code is issued, bound to what the request carried.
        for (const name of [
          'client_id',
          'nonce',
          'state',
          'tkn',
          'id_token_hint',
          'login_hint',
          'max_age',
          'prompt',
          'provider',
        ]) {
          const query = name === 'client_id' ? `${q}&client_id=${v}` : `${q}&client_id=spa&${name}=${v}`;
          await one(
            {
              method: 'GET',
              path: `/oauth/authorize?${query}`,
              body: () => ({}),
              fields: [],
              browser: ssoBrowser,
              html: true,
            },
            `${name}=${label}`,
          );
        }
      }
      ctx.diagnostic(`path and query: ${sweeper.stats.sent} requests so far`);
      assertNone(problems);
    });

    it('is still serving, and stays bounded', async (ctx) => {
      const res = await m.ward.fetch('/identity/v1/userinfo', { headers: bearer(stepper.access) });
      assert.equal(res.status, 200);
      const seconds = (Date.now() - started) / 1000;
      const { sent, accepted } = sweeper.stats;
      ctx.diagnostic(
        `${sent} sweep requests (and ${minted} to mint codes) in ${seconds.toFixed(1)} s with the setup; ${accepted.length} answered 2xx/3xx`,
      );
      // Which inputs were accepted (set WARD_TEST_VERBOSE=1 for each one): a wrong-typed optional field ignored, an unknown field, a 303 of a hosted page.
      const byEndpoint = new Map<string, number>();
      for (const a of accepted) {
        const endpoint = a.split(' ').slice(0, 2).join(' ');
        byEndpoint.set(endpoint, (byEndpoint.get(endpoint) ?? 0) + 1);
      }
      for (const [endpoint, count] of byEndpoint) ctx.diagnostic(`accepted: ${endpoint}: ${count}`);
      if (process.env.WARD_TEST_VERBOSE) for (const a of accepted) ctx.diagnostic(`accepted: ${a}`);
      assert.ok(sent + minted < 3000, `${sent + minted} requests`);
    });
  });
