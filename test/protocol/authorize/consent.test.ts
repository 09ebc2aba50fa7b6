// Third-party clients and consent (issue 39), on both engines, over real HTTP: a client with
// `first_party: false` shows its consent page after sign-in (its name, logo and links, each scope in
// plain words); Allow issues the code with the scopes granted and remembers them; a new scope asks
// again; Deny is access_denied; prompt=none without consent is consent_required; prompt=consent shows
// the page again; the user lists and revokes consents with their access token, which ends the
// client's refresh tokens. A first-party client never sees the page.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Browser } from '../../helpers/browser.js';
import { engines } from '../../helpers/databases.js';
import { submitLoginPage } from '../../helpers/hosted-login.js';
import {
  PUBLIC_CLIENT,
  authorizeUrl,
  codeFor,
  location,
  pkcePair,
  redeem,
  signup,
  tokenRequest,
} from '../../helpers/oauth.js';
import { startWard, type TestWard } from '../../helpers/ward.js';
import { assertErrorRedirect } from './support.js';

const PARTNER_CB = 'https://partner.example/cb';
const PARTNER = {
  client_id: 'partner',
  name: 'Partner <Planner>',
  type: 'public',
  allowed_callback_urls: [PARTNER_CB],
  sso: true,
  first_party: false,
  logo_uri: 'https://partner.example/logo.png',
  policy_uri: 'https://partner.example/privacy',
};
const NO_LIMITS = { rate_limits: { signup: { limit: null }, login: { limit: null } } };

const field = (html: string, name: string) => new RegExp(`name="${name}" value="([^"]*)"`).exec(html)?.[1];

for (const engine of engines()) {
  describe(`consent of a third-party client on ${engine}`, () => {
    let ward: TestWard;
    before(async () => {
      ward = await startWard({ engine, clients: [PUBLIC_CLIENT, PARTNER], account: NO_LIMITS });
    });
    after(() => ward.close());

    const partnerRequest = (scope: string, over: Record<string, string> = {}) => {
      const pkce = pkcePair();
      const url = authorizeUrl({
        client_id: 'partner',
        response_type: 'code',
        redirect_uri: PARTNER_CB,
        scope,
        state: 'st-123',
        code_challenge: pkce.challenge,
        code_challenge_method: 'S256',
        ...over,
      });
      return { url, verifier: pkce.verifier };
    };
    const decide = (browser: Browser, html: string, decision: 'allow' | 'deny') =>
      browser.postForm('/oauth/authorize/consent', {
        interaction: field(html, 'interaction')!,
        csrf: field(html, 'csrf')!,
        decision,
      });
    const codeOf = (res: { status: number; headers: { get(n: string): string | null } }) => {
      const loc = new URL(res.headers.get('location') ?? 'about:blank');
      assert.equal(`${loc.origin}${loc.pathname}`, PARTNER_CB, `redirected to ${loc}`);
      const code = loc.searchParams.get('code');
      assert.ok(code, `a code in ${loc}`);
      return code;
    };

    /** A user signed in to the partner app through its consent page; the browser keeps the session. */
    async function signedInWithConsent() {
      const user = await signup(ward);
      const browser = new Browser(ward);
      const first = partnerRequest('openid profile offline_access');
      const login = await browser.get(first.url);
      assert.equal(login.status, 200);
      const consent = await submitLoginPage(browser, await login.text(), user.email, user.password);
      assert.equal(consent.status, 200, 'the consent page comes after the sign-in, before any code');
      assert.equal(consent.headers.get('location'), null);
      const html = await consent.text();
      return { user, browser, html, verifier: first.verifier };
    }

    it('shows the consent page; Allow issues the code with the granted scopes and remembers them', async () => {
      const { user, browser, html, verifier } = await signedInWithConsent();
      assert.match(html, /Partner &lt;Planner&gt; asks for access to your account/, 'the name, escaped');
      assert.match(html, /<img src="https:\/\/partner.example\/logo.png"/);
      assert.match(html, /href="https:\/\/partner.example\/privacy"/);
      assert.match(html, /<li data-scope="profile">See your name and profile details<\/li>/);
      assert.match(html, /<li data-scope="offline_access">/);
      assert.ok(html.includes(user.email), 'says who is signed in');
      const allowed = await decide(browser, html, 'allow');
      assert.equal(allowed.status, 303);
      const { res, body } = await redeem(ward, codeOf(allowed), verifier, 'partner', PARTNER_CB);
      assert.equal(res.status, 200, JSON.stringify(body));
      assert.equal(body.scope?.split(' ').sort().join(' '), 'offline_access openid profile');
      const stored = await ward.registry.storage.consents.find(user.id, 'partner');
      assert.deepEqual(stored?.scopes, ['offline_access', 'openid', 'profile']);
      // The second authorization, the same scopes: no page, a code at once (from the SSO session).
      const again = partnerRequest('openid profile');
      const silent = await browser.get(again.url);
      assert.equal(silent.status, 302, 'remembered: no consent page');
      codeOf(silent);
      // prompt=none with the scopes granted: a code too.
      codeOf(await browser.get(partnerRequest('openid', { prompt: 'none' }).url));
      await ward.registry.events.flush();
      const audit = await ward.registry.storage.audit.list({ action: 'consent.granted', limit: 50 });
      assert.equal(audit.filter((e) => e.actor_id === user.id).length, 1, 'consent.granted audited once');
    });

    it('a new scope asks again; Deny sends access_denied; prompt=none is consent_required', async () => {
      const { user, browser, html } = await signedInWithConsent();
      await decide(browser, html, 'allow');
      const wider = await browser.get(partnerRequest('openid profile email').url);
      assert.equal(wider.status, 200, 'a scope not granted yet: the page again');
      const widerHtml = await wider.text();
      assert.match(widerHtml, /<li data-scope="email">See your email address<\/li>/);
      const denied = await decide(browser, widerHtml, 'deny');
      assert.equal(denied.status, 303);
      const loc = location(denied);
      assert.equal(`${loc.origin}${loc.pathname}`, PARTNER_CB);
      assert.equal(loc.searchParams.get('error'), 'access_denied');
      assert.equal(loc.searchParams.get('state'), 'st-123');
      assert.equal(loc.searchParams.get('code'), null);
      assert.deepEqual(
        (await ward.registry.storage.consents.find(user.id, 'partner'))?.scopes,
        ['offline_access', 'openid', 'profile'],
        'a denial grants nothing',
      );
      const none = await browser.get(partnerRequest('openid email', { prompt: 'none' }).url);
      assertErrorRedirect(none, PARTNER_CB, 'consent_required', ward.url);
    });

    it('prompt=consent shows the page even when granted; a first-party client never sees it', async () => {
      const { browser, html } = await signedInWithConsent();
      await decide(browser, html, 'allow');
      const forced = await browser.get(partnerRequest('openid', { prompt: 'consent' }).url);
      assert.equal(forced.status, 200);
      assert.match(await forced.text(), /name="decision" value="allow"/);
      // The same browser, a first-party client: the session answers, no page (as before).
      const { challenge } = pkcePair();
      const spa = {
        client_id: 'spa',
        response_type: 'code',
        redirect_uri: 'https://app.example/cb',
        scope: 'openid profile',
        state: 'st-123',
        code_challenge: challenge,
        code_challenge_method: 'S256',
      };
      const firstParty = await browser.get(authorizeUrl(spa));
      assert.equal(firstParty.status, 302);
      assert.ok(location(firstParty).searchParams.get('code'));
      // prompt=consent for a first-party client: consent_required, unchanged.
      const refused = await browser.get(authorizeUrl({ ...spa, prompt: 'consent' }));
      assertErrorRedirect(refused, 'https://app.example/cb', 'consent_required', ward.url);
      // A first-party code flow with a new user: no consent page, no consent stored.
      const { user } = await codeFor(ward);
      assert.equal(await ward.registry.storage.consents.find(user.id, 'spa'), undefined);
    });

    it('lists and revokes consents with an access token; revoking ends the refresh tokens', async () => {
      const { user, browser, html, verifier } = await signedInWithConsent();
      const { body } = await redeem(
        ward,
        codeOf(await decide(browser, html, 'allow')),
        verifier,
        'partner',
        PARTNER_CB,
      );
      assert.ok(body.refresh_token, 'offline_access: a refresh token');
      const bearer = { authorization: `Bearer ${body.access_token}` };
      const listed = await ward.fetch('/identity/v1/consents', { headers: bearer });
      assert.equal(listed.status, 200);
      const list = (await listed.json()) as { consents: Array<Record<string, unknown>> };
      assert.equal(list.consents.length, 1);
      assert.equal(list.consents[0]!.client_id, 'partner');
      assert.equal(list.consents[0]!.client_name, 'Partner <Planner>');
      assert.deepEqual(list.consents[0]!.scopes, ['offline_access', 'openid', 'profile']);
      assert.equal((await ward.fetch('/identity/v1/consents')).status, 401, 'no token: refused');
      const unknown = await ward.fetch('/identity/v1/consents/nobody', { method: 'DELETE', headers: bearer });
      assert.equal(unknown.status, 404);
      assert.ok(((await unknown.json()) as Record<string, unknown>).error_message_key);
      const revoked = await ward.fetch('/identity/v1/consents/partner', { method: 'DELETE', headers: bearer });
      assert.equal(revoked.status, 204);
      const refresh = await tokenRequest(ward, {
        grant_type: 'refresh_token',
        refresh_token: body.refresh_token!,
        client_id: 'partner',
      });
      assert.equal(refresh.status, 400);
      assert.equal(((await refresh.json()) as Record<string, unknown>).error, 'invalid_grant');
      assert.equal(await ward.registry.storage.consents.find(user.id, 'partner'), undefined);
      // The next authorization asks again.
      assert.equal((await browser.get(partnerRequest('openid').url)).status, 200);
      await ward.registry.events.flush();
      const audit = await ward.registry.storage.audit.list({ action: 'consent.revoked', limit: 50 });
      assert.equal(audit.filter((e) => e.actor_id === user.id).length, 1, 'consent.revoked audited');
    });
    it('the account page lists the consent and withdraws it, ending the refresh tokens', async () => {
      const { user, browser, html, verifier } = await signedInWithConsent();
      const { body } = await redeem(
        ward,
        codeOf(await decide(browser, html, 'allow')),
        verifier,
        'partner',
        PARTNER_CB,
      );
      const page = await browser.get('/identity/v1/account');
      assert.equal(page.status, 200);
      const account = await page.text();
      assert.match(account, /Apps with access to your account/);
      assert.match(account, /<strong>Partner &lt;Planner&gt;<\/strong>/);
      assert.match(account, /<li>See your name and profile details<\/li>/);
      const revoked = await browser.postForm('/identity/v1/account/consents/revoke', {
        csrf: field(account, 'csrf')!,
        consent_client_id: 'partner',
      });
      assert.equal(revoked.status, 303);
      assert.equal(await ward.registry.storage.consents.find(user.id, 'partner'), undefined);
      const refresh = await tokenRequest(ward, {
        grant_type: 'refresh_token',
        refresh_token: body.refresh_token!,
        client_id: 'partner',
      });
      assert.equal(refresh.status, 400, 'the refresh token is refused');
      assert.doesNotMatch(await (await browser.get('/identity/v1/account')).text(), /Apps with access/);
      // Without the page's CSRF token nothing is withdrawn.
      await ward.registry.storage.consents.grant(user.id, 'partner', ['openid'], Date.now());
      const forged = await browser.postForm('/identity/v1/account/consents/revoke', { consent_client_id: 'partner' });
      assert.equal(forged.status, 403);
      assert.ok(await ward.registry.storage.consents.find(user.id, 'partner'));
    });
  });
}
