// OpenID Connect RP-Initiated Logout 1.0 at the end_session_endpoint, driven by openid-client (a
// certified relying party library): the registered post_logout_redirect_uri with state, the POST
// form, refusals without any redirect, an expired hint accepted, and the confirmation page whenever
// the request cannot be tied to the session (a third-party link signs nobody out).
import assert from 'node:assert/strict';
import { generateKeyPair, SignJWT } from 'jose';
import { after, before, describe, it } from 'node:test';
import * as client from 'openid-client';
import { fetch as undiciFetch } from 'undici';
import { Browser } from '../helpers/browser.js';
import { engines } from '../helpers/databases.js';
import { submitLoginPage } from '../helpers/hosted-login.js';
import { CONFIDENTIAL_SECRET, location, signup } from '../helpers/oauth.js';
import { startWard, type TestWard } from '../helpers/ward.js';

const BYE = 'https://app.example/bye';
const API_BYE = 'https://api.example/bye';

const field = (html: string, name: string) =>
  new RegExp(`name="${name}" value="([^"]*)"`)
    .exec(html)?.[1]
    ?.replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');

for (const engine of engines()) {
  describe(`RP-Initiated Logout (${engine})`, () => {
    let ward: TestWard;
    before(async () => {
      ward = await startWard({
        engine,
        clients: [
          {
            client_id: 'spa',
            name: 'Shop SPA',
            type: 'public',
            allowed_callback_urls: ['https://app.example/cb'],
            post_logout_redirect_uris: [BYE],
            sso: true,
          },
          {
            client_id: 'backend',
            name: 'Shop backend',
            type: 'confidential',
            client_secret: CONFIDENTIAL_SECRET,
            jwt_algorithm: 'HS256',
            allowed_callback_urls: ['https://api.example/cb'],
            post_logout_redirect_uris: [API_BYE],
          },
        ],
      });
    });
    after(() => ward.close());

    const tlsFetch = ((url: string, init: object) => undiciFetch(url, { ...init, dispatcher: ward.agent })) as never;

    /** Discovery, then code + PKCE through the login page: the browser holds an SSO session. */
    async function signIn(kind: 'public' | 'confidential' = 'public', browser = new Browser(ward)) {
      const user = await signup(ward, 'spa');
      const clientId = kind === 'public' ? 'spa' : 'backend';
      const config = await client.discovery(
        new URL(ward.url),
        clientId,
        kind === 'public' ? undefined : { client_secret: CONFIDENTIAL_SECRET, id_token_signed_response_alg: 'HS256' },
        kind === 'public' ? client.None() : client.ClientSecretBasic(CONFIDENTIAL_SECRET),
        { [client.customFetch]: tlsFetch },
      );
      config[client.customFetch] = tlsFetch;
      const verifier = client.randomPKCECodeVerifier();
      const state = client.randomState();
      const nonce = client.randomNonce();
      const url = client.buildAuthorizationUrl(config, {
        redirect_uri: kind === 'public' ? 'https://app.example/cb' : 'https://api.example/cb',
        scope: 'openid email offline_access',
        state,
        nonce,
        code_challenge: await client.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
      });
      const page = await browser.get(url.toString());
      const posted = await submitLoginPage(browser, await page.text(), user.email, user.password);
      assert.equal(posted.status, 303);
      const tokens = await client.authorizationCodeGrant(config, location(posted), {
        pkceCodeVerifier: verifier,
        expectedState: state,
        expectedNonce: nonce,
      });
      return { user, config, tokens, browser };
    }

    const signedIn = async (browser: Browser) => {
      const res = await browser.get('/identity/v1/sso/data?client_id=spa');
      return ((await res.json()) as { is_authenticated: boolean }).is_authenticated;
    };

    it('ends the session and returns to the registered post_logout_redirect_uri with state (openid-client)', async () => {
      const { config, tokens, browser } = await signIn();
      assert.equal(typeof tokens.claims()?.sid, 'string', 'the ID token names its session');
      const url = client.buildEndSessionUrl(config, {
        id_token_hint: tokens.id_token!,
        post_logout_redirect_uri: BYE,
        state: 'bye-state',
      });
      assert.equal(`${url.origin}${url.pathname}`, `${ward.url}/identity/v1/logout`, 'discovery names the endpoint');
      const res = await browser.get(url.toString());
      assert.equal(res.status, 302);
      assert.equal(location(res).toString(), `${BYE}?state=bye-state`);
      assert.equal(await signedIn(browser), false, 'the SSO session ended');
      await assert.rejects(client.refreshTokenGrant(config, tokens.refresh_token!), 'its grants ended with it');
    });

    it('accepts the logout request as a POST form (confidential HS256 client, client_id and hint)', async () => {
      const { tokens, browser } = await signIn('confidential');
      const res = await browser.postForm('/identity/v1/logout', {
        id_token_hint: tokens.id_token!,
        client_id: 'backend',
        post_logout_redirect_uri: API_BYE,
        state: 's2',
      });
      assert.equal(res.status, 303);
      assert.equal(location(res).toString(), `${API_BYE}?state=s2`);
      assert.equal(await signedIn(browser), false);
    });

    it('accepts an expired id_token_hint: it still names the user and the session', async () => {
      const { config, tokens, browser } = await signIn();
      ward.clock.advance(2 * 3600_000);
      const exp = tokens.claims()!.exp * 1000;
      assert.ok(ward.clock.now() > exp, 'the hint has expired');
      const res = await browser.get(
        client
          .buildEndSessionUrl(config, { id_token_hint: tokens.id_token!, post_logout_redirect_uri: BYE })
          .toString(),
      );
      assert.equal(res.status, 302);
      assert.equal(location(res).toString(), BYE);
      assert.equal(await signedIn(browser), false);
    });

    describe('refusals: an error, never a redirect, and the session stays', () => {
      const refused = async (browser: Browser, query: Record<string, string>, description: RegExp) => {
        const url = `/identity/v1/logout?${new URLSearchParams(query).toString()}`;
        const json = await browser.get(url);
        assert.equal(json.status, 400);
        assert.equal(json.headers.get('location'), null);
        const body = (await json.json()) as Record<string, string>;
        assert.equal(body.error, 'invalid_request');
        assert.equal(body.error_message_key, 'error.invalidRequest');
        assert.match(body.error_description!, description);
        const page = await browser.get(url, { accept: 'text/html' });
        assert.equal(page.status, 400);
        assert.equal(page.headers.get('location'), null);
        assert.match(page.headers.get('content-type') ?? '', /^text\/html/);
        assert.match(await page.text(), description);
        assert.equal(await signedIn(browser), true, 'still signed in');
      };

      it('refuses a post_logout_redirect_uri the client did not register', async () => {
        const { tokens, browser } = await signIn();
        await refused(
          browser,
          { id_token_hint: tokens.id_token!, post_logout_redirect_uri: 'https://app.example/cb' },
          /not registered/,
        );
        await refused(browser, { client_id: 'spa', post_logout_redirect_uri: `${BYE}/` }, /not registered/);
        await refused(browser, { post_logout_redirect_uri: BYE }, /needs a client_id or an id_token_hint/);
      });

      it("shows the refusal page in the refused request's ui_locales language, else Accept-Language's", async () => {
        const browser = new Browser(ward);
        const query = { client_id: 'spa', post_logout_redirect_uri: `${BYE}/` };
        const url = (q: Record<string, string>) => `/identity/v1/logout?${new URLSearchParams(q).toString()}`;
        const en = await (await browser.get(url(query), { accept: 'text/html' })).text();
        assert.match(en, /<html lang="en">[\s\S]*This sign-out request cannot be completed/);
        for (const [q, language] of [
          [{ ...query, ui_locales: 'fr' }, 'en'],
          [query, 'fr-FR'],
        ] as const) {
          const page = await browser.get(url(q), { accept: 'text/html', 'accept-language': language });
          assert.equal(page.status, 400);
          const fr = await page.text();
          assert.match(fr, /<html lang="fr">/);
          assert.match(fr, /<title>Erreur de déconnexion<\/title>/);
          assert.match(fr, /Cette demande de déconnexion ne peut pas aboutir/);
          assert.match(fr, /La post_logout_redirect_uri n&#39;est pas enregistrée pour cette application\./);
        }
      });

      it('refuses an id_token_hint Ward did not sign for this client, and a client_id that is not its audience', async () => {
        const { user, tokens, browser } = await signIn();
        const { privateKey } = await generateKeyPair('RS256');
        const iat = Math.floor(ward.clock.now() / 1000);
        const kid = JSON.parse(Buffer.from(tokens.id_token!.split('.')[0]!, 'base64url').toString()).kid as string;
        const forged = await new SignJWT({ sub: user.id, aud: 'spa', iss: ward.url, iat, exp: iat + 600 })
          .setProtectedHeader({ alg: 'RS256', kid })
          .sign(privateKey);
        await refused(browser, { id_token_hint: forged, post_logout_redirect_uri: BYE }, /not an ID token Ward issued/);
        await refused(
          browser,
          { id_token_hint: tokens.id_token!, client_id: 'backend', post_logout_redirect_uri: API_BYE },
          /not the audience/,
        );
        await refused(browser, { id_token_hint: 'not.a.jwt', post_logout_redirect_uri: BYE }, /not an ID token/);
      });
    });

    describe('the confirmation page, when the request cannot be tied to the session', () => {
      it('asks first when there is no hint: a third-party GET ends nothing; the confirmation does', async () => {
        const { browser } = await signIn();
        const url = `/identity/v1/logout?client_id=spa&post_logout_redirect_uri=${encodeURIComponent(BYE)}&state=s3`;
        const page = await browser.get(url, { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'navigate' });
        assert.equal(page.status, 200);
        const html = await page.text();
        assert.match(html, /Sign out\?/);
        assert.match(html, /Shop SPA asks to sign you out/);
        assert.match(page.headers.get('content-security-policy') ?? '', /form-action 'self' https:\/\/app\.example/);
        assert.equal(await signedIn(browser), true, 'a link alone signs nobody out');
        const form = {
          client_id: field(html, 'client_id')!,
          post_logout_redirect_uri: field(html, 'post_logout_redirect_uri')!,
          state: field(html, 'state')!,
          confirmation: field(html, 'confirmation')!,
        };
        const forged = await browser.postForm('/identity/v1/logout', { ...form, confirm: 'yes', confirmation: 'x' });
        assert.equal(forged.status, 403, 'a confirmation not made on the page is refused');
        assert.equal(await signedIn(browser), true);
        const stay = await browser.postForm('/identity/v1/logout', { ...form, confirm: 'no' });
        assert.equal(stay.status, 200);
        assert.match(await stay.text(), /still signed in/);
        assert.equal(await signedIn(browser), true);
        const res = await browser.postForm('/identity/v1/logout', { ...form, confirm: 'yes' });
        assert.equal(res.status, 303);
        assert.equal(location(res).toString(), `${BYE}?state=s3`);
        assert.equal(await signedIn(browser), false);
      });

      it("asks first when the hint is another user's, and speaks the ui_locales language", async () => {
        const other = await signIn();
        const { browser } = await signIn();
        const page = await browser.get(
          `/identity/v1/logout?id_token_hint=${other.tokens.id_token}&ui_locales=fr-FR%20en&post_logout_redirect_uri=${encodeURIComponent(BYE)}`,
        );
        assert.equal(page.status, 200);
        const html = await page.text();
        assert.match(html, /<html lang="fr">/);
        assert.match(html, /Se déconnecter \?/);
        assert.match(html, /Vous êtes connecté en tant que/);
        assert.equal(await signedIn(browser), true);
        assert.equal(await signedIn(other.browser), true, "the hint's own session is not touched either");
      });

      it('asks first when the hint names an earlier session of the same user (its sid)', async () => {
        const { user, config, tokens, browser } = await signIn();
        // The same user signs in again in this browser: a new session, so the old hint's sid differs.
        const again = await browser.get(
          client
            .buildAuthorizationUrl(config, {
              redirect_uri: 'https://app.example/cb',
              scope: 'openid',
              code_challenge: await client.calculatePKCECodeChallenge(client.randomPKCECodeVerifier()),
              code_challenge_method: 'S256',
              prompt: 'login',
            })
            .toString(),
        );
        assert.equal((await submitLoginPage(browser, await again.text(), user.email, user.password)).status, 303);
        const page = await browser.get(
          client
            .buildEndSessionUrl(config, { id_token_hint: tokens.id_token!, post_logout_redirect_uri: BYE })
            .toString(),
        );
        assert.equal(page.status, 200);
        assert.match(await page.text(), /Sign out\?/);
        assert.equal(await signedIn(browser), true);
      });

      it('without a session there is nothing to end: straight back to the registered URI', async () => {
        const browser = new Browser(ward);
        const res = await browser.get(
          `/identity/v1/logout?client_id=spa&post_logout_redirect_uri=${encodeURIComponent(BYE)}&state=s4`,
        );
        assert.equal(res.status, 302);
        assert.equal(location(res).toString(), `${BYE}?state=s4`);
        const page = await browser.get('/identity/v1/logout');
        assert.equal(page.status, 200);
        assert.match(await page.text(), /<html lang="en">[\s\S]*You are signed out/);
        const fr = await browser.get('/identity/v1/logout', { 'accept-language': 'fr-FR,fr;q=0.9' });
        assert.equal(fr.status, 200);
        const html = await fr.text();
        assert.match(html, /<html lang="fr">/);
        assert.match(html, /<title>Déconnecté<\/title>/);
        assert.match(html, /Vous êtes déconnecté/);
      });
    });

    it("keeps the Core SDK's redirect_to logout as it was", async () => {
      const { browser } = await signIn();
      const res = await browser.get(
        `/identity/v1/logout?redirect_to=${encodeURIComponent('https://app.example/cb')}&state=x`,
      );
      assert.equal(res.status, 302);
      assert.equal(location(res).toString(), 'https://app.example/cb?state=x');
      assert.equal(await signedIn(browser), false);
      // A return address no client registered: a page instead, in the browser's language.
      const unregistered = `/identity/v1/logout?redirect_to=${encodeURIComponent('https://evil.example/')}`;
      const en = await (await browser.get(unregistered)).text();
      assert.match(en, /<html lang="en">[\s\S]*The return address https:\/\/evil\.example\/ is not registered/);
      const fr = await (await browser.get(unregistered, { 'accept-language': 'fr' })).text();
      assert.match(fr, /<html lang="fr">[\s\S]*<h1>Vous êtes déconnecté<\/h1>/);
      assert.match(fr, /L’adresse de retour https:\/\/evil\.example\/ n’est pas enregistrée : vous restez ici\./);
    });
  });
}
