// The OpenID Foundation's Basic OP test plan (oidcc-basic-certification-test-plan: response_type code,
// client_secret_basic, a static client), written here from what its modules check. Each describe is
// named for the module it stands for. openid-client drives the relying party (it checks state, iss,
// the ID token's signature, iss, aud, exp, iat and nonce); the exact wire checks are raw HTTP. The
// request-object modules (oidcc-request-uri-unsigned..., oidcc-unsigned-request-object...) are in
// oidcc-basic-requests.test.ts with the other authorization request variants.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { decodeJwt, decodeProtectedHeader } from 'jose';
import * as client from 'openid-client';
import { engines } from '../helpers/databases.js';
import { location, signup } from '../helpers/oauth.js';
import { RP_SECRET, rpConfig, signIn, type Suite, startSuite, verifyWithJwks } from './support.js';

const basic = `Basic ${Buffer.from(`rp:${RP_SECRET}`).toString('base64')}`;
const halfHash = (token: string) => createHash('sha256').update(token).digest().subarray(0, 16).toString('base64url');

for (const engine of engines()) {
  describe(`OIDCC Basic plan (${engine})`, () => {
    let suite: Suite;
    let config: client.Configuration;
    before(async () => {
      suite = await startSuite(engine);
      config = await rpConfig(suite.ward);
    });
    after(() => suite.close());

    const userinfo = (token: string, init: { method?: string; body?: string; header?: boolean } = {}) =>
      suite.ward.fetch('/identity/v1/userinfo', {
        method: init.method ?? 'GET',
        headers: {
          ...(init.header === false ? {} : { authorization: `Bearer ${token}` }),
          ...(init.body ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
        },
        body: init.body,
      });

    describe('oidcc-server (code flow, client_secret_basic)', () => {
      it('answers with code, state and iss only; the token response is a no-store Bearer answer', async () => {
        const user = await signup(suite.ward, 'rp');
        const first = await signIn(suite, { config, user });
        assert.deepEqual([...first.callback.searchParams.keys()].sort(), ['code', 'iss', 'state']);
        assert.equal(first.callback.searchParams.get('iss'), suite.ward.issuer);
        // The token endpoint's wire answer, raw: a second sign-in's code.
        const url = client.buildAuthorizationUrl(config, { redirect_uri: suite.redirectUri, scope: 'openid' });
        const code = location(await first.browser.get(url.toString())).searchParams.get('code')!;
        const res = await suite.ward.fetch('/oauth/token', {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: basic },
          body: new URLSearchParams({
            grant_type: 'authorization_code',
            code,
            redirect_uri: suite.redirectUri,
          }).toString(),
        });
        assert.equal(res.status, 200);
        assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
        assert.match(res.headers.get('cache-control') ?? '', /no-store/);
        const body = (await res.json()) as Record<string, unknown>;
        assert.equal(String(body.token_type).toLowerCase(), 'bearer');
        assert.equal(typeof body.access_token, 'string');
        assert.ok(typeof body.expires_in === 'number' && body.expires_in > 0);
        assert.equal(typeof body.id_token, 'string');
      });

      it('issues an ID token with iss, sub, aud, exp, iat, auth_time and nonce; at_hash matches', async () => {
        const { tokens, nonce } = await signIn(suite, { config });
        const { payload, header } = await verifyWithJwks(suite.ward, tokens.id_token!, { audience: 'rp' });
        assert.equal(header.alg, 'RS256');
        assert.equal(payload.iss, suite.ward.issuer);
        assert.ok(typeof payload.sub === 'string' && payload.sub.length > 0 && payload.sub.length <= 255);
        assert.ok(payload.aud === 'rp' || (Array.isArray(payload.aud) && payload.aud.includes('rp')));
        if (Array.isArray(payload.aud) && payload.aud.length > 1) assert.equal(payload.azp, 'rp');
        const now = Math.floor(suite.ward.clock.now() / 1000);
        assert.ok(payload.exp! > now && payload.iat! <= now + 5 && payload.iat! > now - 60);
        assert.equal(payload.nonce, nonce);
        assert.ok(typeof payload.auth_time === 'number' && payload.auth_time <= now);
        assert.equal(payload.at_hash, halfHash(tokens.access_token));
        assert.equal(payload.c_hash, undefined, 'no c_hash in a token-endpoint ID token of the code flow');
      });
    });

    describe('oidcc-server with the other listed response types: at_hash / c_hash', () => {
      it('code id_token: the fragment ID token has the nonce and the c_hash of the code; id_token: no hash', async () => {
        const first = await signIn(suite, { config });
        const answer = async (responseType: string, nonce: string) => {
          const url = client.buildAuthorizationUrl(config, {
            redirect_uri: suite.redirectUri,
            scope: 'openid',
            response_type: responseType,
            nonce,
            state: `st-${responseType}`,
          });
          const cb = location(await first.browser.get(url.toString()));
          assert.equal(cb.search, '', 'nothing in the query');
          const values = new URLSearchParams(cb.hash.slice(1));
          assert.equal(values.get('state'), `st-${responseType}`);
          const { payload } = await verifyWithJwks(suite.ward, values.get('id_token')!, { audience: 'rp' });
          assert.equal(payload.nonce, nonce);
          return { values, payload };
        };
        const hybrid = await answer('code id_token', 'n-hybrid');
        assert.equal(hybrid.payload.c_hash, halfHash(hybrid.values.get('code')!));
        assert.equal(hybrid.payload.at_hash, undefined, 'no access token in this response');
        const implicit = await answer('id_token', 'n-implicit');
        assert.equal(implicit.values.get('code'), null);
        assert.equal(implicit.payload.c_hash, undefined);
        assert.equal(implicit.payload.at_hash, undefined);
        assert.equal(implicit.payload.sub, decodeJwt(first.tokens.id_token!).sub);
      });
    });

    describe('oidcc-idtoken-signature', () => {
      it("names a kid of the JWKS in the ID token's header and verifies with that key", async () => {
        const { tokens } = await signIn(suite, { config });
        const { kid, alg } = decodeProtectedHeader(tokens.id_token!);
        const { keys } = (await (await suite.ward.fetch('/jwks.json')).json()) as { keys: { kid: string }[] };
        assert.ok(kid && keys.some((k) => k.kid === kid), 'the kid is published');
        assert.equal(alg, 'RS256');
        await verifyWithJwks(suite.ward, tokens.id_token!, { audience: 'rp' });
      });
    });

    describe('oidcc-idtoken-unsigned', () => {
      it('is not applicable: discovery does not list alg none, and no client can ask for it', async () => {
        assert.ok(!config.serverMetadata().id_token_signing_alg_values_supported?.includes('none'));
        await assert.rejects(suite.ward.addClient({ client_id: 'none-alg', type: 'public', jwt_algorithm: 'none' }));
      });
    });

    describe('oidcc-userinfo-get / oidcc-userinfo-post-header / oidcc-userinfo-post-body', () => {
      it('answers the same sub as the ID token, as JSON, for GET, POST with the header and POST with the body', async () => {
        const { tokens } = await signIn(suite, { config, params: { scope: 'openid email' } });
        const sub = decodeJwt(tokens.id_token!).sub;
        const answers = [
          await userinfo(tokens.access_token),
          await userinfo(tokens.access_token, { method: 'POST' }),
          await userinfo(tokens.access_token, {
            method: 'POST',
            header: false,
            body: new URLSearchParams({ access_token: tokens.access_token }).toString(),
          }),
        ];
        for (const res of answers) {
          assert.equal(res.status, 200);
          assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
          const body = (await res.json()) as Record<string, unknown>;
          assert.equal(body.sub, sub);
          assert.equal(typeof body.email, 'string');
        }
        // And openid-client's own userinfo call, with its subject check.
        const info = await client.fetchUserInfo(config, tokens.access_token, sub!);
        assert.equal(info.sub, sub);
      });

      it('refuses a request without a token, and a made-up token, with 401 and WWW-Authenticate', async () => {
        for (const res of [await userinfo('', { header: false }), await userinfo('not-a-token')]) {
          assert.equal(res.status, 401);
          assert.match(res.headers.get('www-authenticate') ?? '', /^Bearer/);
        }
      });
    });

    describe('oidcc-ensure-request-without-nonce-succeeds-for-code-flow', () => {
      it('completes the code flow without a nonce; the ID token has none', async () => {
        const user = await signup(suite.ward, 'rp');
        const { browser } = await signIn(suite, { config, user });
        const url = client.buildAuthorizationUrl(config, { redirect_uri: suite.redirectUri, scope: 'openid' });
        const callback = location(await browser.get(url.toString()));
        const tokens = await client.authorizationCodeGrant(config, callback);
        assert.equal(decodeJwt(tokens.id_token!).nonce, undefined);
      });
    });

    describe('oidcc-scope-profile / -email / -address / -phone / -all', () => {
      const address = { street_address: '1 Rue de Rivoli', locality: 'Paris', postal_code: '75001', country: 'FR' };
      const expected: Record<string, string[]> = {
        profile: ['name', 'given_name', 'family_name', 'updated_at'],
        email: ['email', 'email_verified'],
        address: ['address'],
        phone: ['phone_number', 'phone_number_verified'],
      };
      for (const scope of ['profile', 'email', 'address', 'phone', 'profile email address phone']) {
        it(`releases the claims of scope ${scope} at userinfo, and no other scope's`, async () => {
          const user = await signup(suite.ward, 'rp', {
            address,
            phone_number: `+336${String(Math.random()).slice(2, 10)}`,
          });
          const { tokens } = await signIn(suite, { config, user, params: { scope: `openid ${scope}` } });
          assert.equal(tokens.scope?.split(' ').sort().join(' '), `openid ${scope}`.split(' ').sort().join(' '));
          const info = (await (await userinfo(tokens.access_token)).json()) as Record<string, unknown>;
          const asked = scope.split(' ');
          for (const [s, claims] of Object.entries(expected))
            for (const c of claims)
              assert.equal(c in info, asked.includes(s), `${c} ${asked.includes(s) ? 'released' : 'withheld'}`);
        });
      }
    });

    describe('oidcc-display-page / oidcc-display-popup', () => {
      for (const display of ['page', 'popup']) {
        it(`shows the login page and completes with display=${display}`, async () => {
          const { tokens } = await signIn(suite, { config, params: { display }, expectLogin: true });
          assert.ok(tokens.id_token);
        });
      }
    });

    describe('oidcc-prompt-login', () => {
      it('asks the signed-in user to log in again; the new auth_time is later', async () => {
        const first = await signIn(suite, { config });
        suite.ward.clock.advance(2000);
        const second = await signIn(suite, {
          config,
          browser: first.browser,
          user: first.user,
          params: { prompt: 'login' },
          expectLogin: true,
        });
        const [a, b] = [first, second].map((s) => decodeJwt(s.tokens.id_token!));
        assert.equal(b!.sub, a!.sub);
        assert.ok((b!.auth_time as number) > (a!.auth_time as number));
      });
    });

    describe('oidcc-prompt-none-not-logged-in', () => {
      it('answers login_required at the redirect_uri, with state and iss', async () => {
        const url = client.buildAuthorizationUrl(config, {
          redirect_uri: suite.redirectUri,
          scope: 'openid',
          prompt: 'none',
          state: 'st-none',
        });
        const res = await suite.ward.fetch(url.toString());
        assert.equal(res.status, 302);
        const cb = location(res);
        assert.equal(`${cb.origin}${cb.pathname}`, suite.redirectUri);
        assert.ok(['login_required', 'interaction_required'].includes(cb.searchParams.get('error')!));
        assert.equal(cb.searchParams.get('state'), 'st-none');
        assert.equal(cb.searchParams.get('iss'), suite.ward.issuer);
      });
    });

    describe('oidcc-prompt-none-logged-in', () => {
      it('answers a code without any page when the browser has a session', async () => {
        const first = await signIn(suite, { config });
        const second = await signIn(suite, {
          config,
          browser: first.browser,
          user: first.user,
          params: { prompt: 'none' },
          expectLogin: false,
        });
        assert.equal(decodeJwt(second.tokens.id_token!).sub, decodeJwt(first.tokens.id_token!).sub);
      });
    });

    describe('oidcc-max-age-1 / oidcc-max-age-10000', () => {
      it('max_age=1 after 2 s: the login page again, auth_time present and later', async () => {
        const first = await signIn(suite, { config });
        suite.ward.clock.advance(2000);
        const second = await signIn(suite, {
          config,
          browser: first.browser,
          user: first.user,
          maxAge: 1,
          expectLogin: true,
        });
        const [a, b] = [first, second].map((s) => decodeJwt(s.tokens.id_token!).auth_time as number);
        assert.ok(typeof b === 'number' && b > a!);
      });

      it('max_age=10000: no login page, auth_time present and the first sign-in', async () => {
        const first = await signIn(suite, { config });
        const second = await signIn(suite, {
          config,
          browser: first.browser,
          user: first.user,
          maxAge: 10000,
          expectLogin: false,
        });
        const auth = decodeJwt(second.tokens.id_token!).auth_time;
        assert.equal(auth, decodeJwt(first.tokens.id_token!).auth_time);
      });
    });
  });
}
