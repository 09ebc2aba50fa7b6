// oidc-client-ts (the browser library of most single-page apps) in headless Chromium against Ward, with
// its defaults: discovery, signinRedirect (code + PKCE S256) through Ward's hosted login page, the code
// exchanged by the browser across origins (CORS); signinSilent with the refresh token when it has one
// (scope offline_access), and its automatic renew when the access token is about to expire (the page's
// clock is moved forward, no waiting); without a refresh token, signinSilent in its hidden iframe with
// prompt=none, answered from Ward's SSO cookie; revokeTokens at /oauth/revoke. Ward's issuer is
// https://id.ward.test:<port>. The app with refresh tokens is on https://127.0.0.1:<port>, another site;
// the one that renews in the iframe is on https://app.ward.test:<port>, Ward's site, as it must be: the
// browser sends no cookie to a cross-site iframe (third-party cookies are blocked), so a prompt=none
// renew works only for an app on the identity server's site. signoutRedirect (RP-Initiated Logout) ends
// the session and its tokens and comes back to the app with its state. SQLite, and PostgreSQL when configured.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { launchChromium, type Chromium } from '../helpers/chromium.js';
import { engines } from '../helpers/databases.js';
import { signup } from '../helpers/oauth.js';
import {
  callbackOutcome,
  oidcCall as call,
  startOidcClientApp,
  type OidcClientApp,
  type OidcUser,
} from '../helpers/oidc-client-app.js';
import { startWard, type TestWard } from '../helpers/ward.js';

for (const engine of engines()) {
  describe(`oidc-client-ts in Chromium against Ward (${engine})`, { timeout: 180_000 }, () => {
    let ward: TestWard;
    /** scope with offline_access: Ward issues a refresh token. */
    let offline: OidcClientApp;
    /** no offline_access: no refresh token, so a silent renew goes through the iframe. */
    let online: OidcClientApp;
    let chromium: Chromium;
    before(async () => {
      offline = await startOidcClientApp({ clientId: 'spa-offline', scope: 'openid profile email offline_access' });
      online = await startOidcClientApp({
        clientId: 'spa-online',
        scope: 'openid profile email',
        host: 'app.ward.test',
      });
      ward = await startWard({ engine, issuerHost: 'id.ward.test', clients: [offline.client(), online.client()] });
      offline.useAuthority(ward.issuer);
      online.useAuthority(ward.issuer);
      chromium = await launchChromium({ loopbackHosts: ['app.ward.test', 'id.ward.test'] });
      // tsx names the functions of page.evaluate callbacks with __name(): give every page a no-op one.
      await chromium.context.addInitScript('globalThis.__name = globalThis.__name || ((f) => f);');
    });
    after(async () => {
      await chromium?.close();
      await ward?.close();
      await offline?.close();
      await online?.close();
    });

    const userinfo = (token: string) =>
      ward.fetch('/identity/v1/userinfo', { headers: { authorization: `Bearer ${token}` } });

    /** The token endpoint's and revocation endpoint's form bodies the page sends. */
    function formsTo(page: Page, path: string): URLSearchParams[] {
      const seen: URLSearchParams[] = [];
      page.on('request', (r) => {
        if (r.method() === 'POST' && r.url() === `${ward.issuer}${path}`)
          seen.push(new URLSearchParams(r.postData() ?? ''));
      });
      return seen;
    }

    /** A new user signs in with signinRedirect through the hosted login page; the page stays on /cb. */
    async function signIn(app: OidcClientApp, opts: { clock?: boolean } = {}) {
      const user = await signup(ward, app.clientId);
      await chromium.context.clearCookies(); // no SSO session of an earlier test's user
      const page = await chromium.context.newPage();
      if (opts.clock) await page.clock.install();
      await page.goto(`${app.origin}/`);
      const tokenForms = formsTo(page, '/oauth/token');
      // Not awaited in the page: the promise ends with the page, as signinRedirect navigates away.
      await page.evaluate(() => {
        void (window as unknown as { mgr: { signinRedirect(): Promise<void> } }).mgr.signinRedirect();
      });
      await page.waitForURL((u) => u.origin === ward.issuer && u.pathname === '/oauth/authorize');
      const authorize = new URL(page.url());
      assert.equal(authorize.searchParams.get('response_type'), 'code');
      assert.equal(authorize.searchParams.get('code_challenge_method'), 'S256');
      assert.equal(authorize.searchParams.get('redirect_uri'), `${app.origin}/cb`);
      await page.getByLabel('Email').fill(user.email);
      await page.getByLabel('Password').fill(user.password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      const outcome = await callbackOutcome(page, app);
      assert.ok(outcome.ok, JSON.stringify(outcome));
      assert.equal(tokenForms.length, 1);
      assert.equal(tokenForms[0]!.get('grant_type'), 'authorization_code');
      assert.ok(tokenForms[0]!.get('code_verifier'), 'the PKCE verifier');
      return { user, page, signed: outcome.ok };
    }

    it('signs in with signinRedirect through the hosted login page (code + PKCE, exchanged across origins)', async () => {
      const { user, page, signed } = await signIn(offline);
      assert.equal(signed.profile.sub, user.id);
      assert.equal(signed.profile.iss, ward.issuer);
      assert.equal(signed.profile.aud, offline.clientId);
      assert.equal(signed.profile.email, user.email);
      assert.ok(signed.refresh_token, 'offline_access gave a refresh token');
      const info = await userinfo(signed.access_token);
      assert.equal(info.status, 200);
      assert.equal(((await info.json()) as { email: string }).email, user.email);
      assert.deepEqual((await call(page, 'getUser')).ok?.profile.sub, user.id, 'the user is kept in the app');
      await page.close();
    });

    it('renews silently with the refresh token (signinSilent): new tokens, the same user', async () => {
      const { user, page, signed } = await signIn(offline);
      const tokenForms = formsTo(page, '/oauth/token');
      const renewed = await call(page, 'signinSilent');
      const next = renewed.ok as OidcUser;
      assert.ok(next, JSON.stringify(renewed));
      assert.equal(tokenForms.length, 1, 'one call to the token endpoint, no iframe');
      assert.equal(tokenForms[0]!.get('grant_type'), 'refresh_token');
      assert.equal(tokenForms[0]!.get('refresh_token'), signed.refresh_token);
      assert.notEqual(next.access_token, signed.access_token);
      assert.ok(next.refresh_token && next.refresh_token !== signed.refresh_token, 'the refresh token rotated');
      assert.equal(next.profile.sub, user.id);
      assert.equal((await userinfo(next.access_token)).status, 200);
      // And again with the rotated one.
      const again = await call(page, 'signinSilent');
      assert.ok(again.ok?.access_token, JSON.stringify(again));
      assert.equal(tokenForms[1]!.get('refresh_token'), next.refresh_token);
      await page.close();
    });

    it('renews by itself before the access token expires (automaticSilentRenew, its default)', async () => {
      // Playwright's clock in the app's page from the start: time flows, until the test moves it on.
      const { page, signed } = await signIn(offline, { clock: true });
      const tokenForms = formsTo(page, '/oauth/token');
      await page.evaluate(() => {
        const w = window as unknown as {
          mgr: { events: { addUserLoaded(cb: (u: { access_token: string }) => void): void } };
          renewed: Promise<string>;
        };
        w.renewed = new Promise((resolve) => w.mgr.events.addUserLoaded((u) => resolve(u.access_token)));
      });
      // The library renews a minute (its default notification time) before the access token expires.
      const ttl = ward.registry.account().access_token_ttl;
      await page.clock.fastForward((ttl - 60 + 5) * 1000);
      const renewed = await page.evaluate(() => (window as unknown as { renewed: Promise<string> }).renewed);
      assert.equal(tokenForms.length, 1);
      assert.equal(tokenForms[0]!.get('grant_type'), 'refresh_token');
      assert.notEqual(renewed, signed.access_token);
      assert.equal((await userinfo(renewed)).status, 200);
      await page.close();
    });

    it('renews in its hidden iframe with prompt=none when it has no refresh token, from the SSO cookie', async () => {
      const { user, page, signed } = await signIn(online);
      assert.equal(signed.refresh_token ?? null, null, 'no offline_access, no refresh token');
      const authorizeUrls: URL[] = [];
      page.on('request', (r) => {
        if (r.url().startsWith(`${ward.issuer}/oauth/authorize?`)) authorizeUrls.push(new URL(r.url()));
      });
      const renewed = await call(page, 'signinSilent');
      assert.ok(renewed.ok, JSON.stringify(renewed));
      assert.equal(authorizeUrls.length, 1);
      assert.equal(authorizeUrls[0]!.searchParams.get('prompt'), 'none');
      assert.equal(authorizeUrls[0]!.searchParams.get('redirect_uri'), `${online.origin}/silent`);
      assert.equal(renewed.ok.profile.sub, user.id);
      assert.equal(renewed.ok.profile.auth_time, signed.profile.auth_time, 'the same sign-in, not a new one');
      assert.notEqual(renewed.ok.access_token, signed.access_token);
      assert.equal((await userinfo(renewed.ok.access_token)).status, 200);
      await page.close();
    });

    it('the same iframe renew without the SSO cookie is login_required', async () => {
      const { page } = await signIn(online);
      await chromium.context.clearCookies();
      const renewed = await call(page, 'signinSilent');
      assert.equal(renewed.failed?.error, 'login_required', JSON.stringify(renewed));
      await page.close();
    });

    it('revokes the access and refresh tokens with revokeTokens', async () => {
      const { page, signed } = await signIn(offline);
      const revokeForms = formsTo(page, '/oauth/revoke');
      const revoked = await call(page, 'revokeTokens');
      assert.ok(!revoked.failed, JSON.stringify(revoked));
      assert.deepEqual(
        revokeForms.map((f) => [f.get('token_type_hint'), f.get('token')]),
        [
          ['access_token', signed.access_token],
          ['refresh_token', signed.refresh_token],
        ],
      );
      assert.equal((await userinfo(signed.access_token)).status, 401, 'the access token is refused');
      const refresh = await ward.fetch('/oauth/token', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'refresh_token',
          refresh_token: signed.refresh_token!,
          client_id: offline.clientId,
        }).toString(),
      });
      assert.equal(refresh.status, 400);
      assert.equal(((await refresh.json()) as { error: string }).error, 'invalid_grant');
      assert.equal((await call(page, 'getUser')).ok?.refresh_token, null, 'the library forgot its refresh token');
      await page.close();
    });

    it('signs out with signoutRedirect: the session and its tokens end, back to the app with its state', async () => {
      const { page, signed } = await signIn(offline);
      const logouts: URL[] = [];
      page.on('request', (r) => {
        if (r.url().startsWith(`${ward.issuer}/identity/v1/logout?`)) logouts.push(new URL(r.url()));
      });
      // The app's own data travels in the state (the library adds state only when given some).
      await page.evaluate(() => {
        const w = window as unknown as { mgr: { signoutRedirect(a: { state: string }): Promise<void> } };
        void w.mgr.signoutRedirect({ state: 'see you' });
      });
      await page.waitForURL((u) => u.origin === offline.origin && u.pathname === '/signed-out');
      assert.equal(logouts.length, 1);
      assert.equal(logouts[0]!.searchParams.get('id_token_hint'), signed.id_token);
      assert.equal(logouts[0]!.searchParams.get('post_logout_redirect_uri'), `${offline.origin}/signed-out`);
      assert.equal(new URL(page.url()).searchParams.get('state'), logouts[0]!.searchParams.get('state'));
      const outcome = (await page.evaluate(() => (window as unknown as { outcome: Promise<unknown> }).outcome)) as {
        ok?: { userState?: unknown };
        failed?: { message: string };
      };
      assert.equal(outcome.ok?.userState, 'see you', JSON.stringify(outcome));
      assert.equal((await call(page, 'getUser')).ok ?? null, null, 'the library forgot the user');
      assert.equal((await userinfo(signed.access_token)).status, 401, 'the access token of that session is refused');
      const refresh = await ward.fetch('/oauth/token', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'refresh_token',
          refresh_token: signed.refresh_token!,
          client_id: offline.clientId,
        }).toString(),
      });
      assert.equal(((await refresh.json()) as { error: string }).error, 'invalid_grant');
      await page.close();
    });
  });
}
