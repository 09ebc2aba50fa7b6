// Cross-site request forgery on cookie-authenticated state changes: SS-03 (the hosted login form
// POST /oauth/authorize/login: CSRF token + Origin check; logout: no cross-site subresource or
// foreign-origin request ends the session) and SS-07 (login CSRF: an attacker's own form token, or
// a form auto-posted to a browser that never opened the page, signs nobody in).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { request, type Response } from 'undici';
import { Browser } from '../helpers/browser.js';
import { codeFor, location, signup } from '../helpers/oauth.js';
import type { TestWard } from '../helpers/ward.js';
import { CSRF, SSO, openLoginPage, postLogin, setCookie, startSecurityWard } from './support.js';

async function sessionCount(ward: TestWard): Promise<number> {
  return (await ward.registry.db.db.selectFrom('sessions').select('id_digest').execute()).length;
}

async function assertFormRefused(ward: TestWard, res: Response, before: number, what: string): Promise<void> {
  const html = await res.text();
  assert.equal(res.status, 403, `${what}: ${res.status}`);
  assert.match(res.headers.get('content-type')!, /^text\/html/);
  assert.match(html, /This sign-in form has expired/);
  assert.equal(setCookie(res, SSO), undefined, `${what}: no session cookie`);
  assert.equal(res.headers.get('location'), null);
  assert.equal(await sessionCount(ward), before, `${what}: no session created`);
}

describe('SS-03, SS-07: the hosted login form', () => {
  let ward: TestWard;
  let user: { email: string; password: string };
  before(async () => {
    ward = await startSecurityWard();
    user = await signup(ward);
  });
  after(() => ward.close());

  it('signs in with the page’s own token, from Ward’s origin (control)', async () => {
    const browser = new Browser(ward);
    const page = await openLoginPage(ward, browser);
    const res = await postLogin(ward, browser, {
      request: page.request,
      csrf: page.csrf,
      email: user.email,
      password: user.password,
    });
    assert.equal(res.status, 303);
    assert.ok(location(res).searchParams.get('code'));
    assert.ok(setCookie(res, SSO));
  });

  it('refuses a foreign or opaque Origin even with a valid token and cookie', async () => {
    for (const origin of [
      'https://evil.tld',
      'https://app.example',
      'null',
      `${ward.url}.evil.tld`,
      ward.url.replace('https:', 'http:'),
    ]) {
      const browser = new Browser(ward);
      const page = await openLoginPage(ward, browser);
      const n = await sessionCount(ward);
      const res = await browser.postForm(
        '/oauth/authorize/login',
        { request: page.request, csrf: page.csrf, email: user.email, password: user.password },
        { origin, 'sec-fetch-site': 'cross-site' },
      );
      await assertFormRefused(ward, res, n, `Origin ${origin}`);
    }
  });

  it('refuses a post without a token, with a wrong token, or with a parameter twice', async () => {
    const browser = new Browser(ward);
    const page = await openLoginPage(ward, browser);
    const base = { request: page.request, email: user.email, password: user.password };
    const n = await sessionCount(ward);
    await assertFormRefused(ward, await postLogin(ward, browser, base), n, 'no csrf');
    await assertFormRefused(ward, await postLogin(ward, browser, { ...base, csrf: '' }), n, 'empty csrf');
    await assertFormRefused(
      ward,
      await postLogin(ward, browser, { ...base, csrf: page.csrf.slice(0, -1) }),
      n,
      'truncated csrf',
    );
    await assertFormRefused(
      ward,
      await postLogin(ward, browser, { ...base, csrf: 'x'.repeat(page.csrf.length) }),
      n,
      'forged csrf',
    );
    const twice = await browser.request('/oauth/authorize/login', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: ward.url },
      body: `${new URLSearchParams({ ...base, csrf: page.csrf })}&csrf=${encodeURIComponent(page.csrf)}`,
    });
    await assertFormRefused(ward, twice, n, 'csrf twice');
  });

  it('SS-07: the attacker’s own token posted from the victim’s browser signs nobody in', async () => {
    const attacker = new Browser(ward);
    const mine = await openLoginPage(ward, attacker);
    const attackerAccount = await signup(ward);
    // The victim opened the page once (has a CSRF cookie), or never did (no cookie at all).
    const victim = new Browser(ward);
    await openLoginPage(ward, victim);
    const fresh = new Browser(ward);
    const n = await sessionCount(ward);
    const form = {
      request: mine.request,
      csrf: mine.csrf,
      email: attackerAccount.email,
      password: attackerAccount.password,
    };
    // An auto-submitted form carries no Origin of Ward's: even a same-origin-looking one fails on the token.
    await assertFormRefused(ward, await postLogin(ward, victim, form), n, 'victim with its own CSRF cookie');
    await assertFormRefused(ward, await postLogin(ward, fresh, form), n, 'victim with no CSRF cookie');
    assert.equal(await victim.cookieValue(SSO), undefined);
    assert.equal(await fresh.cookieValue(SSO), undefined);
    assert.ok(await victim.cookieValue(CSRF));
  });

  it('answers non-form content types with 415 JSON, signing nobody in', async () => {
    const browser = new Browser(ward);
    const page = await openLoginPage(ward, browser);
    const n = await sessionCount(ward);
    const body = new URLSearchParams({
      request: page.request,
      csrf: page.csrf,
      email: user.email,
      password: user.password,
    }).toString();
    for (const ct of ['text/plain', 'multipart/form-data; boundary=x', 'application/xml']) {
      const res = await browser.request('/oauth/authorize/login', {
        method: 'POST',
        body,
        headers: { 'content-type': ct, origin: ward.url },
      });
      assert.equal(res.status, 415, ct);
      const json = (await res.json()) as Record<string, string>;
      assert.equal(json.error_message_key, 'error.unsupportedMediaType');
      assert.equal(setCookie(res, SSO), undefined);
    }
    assert.equal(await sessionCount(ward), n);
  });
});

describe('SS-03: logout', () => {
  let ward: TestWard;
  before(async () => {
    ward = await startSecurityWard();
  });
  after(() => ward.close());

  async function signedIn(): Promise<{ cookie: string }> {
    const { browser } = await codeFor(ward);
    return { cookie: (await browser.cookieValue(SSO))! };
  }
  /** A raw GET: undici's fetch would overwrite Sec-Fetch-Mode with its own "cors". */
  async function logout(cookie: string, headers: Record<string, string>) {
    const res = await request(`${ward.url}/identity/v1/logout?redirect_to=https%3A%2F%2Fapp.example%2Fcb&state=s1`, {
      dispatcher: ward.agent,
      headers: { ...headers, cookie: `${SSO}=${cookie}` },
    });
    const text = await res.body.text();
    const setCookies = ([] as string[]).concat(res.headers['set-cookie'] ?? []);
    return {
      status: res.statusCode,
      text,
      location: res.headers.location,
      cleared: setCookies.some((c) => c.startsWith(`${SSO}=;`)),
    };
  }
  async function live(cookie: string): Promise<boolean> {
    const res = await ward.fetch('/identity/v1/sso/data?client_id=spa', { headers: { cookie: `${SSO}=${cookie}` } });
    return ((await res.json()) as { is_authenticated: boolean }).is_authenticated;
  }

  it('refuses cross-site subresource requests and foreign origins, leaving the session alive', async () => {
    const { cookie } = await signedIn();
    for (const [what, headers] of [
      [
        'fetch from a foreign origin',
        {
          origin: 'https://evil.tld',
          'sec-fetch-site': 'cross-site',
          'sec-fetch-mode': 'cors',
          'sec-fetch-dest': 'empty',
        },
      ],
      ['opaque origin (sandboxed frame)', { origin: 'null', 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'cors' }],
      [
        '<img> on a foreign page',
        { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'no-cors', 'sec-fetch-dest': 'image' },
      ],
      [
        '<script> on a foreign page',
        { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'no-cors', 'sec-fetch-dest': 'script' },
      ],
      [
        'hidden <iframe> on a foreign page',
        { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'iframe' },
      ],
      [
        '<img> on a same-site page',
        { 'sec-fetch-site': 'same-site', 'sec-fetch-mode': 'no-cors', 'sec-fetch-dest': 'image' },
      ],
    ] as const) {
      const res = await logout(cookie, headers);
      assert.equal(res.status, 403, what);
      assert.deepEqual(JSON.parse(res.text), {
        error: 'access_denied',
        error_description: 'Logout must be a top-level navigation or come from an allowed origin',
        error_user_msg: 'Logout must be a top-level navigation or come from an allowed origin',
        error_message_key: 'error.forbidden',
      });
      assert.equal(res.cleared, false, `${what}: cookie kept`);
      assert.equal(await live(cookie), true, `${what}: session kept`);
    }
  });

  it('ends the session on a top-level navigation (the Core SDK), a same-origin request, or an allowed origin', async () => {
    for (const [what, headers] of [
      [
        'SDK navigation from the app',
        { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'document' },
      ],
      [
        'typed in the address bar',
        { 'sec-fetch-site': 'none', 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'document' },
      ],
      [
        'same-origin link',
        { 'sec-fetch-site': 'same-origin', 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'document' },
      ],
      [
        'fetch from an allowed origin',
        { origin: 'https://app.example', 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'cors' },
      ],
      ['a client without fetch metadata', {}],
    ] as const) {
      const { cookie } = await signedIn();
      const res = await logout(cookie, headers);
      assert.equal(res.status, 302, `${what}: ${res.status}`);
      assert.equal(res.location, 'https://app.example/cb?state=s1');
      assert.equal(res.cleared, true, `${what}: cookie cleared`);
      assert.equal(await live(cookie), false, `${what}: session ended`);
    }
  });
});
