// Login CSRF (SS-07; issue 33, item 4): an attacker starts a sign-in for their own account and hands
// the victim's browser what finishes it. A passwordless code opened by GET, and a tkn at
// /oauth/authorize, sign a browser in at once only when it is the browser that asked (its pre-login
// cookie, or a navigation from the page of the app whose call asked); any other browser gets a
// confirmation page, and nothing signs it in until the user confirms by a CSRF-protected POST. A
// browser's call to a sign-in API is JSON from an allowed origin of the client: a cross-site form
// (form or text/plain body, or a foreign Origin) is refused. On SQLite and PostgreSQL.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Response } from 'undici';
import { Browser } from '../helpers/browser.js';
import { engines } from '../helpers/databases.js';
import { codeIn, postJson, startMfaWard, type MfaWard } from '../helpers/mfa.js';
import { PUBLIC_CLIENT, authorizeUrl, location, pkcePair, signup } from '../helpers/oauth.js';
import { NO_RATE_LIMITS, SSO, setCookie } from './support.js';

/** The code of a message (its link and its address, which may hold six digits, left out). */
const mailCode = (text: string) => codeIn(text.replace(/https:\/\/\S+|\S+@\S+/g, ''));
const APP = 'https://app.example';
const CALLBACK = `${APP}/cb`;
const EVIL = 'https://evil.example';
/** What a browser sends when a page of another site sends it somewhere (a link, a script's navigation). */
const navigationFrom = (origin: string) => ({
  accept: 'text/html,application/xhtml+xml',
  'sec-fetch-mode': 'navigate',
  'sec-fetch-dest': 'document',
  'sec-fetch-site': 'cross-site',
  referer: `${origin}/`,
});

async function sessionCount(w: MfaWard): Promise<number> {
  return (await w.ward.registry.db.db.selectFrom('sessions').select('id_digest').execute()).length;
}

/** A confirmation page: 200, no redirect, no session cookie. */
async function assertConfirmation(res: Response, pattern: RegExp): Promise<string> {
  const html = await res.text();
  assert.equal(res.status, 200, html.slice(0, 300));
  assert.equal(res.headers.get('location'), null);
  assert.equal(setCookie(res, SSO), undefined, 'no session cookie');
  assert.match(html, pattern);
  return html;
}

const hidden = (html: string, name: string) => new RegExp(`name="${name}" value="([^"]*)"`).exec(html)![1]!;

for (const engine of engines()) {
  describe(`SS-07 login CSRF by a sign-in code or tkn on ${engine}`, () => {
    let w: MfaWard;
    before(async () => {
      w = await startMfaWard({
        engine,
        clients: [PUBLIC_CLIENT],
        account: { ...NO_RATE_LIMITS, passwordless: { magic_link: true, sms: true } },
      });
    });
    after(() => w.close());

    /** The attacker's own account, and a passwordless code for it that the attacker asked for (no browser). */
    async function attackerCode() {
      const attacker = await signup(w.ward);
      const pkce = pkcePair();
      const started = await postJson(w.ward, '/identity/v1/passwordless/start', {
        client_id: 'spa',
        response_type: 'code',
        redirect_uri: CALLBACK,
        scope: 'openid email',
        code_challenge: pkce.challenge,
        code_challenge_method: 'S256',
        auth_type: 'magic_link',
        email: attacker.email,
      });
      assert.equal(started.status, 200, JSON.stringify(started.body));
      return { attacker, code: mailCode((await w.smtp.next(attacker.email)).text) };
    }

    it("the attacker's code opened by GET in the victim's browser asks first and signs nothing in", async () => {
      const { attacker, code } = await attackerCode();
      const victim = new Browser(w.ward);
      const before = await sessionCount(w);
      const url = `/identity/v1/passwordless/verify?${new URLSearchParams({
        auth_type: 'magic_link',
        email: attacker.email,
        verification_code: code,
      })}`;
      const html = await assertConfirmation(await victim.get(url, navigationFrom(EVIL)), /Sign in on this device\?/);
      assert.ok(html.includes(attacker.email), 'the page names the account');
      assert.equal(await sessionCount(w), before, 'no session created');
      // A cross-site auto-posted form (no form token of this browser) confirms nothing either.
      const forged = await victim.postForm(
        '/identity/v1/passwordless/confirm',
        { auth_type: 'magic_link', email: attacker.email, verification_code: code, csrf: 'forged' },
        { origin: EVIL },
        'none',
      );
      assert.equal(setCookie(forged, SSO), undefined);
      assert.equal(await sessionCount(w), before);
      // The user who asked for it themselves may go on, on the page, by its form.
      const done = await victim.postForm(
        '/identity/v1/passwordless/confirm',
        {
          auth_type: hidden(html, 'auth_type'),
          email: hidden(html, 'email'),
          verification_code: hidden(html, 'verification_code'),
          csrf: hidden(html, 'csrf'),
        },
        { origin: 'null' },
      );
      assert.equal(done.status, 303, await done.text());
      assert.equal(`${location(done).origin}${location(done).pathname}`, CALLBACK);
      assert.ok(setCookie(done, SSO));
    });

    it('the browser that asked (its pre-login cookie) signs in by GET at once (control)', async () => {
      const user = await signup(w.ward);
      const browser = new Browser(w.ward);
      const started = await browser.postJson(
        '/identity/v1/passwordless/start',
        {
          client_id: 'spa',
          response_type: 'code',
          redirect_uri: CALLBACK,
          scope: 'openid email',
          code_challenge: pkcePair().challenge,
          code_challenge_method: 'S256',
          auth_type: 'magic_link',
          email: user.email,
        },
        { origin: APP },
      );
      assert.equal(started.status, 200, await started.text());
      const code = mailCode((await w.smtp.next(user.email)).text);
      const url = `/identity/v1/passwordless/verify?${new URLSearchParams({ auth_type: 'magic_link', email: user.email, verification_code: code })}`;
      const res = await browser.get(url, navigationFrom(EVIL));
      assert.equal(res.status, 302, await res.text());
      assert.ok(setCookie(res, SSO));
    });

    it('a cross-site POST to /identity/v1/passwordless/verify is refused: foreign Origin, form or text/plain body', async () => {
      const { attacker, code } = await attackerCode();
      const params = { auth_type: 'magic_link', email: attacker.email, verification_code: code };
      const before = await sessionCount(w);
      const foreign = await postJson(w.ward, '/identity/v1/passwordless/verify', params, { origin: EVIL });
      assert.equal(foreign.status, 403, JSON.stringify(foreign.body));
      assert.equal(foreign.body.error_message_key, 'error.crossSiteRequest');
      for (const type of ['application/x-www-form-urlencoded', 'text/plain']) {
        const res = await w.ward.fetch('/identity/v1/passwordless/verify', {
          method: 'POST',
          headers: { 'content-type': type, origin: APP, 'sec-fetch-site': 'cross-site' },
          body: type === 'text/plain' ? JSON.stringify(params) : new URLSearchParams(params).toString(),
        });
        const body = (await res.json()) as Record<string, unknown>;
        // text/plain is no body the API reads at all (415); a form body from a browser is login CSRF (403).
        const refusal = type === 'text/plain' ? [415, 'error.unsupportedMediaType'] : [403, 'error.crossSiteRequest'];
        assert.deepEqual([res.status, body.error_message_key], refusal, `${type}: ${JSON.stringify(body)}`);
      }
      assert.equal(await sessionCount(w), before);
      // The code was not used: the SDK's own call (JSON, the app's origin) still signs in with it.
      const ok = await postJson(w.ward, '/identity/v1/passwordless/verify', params, { origin: APP });
      assert.equal(ok.status, 200, JSON.stringify(ok.body));
      assert.ok(ok.body.code);
    });

    it('the other sign-in APIs refuse a cross-site form and a foreign Origin; a server call without Origin is kept', async () => {
      const user = await signup(w.ward);
      const login = { client_id: 'spa', scope: 'openid', email: user.email, password: user.password };
      const cases: Array<[string, Record<string, unknown>]> = [
        ['/identity/v1/password/login', login],
        ['/identity/v1/signup', { client_id: 'spa', data: { email: `x-${Date.now()}@example.com`, password: 'x' } }],
        ['/identity/v1/passwordless/start', { client_id: 'spa', auth_type: 'magic_link', email: user.email }],
        ['/identity/v1/mfa/stepup', { client_id: 'spa', response_type: 'code', redirect_uri: CALLBACK }],
      ];
      for (const [path, body] of cases) {
        const foreign = await postJson(w.ward, path, body, { origin: EVIL });
        assert.equal(foreign.status, 403, `${path}: ${JSON.stringify(foreign.body)}`);
        assert.equal(foreign.body.error_message_key, 'error.crossSiteRequest');
        const form = await w.ward.fetch(path, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded', origin: EVIL },
          body: new URLSearchParams({ client_id: 'spa', email: user.email, password: user.password }).toString(),
        });
        assert.equal(form.status, 403, path);
      }
      // A form login from a server (no Origin, no Fetch Metadata): no browser, no CSRF; kept.
      const server = await w.ward.fetch('/identity/v1/password/login', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ client_id: 'spa', scope: 'openid', email: user.email, password: user.password }),
      });
      assert.equal(server.status, 200, await server.text());
      // The SDK's own call: JSON from the client's allowed origin.
      assert.equal((await postJson(w.ward, '/identity/v1/password/login', login, { origin: APP })).status, 200);
    });

    it("the attacker's tkn opened in the victim's browser asks first; the SDK's own navigation signs in", async () => {
      const attacker = await signup(w.ward);
      const authorize = (tkn: string) =>
        authorizeUrl({
          client_id: 'spa',
          response_type: 'code',
          redirect_uri: CALLBACK,
          scope: 'openid email',
          code_challenge: pkcePair().challenge,
          code_challenge_method: 'S256',
          tkn,
        });
      const tknOf = async (browser: Browser | null, origin?: string) => {
        const body = { client_id: 'spa', scope: 'openid email', email: attacker.email, password: attacker.password };
        const headers: Record<string, string> = origin ? { origin } : {};
        const res = browser
          ? await browser.postJson('/identity/v1/password/login', body, headers)
          : await w.ward.fetch('/identity/v1/password/login', {
              method: 'POST',
              headers: { 'content-type': 'application/json', ...headers },
              body: JSON.stringify(body),
            });
        assert.equal(res.status, 200);
        return ((await res.json()) as { tkn: string }).tkn;
      };
      // Minted by a server call, or by the attacker's browser at the app: the victim's browser, sent there
      // by a page of another site, is asked.
      for (const tkn of [await tknOf(null), await tknOf(new Browser(w.ward), APP)]) {
        const victim = new Browser(w.ward);
        const before = await sessionCount(w);
        const html = await assertConfirmation(
          await victim.get(authorize(tkn), navigationFrom(EVIL)),
          /on this device\?/,
        );
        assert.ok(html.includes(attacker.email));
        assert.equal(await sessionCount(w), before, 'no session created');
        // Confirmed by the user on the page: signed in then.
        const done = await victim.postForm(
          '/oauth/authorize/consent',
          { interaction: hidden(html, 'interaction'), csrf: hidden(html, 'csrf'), decision: 'allow' },
          { origin: 'null' },
        );
        assert.equal(done.status, 303, await done.text());
        assert.ok(location(done).searchParams.get('code'));
      }

      // The SDK: its JSON call from the app's page, then the navigation from that page (Referer: the app).
      const sdkTkn = await tknOf(null, APP);
      const fromApp = await new Browser(w.ward).get(authorize(sdkTkn), navigationFrom(APP));
      assert.equal(fromApp.status, 302, await fromApp.text());
      assert.ok(location(fromApp).searchParams.get('code'));
      // Ward on the app's site: the call's answer set the pre-login cookie, the navigation brings it back.
      const sameSite = new Browser(w.ward);
      const boundTkn = await tknOf(sameSite, APP);
      const { referer: _none, ...noReferer } = navigationFrom(APP);
      const bound = await sameSite.get(authorize(boundTkn), noReferer);
      assert.equal(bound.status, 302, await bound.text());
    });
  });
}
