// The OpenID Foundation's RP-Initiated Logout OP test plan (oidcc-rp-initiated-logout-certification-
// test-plan), written here from what its modules check: the end_session_endpoint in discovery; a
// logout with id_token_hint, post_logout_redirect_uri and state returns to that URI with the state and
// nothing else, and ends the session; an unregistered or altered post_logout_redirect_uri, a hint with
// alg none or signed by another key, or a URI without anything naming the client: an error page and
// never a redirect; without a URI (or with only state, or nothing) the user is signed out on Ward's
// pages. Ward asks the user to confirm when the request is not tied to the session (no valid hint of
// this session): the spec's "SHOULD ask the End-User whether to log out".
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { generateKeyPair, SignJWT } from 'jose';
import * as client from 'openid-client';
import type { Browser } from '../helpers/browser.js';
import { engines } from '../helpers/databases.js';
import { location } from '../helpers/oauth.js';
import { LOGGED_OUT, rpConfig, signIn, type Suite, startSuite } from './support.js';

const HTML = { accept: 'text/html,application/xhtml+xml' };
const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');

for (const engine of engines()) {
  describe(`OIDCC RP-Initiated Logout plan (${engine})`, () => {
    let suite: Suite;
    let config: client.Configuration;
    before(async () => {
      suite = await startSuite(engine);
      config = await rpConfig(suite.ward);
    });
    after(() => suite.close());

    const endSession = (params: Record<string, string>) =>
      `/identity/v1/logout${Object.keys(params).length ? `?${new URLSearchParams(params)}` : ''}`;
    /** Whether the browser still has a session: a prompt=none authorization answers a code. */
    async function signedIn(browser: Browser): Promise<boolean> {
      const url = client.buildAuthorizationUrl(config, {
        redirect_uri: suite.redirectUri,
        scope: 'openid',
        prompt: 'none',
      });
      const cb = location(await browser.get(url.toString()));
      return cb.searchParams.has('code');
    }
    /** An error page: 400 HTML, no Location, and the session still there. */
    async function refused(browser: Browser, params: Record<string, string>) {
      const res = await browser.get(endSession(params), HTML);
      assert.equal(res.status, 400);
      assert.equal(res.headers.get('location'), null, 'never a redirect');
      assert.match(res.headers.get('content-type') ?? '', /^text\/html/);
      assert.equal(await signedIn(browser), true, 'the session stays');
    }
    /** The confirmation page's form, confirmed: what the browser is answered. */
    async function confirm(browser: Browser, page: Awaited<ReturnType<Browser['get']>>) {
      assert.equal(page.status, 200);
      assert.equal(page.headers.get('location'), null);
      const html = await page.text();
      assert.match(html, /<form method="post" action="\/identity\/v1\/logout"/);
      const form: Record<string, string> = {};
      for (const m of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g))
        form[m[1]!] = m[2]!
          .replace(/&amp;/g, '&')
          .replace(/&quot;/g, '"')
          .replace(/&#39;/g, "'");
      return browser.postForm('/identity/v1/logout', { ...form, confirm: 'yes' });
    }

    describe('oidcc-rp-initiated-logout-discovery-endpoint-verification', () => {
      it('lists an https end_session_endpoint', () => {
        const endpoint = config.serverMetadata().end_session_endpoint;
        assert.equal(endpoint, `${suite.ward.issuer}/identity/v1/logout`);
        assert.equal(new URL(endpoint!).protocol, 'https:');
      });
    });

    describe('oidcc-rp-initiated-logout', () => {
      it('returns to the registered URI with the state and nothing else; the session has ended', async () => {
        const { tokens, browser } = await signIn(suite, { config });
        const url = client.buildEndSessionUrl(config, {
          id_token_hint: tokens.id_token!,
          post_logout_redirect_uri: LOGGED_OUT,
          state: 'bye-"state"',
        });
        const res = await browser.get(url.toString(), HTML);
        assert.equal(res.status, 302);
        const back = location(res);
        assert.equal(`${back.origin}${back.pathname}`, LOGGED_OUT);
        assert.deepEqual([...back.searchParams], [['state', 'bye-"state"']]);
        assert.equal(await signedIn(browser), false);
      });

      it('does the same with client_id beside the hint, and as a POST form', async () => {
        const { tokens, browser } = await signIn(suite, { config });
        const res = await browser.postForm('/identity/v1/logout', {
          id_token_hint: tokens.id_token!,
          client_id: 'rp',
          post_logout_redirect_uri: LOGGED_OUT,
          state: 's-post',
        });
        assert.ok(res.status === 302 || res.status === 303);
        assert.equal(location(res).toString(), `${LOGGED_OUT}?state=s-post`);
        assert.equal(await signedIn(browser), false);
      });
    });

    describe('oidcc-rp-initiated-logout-no-state', () => {
      it('returns to the URI exactly as registered, without a state', async () => {
        const { tokens, browser } = await signIn(suite, { config });
        const res = await browser.get(
          endSession({ id_token_hint: tokens.id_token!, post_logout_redirect_uri: LOGGED_OUT }),
          HTML,
        );
        assert.equal(res.status, 302);
        assert.equal(location(res).toString(), LOGGED_OUT);
        assert.equal(await signedIn(browser), false);
      });
    });

    describe('oidcc-rp-initiated-logout-bad-post-logout-redirect-uri', () => {
      it('refuses a post_logout_redirect_uri the client did not register', async () => {
        const { tokens, browser } = await signIn(suite, { config });
        await refused(browser, {
          id_token_hint: tokens.id_token!,
          post_logout_redirect_uri: 'https://rp.example/elsewhere',
        });
      });
    });

    describe('oidcc-rp-initiated-logout-query-added-to-post-logout-redirect-uri', () => {
      it('refuses the registered URI with a query added', async () => {
        const { tokens, browser } = await signIn(suite, { config });
        await refused(browser, { id_token_hint: tokens.id_token!, post_logout_redirect_uri: `${LOGGED_OUT}?x=1` });
      });
    });

    describe('oidcc-rp-initiated-logout-modified-id-token-hint', () => {
      it('refuses the ID token turned into alg none', async () => {
        const { tokens, browser } = await signIn(suite, { config });
        const [, payload] = tokens.id_token!.split('.');
        const unsigned = `${b64({ alg: 'none' })}.${payload}.`;
        await refused(browser, { id_token_hint: unsigned, post_logout_redirect_uri: LOGGED_OUT });
      });
    });

    describe('oidcc-rp-initiated-logout-bad-id-token-hint', () => {
      it('refuses an ID token with the right claims signed by another key', async () => {
        const { tokens, browser } = await signIn(suite, { config });
        const { privateKey } = await generateKeyPair('RS256');
        const claims = tokens.claims()!;
        const forged = await new SignJWT({ ...claims })
          .setProtectedHeader({ alg: 'RS256', kid: 'test-suite-key' })
          .sign(privateKey);
        await refused(browser, { id_token_hint: forged, post_logout_redirect_uri: LOGGED_OUT });
      });
    });

    describe('oidcc-rp-initiated-logout-no-id-token-hint', () => {
      it('without a hint or a client_id, a post_logout_redirect_uri is refused', async () => {
        const { browser } = await signIn(suite, { config });
        await refused(browser, { post_logout_redirect_uri: LOGGED_OUT, state: 's' });
      });

      it('with client_id instead of a hint: the user confirms, then returns to the URI with the state', async () => {
        const { browser } = await signIn(suite, { config });
        const page = await browser.get(
          endSession({ client_id: 'rp', post_logout_redirect_uri: LOGGED_OUT, state: 's-cid' }),
          HTML,
        );
        assert.equal(await signedIn(browser), true, 'nothing ended before the user confirms');
        const res = await confirm(browser, page);
        assert.equal(location(res).toString(), `${LOGGED_OUT}?state=s-cid`);
        assert.equal(await signedIn(browser), false);
      });
    });

    describe('oidcc-rp-initiated-logout-no-params / -only-state', () => {
      // Without an OpenID parameter the endpoint is also the Core SDK's logout: a top-level navigation
      // (the relying party's link) signs out on Ward's page; an image or a fetch from another site cannot.
      // (undici's fetch sends its own Sec-Fetch-Mode: the navigation here carries no fetch metadata,
      // as an older browser's; the cross-site image carries Sec-Fetch-Site and is refused.)
      const navigation = HTML;
      for (const params of [{}, { state: 'only-state' }] as Record<string, string>[]) {
        it(`${Object.keys(params).length ? 'only state' : 'no parameters'}: signed out on Ward's page, no redirect`, async () => {
          const { browser } = await signIn(suite, { config });
          const image = await browser.get(endSession(params), {
            'sec-fetch-site': 'cross-site',
            'sec-fetch-mode': 'no-cors',
            'sec-fetch-dest': 'image',
          });
          assert.equal(image.status, 403);
          assert.equal(await signedIn(browser), true, 'a cross-site subresource ends nothing');
          const res = await browser.get(endSession(params), navigation);
          assert.equal(res.status, 200);
          assert.equal(res.headers.get('location'), null);
          assert.match(await res.text(), /You are signed out/);
          assert.equal(await signedIn(browser), false);
        });
      }
    });

    describe('oidcc-rp-initiated-logout-no-post-logout-redirect-uri', () => {
      it("with the hint only: signed out at once on Ward's page, no redirect", async () => {
        const { tokens, browser } = await signIn(suite, { config });
        const res = await browser.get(endSession({ id_token_hint: tokens.id_token! }), HTML);
        assert.equal(res.status, 200);
        assert.equal(res.headers.get('location'), null);
        assert.equal(await signedIn(browser), false);
      });
    });
  });
}
