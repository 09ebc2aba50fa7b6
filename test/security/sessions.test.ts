// The SSO session: SS-01 (fixation: a new id at every login, a planted value never honoured, the
// replaced session ended), SS-02 (cookie attributes, 256-bit value, only its digest stored), SS-05
// (logout ends the server-side session), SS-06 (idle and absolute timeouts on the FakeClock).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sha256 } from '../../src/lib/secrets.js';
import { Browser } from '../helpers/browser.js';
import { authorizeUrl, codeFor, location, passwordLogin, pkcePair, signup } from '../helpers/oauth.js';
import type { TestWard } from '../helpers/ward.js';
import { CSRF, SSO, openLoginPage, postLogin, setCookie, startSecurityWard } from './support.js';

/** GET /identity/v1/sso/data with exactly this cookie value (or none). */
async function ssoData(ward: TestWard, cookie?: string): Promise<{ is_authenticated: boolean; email?: string }> {
  const res = await ward.fetch('/identity/v1/sso/data?client_id=spa', {
    headers: cookie === undefined ? {} : { cookie: `${SSO}=${cookie}` },
  });
  assert.equal(res.status, 200);
  return (await res.json()) as { is_authenticated: boolean; email?: string };
}

/** prompt=none with exactly this cookie: a code when the session is live, login_required when not. */
async function silentAuth(ward: TestWard, cookie: string): Promise<string | null> {
  const pkce = pkcePair();
  const res = await ward.fetch(
    authorizeUrl({
      client_id: 'spa',
      response_type: 'code',
      redirect_uri: 'https://app.example/cb',
      scope: 'openid',
      prompt: 'none',
      code_challenge: pkce.challenge,
      code_challenge_method: 'S256',
    }),
    { headers: { cookie: `${SSO}=${cookie}` } },
  );
  assert.equal(res.status, 302);
  const loc = location(res);
  return loc.searchParams.get('code') ?? loc.searchParams.get('error');
}

/** Signs a user in through /oauth/authorize?tkn= in `browser`; returns the new SSO cookie value. */
async function tknLogin(ward: TestWard, browser: Browser, user: { email: string; password: string }): Promise<string> {
  const tkn = await passwordLogin(ward, user.email, user.password);
  const pkce = pkcePair();
  const res = await browser.get(
    authorizeUrl({
      client_id: 'spa',
      response_type: 'code',
      redirect_uri: 'https://app.example/cb',
      scope: 'openid',
      code_challenge: pkce.challenge,
      code_challenge_method: 'S256',
      tkn,
    }),
  );
  assert.equal(res.status, 302);
  const c = setCookie(res, SSO);
  assert.ok(c, 'a login sets the SSO cookie');
  return c.value;
}

describe('SSO session', () => {
  let ward: TestWard;
  before(async () => {
    ward = await startSecurityWard();
  });
  after(() => ward.close());

  it('SS-01: a cookie value planted before login is never honoured and is replaced at login', async () => {
    const planted = 'attacker-chosen-session-value-0123456789ABC';
    const user = await signup(ward);
    const browser = new Browser(ward);
    await browser.jar.setCookie(`${SSO}=${planted}; Secure; HttpOnly; Path=/; SameSite=None`, ward.url);
    assert.equal((await ssoData(ward, planted)).is_authenticated, false);
    const issued = await tknLogin(ward, browser, user);
    assert.notEqual(issued, planted);
    assert.equal(await browser.cookieValue(SSO), issued);
    assert.equal((await ssoData(ward, planted)).is_authenticated, false, 'the planted value did not become a session');
    assert.equal(await silentAuth(ward, planted), 'login_required');
    assert.equal((await ssoData(ward, issued)).email, user.email);
    // The same through the hosted login form.
    const b2 = new Browser(ward);
    await b2.jar.setCookie(`${SSO}=${planted}; Secure; HttpOnly; Path=/; SameSite=None`, ward.url);
    const page = await openLoginPage(ward, b2);
    const res = await postLogin(ward, b2, {
      request: page.request,
      csrf: page.csrf,
      email: user.email,
      password: user.password,
    });
    assert.equal(res.status, 303);
    const formCookie = setCookie(res, SSO)!.value;
    assert.notEqual(formCookie, planted);
    assert.notEqual(formCookie, issued);
    assert.equal((await ssoData(ward, planted)).is_authenticated, false);
  });

  it('SS-01: every login issues a new session identifier', async () => {
    const user = await signup(ward);
    const browser = new Browser(ward);
    const seen = new Set<string>();
    for (let i = 0; i < 3; i++) seen.add(await tknLogin(ward, browser, user));
    assert.equal(seen.size, 3);
  });

  it('SS-01: a re-authentication ends the session it replaces (ASVS 7.2.4)', async () => {
    const user = await signup(ward);
    const browser = new Browser(ward);
    const first = await tknLogin(ward, browser, user);
    const second = await tknLogin(ward, browser, user);
    assert.equal((await ssoData(ward, second)).is_authenticated, true);
    assert.equal((await ssoData(ward, first)).is_authenticated, false, 'the replaced session still works');
  });

  it('SS-02: __Host- cookie, Secure, HttpOnly, SameSite=None, Path=/, no Domain, 256 random bits, stored only as a digest', async () => {
    const user = await signup(ward);
    const browser = new Browser(ward);
    const tkn = await passwordLogin(ward, user.email, user.password);
    const pkce = pkcePair();
    const res = await browser.get(
      authorizeUrl({
        client_id: 'spa',
        response_type: 'code',
        redirect_uri: 'https://app.example/cb',
        scope: 'openid',
        code_challenge: pkce.challenge,
        code_challenge_method: 'S256',
        tkn,
      }),
    );
    const sso = res.headers.getSetCookie().filter((c) => c.startsWith(`${SSO}=`));
    assert.equal(sso.length, 1);
    const [pair, ...attrs] = sso[0]!.split('; ');
    const value = pair!.slice(SSO.length + 1);
    assert.match(value, /^[A-Za-z0-9_-]{43}$/, '32 random bytes, base64url');
    assert.deepEqual(attrs.filter((a) => !a.startsWith('Expires=')).sort(), [
      'HttpOnly',
      'Max-Age=604800',
      'Path=/',
      'SameSite=None',
      'Secure',
    ]);
    assert.ok(!/domain=/i.test(sso[0]!));
    const rows = await ward.registry.db.db.selectFrom('sessions').selectAll().execute();
    assert.ok(rows.some((r) => r.id_digest === sha256(value)));
    assert.ok(!JSON.stringify(rows).includes(value), 'the cookie value itself is never stored');
    // The pre-login CSRF cookie of the hosted form: __Host-, Secure, HttpOnly, SameSite=Lax.
    const page = await openLoginPage(ward, new Browser(ward));
    const csrf = page.setCookies.find((c) => c.startsWith(`${CSRF}=`))!;
    const [cpair, ...cattrs] = csrf.split('; ');
    assert.match(cpair!.slice(CSRF.length + 1), /^[A-Za-z0-9_-]{32}$/);
    assert.deepEqual(cattrs.sort(), ['HttpOnly', 'Path=/', 'SameSite=Lax', 'Secure']);
  });

  it('SS-05: logout ends the server-side session; the old cookie is then worthless', async () => {
    const { browser, user } = await codeFor(ward);
    const cookie = (await browser.cookieValue(SSO))!;
    assert.equal((await ssoData(ward, cookie)).email, user.email);
    assert.notEqual(await silentAuth(ward, cookie), 'login_required');
    const out = await browser.get('/identity/v1/logout');
    assert.equal(out.status, 200);
    const cleared = setCookie(out, SSO)!;
    assert.equal(cleared.value, '');
    assert.match(cleared.raw, /Max-Age=0/);
    assert.match(cleared.raw, /Path=\//);
    assert.match(cleared.raw, /Secure/);
    assert.equal(await browser.cookieValue(SSO), undefined);
    // Replaying the old value (as a copy of the cookie would) finds nothing.
    assert.equal((await ssoData(ward, cookie)).is_authenticated, false);
    assert.equal(await silentAuth(ward, cookie), 'login_required');
    const row = await ward.registry.db.db
      .selectFrom('sessions')
      .selectAll()
      .where('id_digest', '=', sha256(cookie))
      .executeTakeFirstOrThrow();
    assert.ok(row.revoked_at !== null);
  });
});

describe('SS-06: session timeouts', () => {
  let ward: TestWard;
  const IDLE = 600;
  const ABSOLUTE = 3600;
  before(async () => {
    ward = await startSecurityWard({ account: { session_ttl: ABSOLUTE, session_idle_ttl: IDLE } });
  });
  after(() => ward.close());

  it('ends a session after session_idle_ttl seconds without use', async () => {
    const cookie = await tknLogin(ward, new Browser(ward), await signup(ward));
    ward.clock.advance((IDLE - 1) * 1000);
    assert.equal((await ssoData(ward, cookie)).is_authenticated, true, 'still live just before the idle limit');
    ward.clock.advance((IDLE - 1) * 1000);
    assert.equal((await ssoData(ward, cookie)).is_authenticated, true, 'use restarted the idle timer');
    ward.clock.advance(IDLE * 1000);
    assert.equal((await ssoData(ward, cookie)).is_authenticated, false, 'idle for session_idle_ttl: ended');
    assert.equal(await silentAuth(ward, cookie), 'login_required');
    ward.clock.advance(1000);
    assert.equal((await ssoData(ward, cookie)).is_authenticated, false, 'an idle session does not come back');
  });

  it('ends a session session_ttl seconds after login, however active', async () => {
    const browser = new Browser(ward);
    const user = await signup(ward);
    const tkn = await passwordLogin(ward, user.email, user.password);
    const pkce = pkcePair();
    const res = await browser.get(
      authorizeUrl({
        client_id: 'spa',
        response_type: 'code',
        redirect_uri: 'https://app.example/cb',
        scope: 'openid',
        code_challenge: pkce.challenge,
        code_challenge_method: 'S256',
        tkn,
      }),
    );
    const cookie = setCookie(res, SSO)!;
    assert.match(cookie.raw, new RegExp(`Max-Age=${ABSOLUTE};`), 'the cookie lives as long as the session');
    for (let t = 500; t < ABSOLUTE; t += 500) {
      ward.clock.advance(500_000);
      assert.equal((await ssoData(ward, cookie.value)).is_authenticated, true, `live at ${t} s`);
    }
    ward.clock.advance((ABSOLUTE % 500 || 500) * 1000 - 1);
    assert.equal((await ssoData(ward, cookie.value)).is_authenticated, true, 'live 1 ms before session_ttl');
    ward.clock.advance(1);
    assert.equal((await ssoData(ward, cookie.value)).is_authenticated, false, 'ended at session_ttl');
    assert.equal(await silentAuth(ward, cookie.value), 'login_required');
  });
});
