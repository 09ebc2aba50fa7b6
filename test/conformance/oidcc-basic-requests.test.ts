// The OpenID Foundation's Basic OP test plan, continued (oidcc-basic.test.ts has the flow, the ID
// token, userinfo, scopes, prompt and max_age): the modules about the authorization request's other
// parameters, the code's single use, the redirect_uri check, the POST request, client_secret_post,
// request objects as discovery describes them today, the claims parameter, refresh and PKCE.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { decodeJwt } from 'jose';
import * as client from 'openid-client';
import { engines } from '../helpers/databases.js';
import { location, signup } from '../helpers/oauth.js';
import { isLoginPage, RP_SECRET, rpConfig, signIn, type Suite, startSuite } from './support.js';

const basic = `Basic ${Buffer.from(`rp:${RP_SECRET}`).toString('base64')}`;

for (const engine of engines()) {
  describe(`OIDCC Basic plan, request parameters (${engine})`, () => {
    let suite: Suite;
    let config: client.Configuration;
    let meta: client.ServerMetadata;
    before(async () => {
      suite = await startSuite(engine);
      config = await rpConfig(suite.ward);
      meta = config.serverMetadata();
    });
    after(() => suite.close());

    const authorize = (params: Record<string, string>) =>
      client.buildAuthorizationUrl(config, { redirect_uri: suite.redirectUri, scope: 'openid', ...params }).toString();
    const token = (form: Record<string, string>) =>
      suite.ward.fetch('/oauth/token', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: basic },
        body: new URLSearchParams(form).toString(),
      });
    /** An error answered at the redirect_uri (not a page), with the state sent. */
    const callbackError = (res: Awaited<ReturnType<typeof token>>, state: string) => {
      assert.equal(res.status, 302);
      const cb = location(res);
      assert.equal(`${cb.origin}${cb.pathname}`, suite.redirectUri);
      assert.equal(cb.searchParams.get('state'), state);
      assert.equal(cb.searchParams.get('code'), null);
      return cb.searchParams.get('error');
    };

    describe('oidcc-response-type-missing', () => {
      it('answers invalid_request or unsupported_response_type at the redirect_uri', async () => {
        const url = new URL(authorize({ state: 'st-rt' }));
        url.searchParams.delete('response_type');
        const error = callbackError(await suite.ward.fetch(url.toString()), 'st-rt');
        assert.ok(['invalid_request', 'unsupported_response_type'].includes(error!), String(error));
      });
    });

    describe('oidcc-ensure-request-with-unknown-parameter-succeeds', () => {
      it('ignores a parameter it does not know', async () => {
        const { tokens } = await signIn(suite, { config, params: { extra_parameter: 'ignored-value' } });
        assert.ok(tokens.id_token);
      });
    });

    describe('oidcc-id-token-hint', () => {
      it('prompt=none with the first ID token as id_token_hint: answered at once, same sub', async () => {
        const first = await signIn(suite, { config });
        const second = await signIn(suite, {
          config,
          browser: first.browser,
          user: first.user,
          params: { prompt: 'none', id_token_hint: first.tokens.id_token! },
          expectLogin: false,
        });
        assert.equal(decodeJwt(second.tokens.id_token!).sub, decodeJwt(first.tokens.id_token!).sub);
      });
    });

    describe('oidcc-login-hint', () => {
      it('accepts login_hint and prefills the login page with it', async () => {
        const user = await signup(suite.ward, 'rp');
        const page = await suite.ward.fetch(authorize({ login_hint: user.email }));
        const html = await page.text();
        assert.ok(isLoginPage(html));
        assert.match(html, new RegExp(`value="${user.email.replace(/[.+]/g, '\\$&')}"`));
        await signIn(suite, { config, user, params: { login_hint: user.email } });
        const hostile = await (await suite.ward.fetch(authorize({ login_hint: '"><script>x()</script>' }))).text();
        assert.ok(!hostile.includes('<script>x()'), 'the hint is escaped');
      });
    });

    describe('oidcc-ui-locales', () => {
      it('accepts ui_locales and shows the login page in that language', async () => {
        const page = await suite.ward.fetch(authorize({ ui_locales: 'fr-CA fr en' }));
        assert.match(await page.text(), /<html lang="fr"/);
        await signIn(suite, { config, params: { ui_locales: 'fr-CA fr en' } });
      });
    });

    describe('oidcc-claims-locales / oidcc-ensure-request-with-acr-values-succeeds', () => {
      it('completes with claims_locales and with acr_values', async () => {
        await signIn(suite, { config, params: { claims_locales: 'fr en' } });
        const { tokens } = await signIn(suite, { config, params: { acr_values: '1 2' } });
        const acr = decodeJwt(tokens.id_token!).acr;
        if (acr !== undefined) assert.equal(typeof acr, 'string');
      });
    });

    describe('oidcc-codereuse / oidcc-codereuse-30seconds', () => {
      for (const wait of [0, 30_000]) {
        it(`refuses the code used again${wait ? ' 30 s later' : ''} with invalid_grant and revokes its tokens`, async () => {
          const { browser } = await signIn(suite, { config });
          const code = location(await browser.get(authorize({}))).searchParams.get('code')!;
          const form = { grant_type: 'authorization_code', code, redirect_uri: suite.redirectUri };
          const first = (await (await token(form)).json()) as { access_token: string; refresh_token?: string };
          suite.ward.clock.advance(wait);
          const again = await token(form);
          assert.equal(again.status, 400);
          assert.equal(((await again.json()) as { error: string }).error, 'invalid_grant');
          const info = await suite.ward.fetch('/identity/v1/userinfo', {
            headers: { authorization: `Bearer ${first.access_token}` },
          });
          assert.equal(info.status, 401, "the first redemption's access token is revoked");
        });
      }
    });

    describe('oidcc-ensure-registered-redirect-uri', () => {
      it('shows an error page for a redirect_uri not registered: no redirect', async () => {
        for (const redirect of [`${suite.redirectUri}/extra`, 'https://attacker.example/cb']) {
          const url = client.buildAuthorizationUrl(config, { redirect_uri: redirect, scope: 'openid' });
          const res = await suite.ward.fetch(url.toString());
          assert.equal(res.status, 400);
          assert.equal(res.headers.get('location'), null);
          assert.match(res.headers.get('content-type') ?? '', /text\/html/);
        }
      });
    });

    describe('redirect_uri at the token endpoint', () => {
      it('refuses a code redeemed with another redirect_uri than the one it was issued for', async () => {
        const { browser } = await signIn(suite, { config });
        const code = location(await browser.get(authorize({}))).searchParams.get('code')!;
        const res = await token({ grant_type: 'authorization_code', code, redirect_uri: `${suite.redirectUri}x` });
        assert.equal(res.status, 400);
        assert.equal(((await res.json()) as { error: string }).error, 'invalid_grant');
      });
    });

    describe('oidcc-ensure-post-request-succeeds', () => {
      it('accepts the authorization request as a POST form', async () => {
        const first = await signIn(suite, { config });
        const params = Object.fromEntries(new URL(authorize({ state: 'st-post' })).searchParams);
        const res = await first.browser.postForm('/oauth/authorize', params);
        assert.equal(res.status, 302);
        const cb = location(res);
        assert.equal(cb.searchParams.get('state'), 'st-post');
        const tokens = await client.authorizationCodeGrant(config, cb, { expectedState: 'st-post' });
        assert.equal(decodeJwt(tokens.id_token!).sub, decodeJwt(first.tokens.id_token!).sub);
      });

      it('refuses a POST that is not a form with 415', async () => {
        const res = await suite.ward.fetch('/oauth/authorize', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ client_id: 'rp' }),
        });
        assert.equal(res.status, 415);
      });
    });

    describe('oidcc-server-client-secret-post', () => {
      it('completes the flow with client_secret_post', async () => {
        const post = await rpConfig(suite.ward, 'rp-post');
        assert.ok(meta.token_endpoint_auth_methods_supported?.includes('client_secret_post'));
        const { tokens } = await signIn(suite, { config: post });
        assert.equal(decodeJwt(tokens.id_token!).aud, 'rp-post');
      });
    });

    describe('oidcc-request-uri-unsigned / oidcc-unsigned-request-object (as discovery says)', () => {
      const object = () =>
        `${Buffer.from('{"alg":"none"}').toString('base64url')}.${Buffer.from(
          JSON.stringify({ client_id: 'rp', response_type: 'code', redirect_uri: suite.redirectUri, scope: 'openid' }),
        ).toString('base64url')}.`;
      it('request: an unsigned object is refused, as the advertised algorithms (no none) say', async () => {
        // Signed objects are proved by test/protocol/authorize/request-object.test.ts.
        assert.equal(meta.request_parameter_supported, true);
        assert.ok(!meta.request_object_signing_alg_values_supported?.includes('none'));
        const res = await suite.ward.fetch(authorize({ state: 'st-ro', request: object() }));
        assert.equal(callbackError(res, 'st-ro'), 'invalid_request_object');
      });
      it('request_uri: request_uri_not_supported, as discovery says', async () => {
        assert.equal(meta.request_uri_parameter_supported, false);
        const res = await suite.ward.fetch(authorize({ state: 'st-ru', request_uri: 'https://rp.example/ro.jwt' }));
        assert.equal(callbackError(res, 'st-ru'), 'request_uri_not_supported');
      });
    });

    describe('oidcc-claims-essential', () => {
      it('with claims_parameter_supported false, a claims request is ignored, not refused', async () => {
        assert.equal(meta.claims_parameter_supported, false);
        const claims = JSON.stringify({ userinfo: { name: { essential: true } } });
        const { tokens } = await signIn(suite, { config, params: { claims } });
        assert.ok(tokens.access_token);
      });
    });

    describe('oidcc-refresh-token', () => {
      it('refreshes with offline_access: a new ID token for the same sub, and not for another client', async () => {
        const { tokens } = await signIn(suite, { config, params: { scope: 'openid offline_access' } });
        assert.ok(tokens.refresh_token);
        const fresh = await client.refreshTokenGrant(config, tokens.refresh_token!);
        assert.ok(fresh.access_token);
        if (fresh.id_token) {
          const [a, b] = [tokens.id_token!, fresh.id_token].map((t) => decodeJwt(t));
          assert.equal(b!.sub, a!.sub);
          assert.equal(b!.iss, a!.iss);
          assert.equal(b!.aud, a!.aud);
        }
        const other = await rpConfig(suite.ward, 'rp-post');
        await assert.rejects(client.refreshTokenGrant(other, fresh.refresh_token ?? tokens.refresh_token!));
      });
    });

    describe('oidcc-ensure-request-with-valid-pkce-succeeds', () => {
      it('completes with S256 PKCE', async () => {
        assert.ok(meta.code_challenge_methods_supported?.includes('S256'));
        const user = await signup(suite.ward, 'rp');
        const { browser } = await signIn(suite, { config, user });
        const verifier = client.randomPKCECodeVerifier();
        const url = authorize({
          code_challenge: await client.calculatePKCECodeChallenge(verifier),
          code_challenge_method: 'S256',
        });
        const cb = location(await browser.get(url));
        const tokens = await client.authorizationCodeGrant(config, cb, { pkceCodeVerifier: verifier });
        assert.ok(tokens.id_token);
      });
    });
  });
}
