// LG-01: no secret reaches the logs. Every flow runs against a Ward logging at trace level into the
// capturing sink `ward.logs`; then every line is searched for every secret the test created:
// passwords, tkn, codes, code_verifier, access/refresh/id tokens, client secrets and Basic
// credentials, SSO and CSRF cookie values, CSRF form tokens, including those sent in query strings,
// in malformed bodies, in refused requests and in an oversized header.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { request } from 'undici';
import { Browser } from '../helpers/browser.js';
import {
  CONFIDENTIAL_SECRET,
  authorizeUrl,
  codeFor,
  location,
  passwordLogin,
  pkcePair,
  redeem,
  signup,
  tokenRequest,
} from '../helpers/oauth.js';
import type { TestWard } from '../helpers/ward.js';
import { CSRF, SSO, basic, openLoginPage, postLogin, startSecurityWard, userinfo } from './support.js';

describe('LG-01: secrets never reach the logs', () => {
  let ward: TestWard;
  const secrets = new Map<string, string>();
  const keep = (what: string, value: string | undefined | null) => {
    assert.ok(value && value.length >= 8, `${what} is a real value`);
    secrets.set(value, what);
  };
  const json = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    ward.fetch(path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });

  before(async () => {
    ward = await startSecurityWard();
  });
  after(() => ward.close());

  it('runs signup, logins, the code flow, refresh, userinfo, revoke and logout', async () => {
    // Signup and password login, right and wrong.
    const user = await signup(ward, 'spa');
    keep('password', user.password);
    keep('signup tkn', user.tkn);
    keep(
      'login tkn',
      await passwordLogin(ward, user.email, user.password, 'spa', 'openid profile email offline_access'),
    );
    const wrong = 'Wrong-Password-9f3c2a';
    keep('wrong password', wrong);
    assert.equal(
      (
        await json('/identity/v1/password/login', {
          client_id: 'spa',
          scope: 'openid',
          email: user.email,
          password: wrong,
        })
      ).status,
      400,
    );

    // The code flow with a tkn in the query, then the token endpoint.
    const flow = await codeFor(ward, { scope: 'openid profile email offline_access' });
    keep('code', flow.code);
    keep('code_verifier', flow.verifier);
    keep('flow password', flow.user.password);
    keep('SSO cookie', await flow.browser.cookieValue(SSO));
    const { body } = await redeem(ward, flow.code, flow.verifier);
    keep('access token', body.access_token);
    keep('refresh token', body.refresh_token);
    keep('id token', body.id_token);
    assert.equal((await userinfo(ward, `Bearer ${body.access_token}`)).status, 200);
    const refreshed = (await (
      await tokenRequest(ward, { grant_type: 'refresh_token', client_id: 'spa', refresh_token: body.refresh_token! })
    ).json()) as Record<string, string>;
    keep('rotated access token', refreshed.access_token);
    keep('rotated refresh token', refreshed.refresh_token);
    keep('rotated id token', refreshed.id_token);
    // Reuse of the old refresh token and of the code (both log a warning event), a wrong verifier.
    assert.equal(
      (await tokenRequest(ward, { grant_type: 'refresh_token', client_id: 'spa', refresh_token: body.refresh_token! }))
        .status,
      400,
    );
    assert.equal((await redeem(ward, flow.code, flow.verifier)).res.status, 400);
    const other = await codeFor(ward);
    keep('second code', other.code);
    const badVerifier = pkcePair().verifier;
    keep('wrong code_verifier', badVerifier);
    assert.equal((await redeem(ward, other.code, badVerifier)).res.status, 400);

    // Confidential client: Basic and client_secret_post, and a wrong secret.
    keep('client secret', CONFIDENTIAL_SECRET);
    const authz = basic('backend', CONFIDENTIAL_SECRET);
    keep('Basic credentials', authz.slice('Basic '.length));
    const b1 = await codeFor(ward, { clientId: 'backend', redirectUri: 'https://api.example/cb', pkce: false });
    keep('backend code', b1.code);
    const t1 = (await (
      await tokenRequest(
        ward,
        { grant_type: 'authorization_code', code: b1.code, redirect_uri: 'https://api.example/cb' },
        { authorization: authz },
      )
    ).json()) as Record<string, string>;
    keep('HS256 id token', t1.id_token);
    keep('backend access token', t1.access_token);
    const b2 = await codeFor(ward, { clientId: 'backend', redirectUri: 'https://api.example/cb', pkce: false });
    keep('backend code 2', b2.code);
    const wrongSecret = 'wrong-secret-of-at-least-32-bytes-xxxxxxxx';
    keep('wrong client secret', wrongSecret);
    assert.equal(
      (
        await tokenRequest(ward, {
          grant_type: 'authorization_code',
          code: b2.code,
          redirect_uri: 'https://api.example/cb',
          client_id: 'backend',
          client_secret: wrongSecret,
        })
      ).status,
      401,
    );
    const post = await tokenRequest(ward, {
      grant_type: 'authorization_code',
      code: b2.code,
      redirect_uri: 'https://api.example/cb',
      client_id: 'backend',
      client_secret: CONFIDENTIAL_SECRET,
    });
    assert.equal(post.status, 200, 'a failed client authentication does not burn the code');
    keep('client_secret_post access token', ((await post.json()) as Record<string, string>).access_token);

    // The hosted login form: CSRF cookie and token, the password in a form body, a failed attempt.
    const browser = new Browser(ward);
    const page = await openLoginPage(ward, browser);
    keep('CSRF token', page.csrf);
    keep('CSRF cookie', await browser.cookieValue(CSRF));
    const formUser = await signup(ward);
    keep('form password', formUser.password);
    assert.equal(
      (
        await postLogin(ward, browser, {
          request: page.request,
          csrf: page.csrf,
          email: formUser.email,
          password: 'Form-Wrong-Password-1',
        })
      ).status,
      401,
    );
    keep('form wrong password', 'Form-Wrong-Password-1');
    const ok = await postLogin(ward, browser, {
      request: page.request,
      csrf: page.csrf,
      email: formUser.email,
      password: formUser.password,
    });
    assert.equal(ok.status, 303);
    keep('form code', location(ok).searchParams.get('code'));
    keep('form SSO cookie', await browser.cookieValue(SSO));

    // Revocation, then logout with the cookie.
    const rev = await ward.fetch('/oauth/revoke', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ client_id: 'spa', token: refreshed.refresh_token! }).toString(),
    });
    assert.equal(rev.status, 204);
    assert.equal((await flow.browser.get('/identity/v1/logout')).status, 200);
  });

  it('runs refused and malformed requests that carry secrets', async () => {
    const user = await signup(ward);
    keep('refused-flow password', user.password);
    const tkn = await passwordLogin(ward, user.email, user.password);
    keep('unused tkn', tkn);
    // Secrets in the query of unknown routes, of a token request, and of an authorize error.
    assert.equal(
      (await ward.fetch(`/no/such/route?tkn=${tkn}&password=${encodeURIComponent(user.password)}`)).status,
      404,
    );
    assert.equal(
      (
        await ward.fetch(`/oauth/token?code=${tkn}&client_secret=${encodeURIComponent(CONFIDENTIAL_SECRET)}`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: 'grant_type=authorization_code',
        })
      ).status,
      400,
    );
    const pkce = pkcePair();
    const bad = await ward.fetch(
      authorizeUrl({
        client_id: 'spa',
        response_type: 'code',
        redirect_uri: 'https://app.example/cb',
        scope: 'openid bogus',
        code_challenge: pkce.challenge,
        code_challenge_method: 'S256',
        tkn,
      }),
    );
    assert.equal(bad.status, 302);
    // Malformed and wrongly typed bodies around a password.
    const pw = user.password;
    assert.equal(
      (
        await ward.fetch('/identity/v1/password/login', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: `{"client_id":"spa","email":"${user.email}","password":"${pw}"`,
        })
      ).status,
      400,
    );
    assert.equal(
      (
        await ward.fetch('/identity/v1/password/login', {
          method: 'POST',
          headers: { 'content-type': 'text/plain' },
          body: `password=${pw}`,
        })
      ).status,
      415,
    );
    assert.equal(
      (
        await ward.fetch('/identity/v1/signup', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ client_id: 'spa', data: { email: 'x', password: pw } }),
        })
      ).status,
      400,
    );
    // Oversized header blocks whose last bytes, where the parser gives up, are a bearer token and
    // a session cookie (Node hands that raw chunk to the clientError handler as err.rawPacket).
    const flow = await codeFor(ward);
    const { body } = await redeem(ward, flow.code, flow.verifier);
    keep('oversized-request access token', body.access_token);
    keep('oversized-request SSO cookie', await flow.browser.cookieValue(SSO));
    for (const pad of [16_200, 16_300, 70_000]) {
      const big = await request(`${ward.url}/identity/v1/userinfo`, {
        dispatcher: ward.agent,
        headers: {
          'x-pad': 'p'.repeat(pad),
          authorization: `Bearer ${body.access_token}`,
          cookie: `${SSO}=${await flow.browser.cookieValue(SSO)}`,
        },
      });
      assert.equal(big.statusCode, 431);
      await big.body.text();
    }
    await new Promise((r) => setTimeout(r, 100));
  });

  /** A log line, plus the text of any Buffer serialised in it (pino writes them as byte arrays). */
  function searchable(line: string): string {
    const decoded: string[] = [];
    JSON.parse(line, (_k, v: unknown) => {
      const b = v as { type?: string; data?: unknown };
      if (b && b.type === 'Buffer' && Array.isArray(b.data))
        decoded.push(Buffer.from(b.data as number[]).toString('latin1'));
      return v;
    });
    return [line, ...decoded].join('\n');
  }

  it('finds none of them in any log line, raw, URL-encoded or inside a serialised Buffer', () => {
    assert.ok(ward.logs.length > 40, `the sink captured the run (${ward.logs.length} lines)`);
    assert.ok(
      ward.logs.some((l) => l.includes('"event":"login.failed"')),
      'security events are logged',
    );
    assert.ok(
      ward.logs.some((l) => l.includes('"msg":"request"')),
      'request lines are logged',
    );
    const leaks: string[] = [];
    for (const [value, what] of secrets) {
      const forms = new Set([value, encodeURIComponent(value), JSON.stringify(value).slice(1, -1)]);
      for (const raw of ward.logs) {
        const line = searchable(raw);
        if ([...forms].some((f) => line.includes(f))) leaks.push(`${what}: ${raw.slice(0, 300)}`);
      }
    }
    assert.deepEqual(leaks, []);
  });
});
