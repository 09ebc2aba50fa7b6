// DPoP (RFC 9449, issue #39 item 6). openid-client, as the real client, runs the code flow with a DPoP
// key through the hosted login page, calls userinfo with the DPoP scheme and refreshes; its refresh
// token is bound to the key (a public client's). With nonces required it answers the use_dpop_nonce
// challenge by itself. Hand-made proofs (jose) get the RFC's error codes: a replayed jti, another
// method or URL, a proof by another key, a symmetric or private key, an old iat, a bound token sent as
// Bearer, a missing ath. Introspection answers token_type DPoP and cnf.jkt; a JWT access token carries
// cnf.jkt (jose verifies it). SQLite, and PostgreSQL when configured.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { calculateJwkThumbprint, createRemoteJWKSet, customFetch, exportJWK, jwtVerify, SignJWT } from 'jose';
import * as client from 'openid-client';
import { fetch as undiciFetch } from 'undici';
import { engines } from '../helpers/databases.js';
import { Browser } from '../helpers/browser.js';
import { athOf, makeProof, proofKey, type ProofKey } from '../helpers/dpop.js';
import { submitLoginPage } from '../helpers/hosted-login.js';
import { api } from '../helpers/management.js';
import {
  CONFIDENTIAL_CLIENT,
  CONFIDENTIAL_SECRET,
  PUBLIC_CLIENT,
  codeFor,
  location,
  signup,
  tokenRequest,
} from '../helpers/oauth.js';
import { startWard, type TestWard } from '../helpers/ward.js';
import { NO_LIMITS, OFFLINE, basic, expectError } from './token/support.js';

const CB = 'https://app.example/cb';
const API_CB = 'https://api.example/cb';
const API_SECRET = 'resource-server-secret-of-at-least-32-bytes';
const RESOURCE_SERVER = { client_id: 'orders-api', type: 'resource_server', client_secret: API_SECRET };
const ORDERS = 'https://api.example.com/orders';
const OPS_SECRET = 'resource-manager-secret-of-40-characters!';
const OPS = {
  client_id: 'ops',
  type: 'confidential',
  client_secret: OPS_SECRET,
  grant_types: ['client_credentials'],
  management_scopes: ['manage:clients', 'read:clients'],
};

for (const engine of engines()) {
  describe(`DPoP (${engine})`, () => {
    let ward: TestWard;
    let tokenUrl: string;
    let userinfoUrl: string;
    before(async () => {
      ward = await startWard({
        engine,
        account: NO_LIMITS,
        clients: [PUBLIC_CLIENT, { ...CONFIDENTIAL_CLIENT, pkce_enforced: true }, RESOURCE_SERVER, OPS],
      });
      tokenUrl = `${ward.issuer}/oauth/token`;
      userinfoUrl = `${ward.issuer}/identity/v1/userinfo`;
    });
    after(() => ward.close());
    // The test Ward's clock stands still; proofs (openid-client's too) carry the real time.
    beforeEach(() => {
      ward.clock.advance(Math.max(0, Date.now() - ward.clock.now()));
      ward.setAccount({ dpop_nonce_required: false });
    });

    const dpopHeaders = (proof: string) => ({ dpop: proof });
    /** A code flow of the public client redeemed with a proof by `key` (offline_access: a refresh token too). */
    async function boundTokens(key: ProofKey, scope = OFFLINE, extra: Record<string, string> = {}) {
      const flow = await codeFor(ward, { scope, extra });
      const proof = await makeProof(key, { htm: 'POST', htu: tokenUrl });
      const form = {
        grant_type: 'authorization_code',
        code: flow.code,
        client_id: 'spa',
        redirect_uri: CB,
        code_verifier: flow.verifier,
        ...(extra.resource ? { resource: extra.resource } : {}),
      };
      const res = await tokenRequest(ward, form, dpopHeaders(proof));
      const text = await res.text();
      assert.equal(res.status, 200, text);
      return { ...flow, tokens: JSON.parse(text) as Record<string, string> };
    }
    /** A code flow redeemed without a proof: Bearer tokens. */
    async function boundTokensWithout() {
      const flow = await codeFor(ward);
      const form = {
        grant_type: 'authorization_code',
        code: flow.code,
        client_id: 'spa',
        redirect_uri: CB,
        code_verifier: flow.verifier,
      };
      const res = await tokenRequest(ward, form);
      const tokens = (await res.json()) as Record<string, string>;
      assert.equal(tokens.token_type, 'Bearer');
      return { tokens };
    }
    const userinfo = (scheme: string, token: string, proof?: string) =>
      ward.fetch('/identity/v1/userinfo', {
        headers: { authorization: `${scheme} ${token}`, ...(proof ? { dpop: proof } : {}) },
      });
    const introspect = async (token: string) => {
      const res = await ward.fetch('/oauth/introspect', {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          authorization: basic('orders-api', API_SECRET),
        },
        body: new URLSearchParams({ token }).toString(),
      });
      assert.equal(res.status, 200);
      return (await res.json()) as Record<string, unknown>;
    };
    const refreshWith = async (refreshToken: string, proof?: string) =>
      tokenRequest(
        ward,
        { grant_type: 'refresh_token', refresh_token: refreshToken, client_id: 'spa' },
        proof ? dpopHeaders(proof) : {},
      );

    it('lists the proof algorithms in both metadata documents', async () => {
      for (const path of ['/.well-known/openid-configuration', '/.well-known/oauth-authorization-server']) {
        const doc = (await (await ward.fetch(path)).json()) as Record<string, unknown>;
        const algs = doc.dpop_signing_alg_values_supported as string[];
        assert.ok(algs.includes('ES256') && algs.includes('EdDSA') && algs.includes('RS256'), path);
        assert.ok(!algs.some((a) => a.startsWith('HS') || a === 'none'), 'asymmetric algorithms only');
      }
    });

    it('runs the code flow, userinfo and a bound refresh through openid-client and the hosted login page', async () => {
      const user = await signup(ward);
      const tlsFetch = ((url: string, init: object) => undiciFetch(url, { ...init, dispatcher: ward.agent })) as never;
      const config = await client.discovery(new URL(ward.url), 'spa', undefined, client.None(), {
        [client.customFetch]: tlsFetch,
      });
      config[client.customFetch] = tlsFetch;
      const keyPair = await client.randomDPoPKeyPair('ES256');
      const DPoP = client.getDPoPHandle(config, keyPair);
      const jkt = await calculateJwkThumbprint(await exportJWK(keyPair.publicKey));
      const verifier = client.randomPKCECodeVerifier();
      const state = client.randomState();
      const url = client.buildAuthorizationUrl(config, {
        redirect_uri: CB,
        scope: OFFLINE,
        state,
        code_challenge: await client.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
      });
      const browser = new Browser(ward);
      const page = await browser.get(url.toString());
      assert.equal(page.status, 200);
      const posted = await submitLoginPage(browser, await page.text(), user.email, user.password);
      assert.equal(posted.status, 303);
      const tokens = await client.authorizationCodeGrant(
        config,
        location(posted),
        { pkceCodeVerifier: verifier, expectedState: state },
        undefined,
        { DPoP },
      );
      assert.equal(tokens.token_type.toLowerCase(), 'dpop');
      const info = await client.fetchUserInfo(config, tokens.access_token, user.id, { DPoP });
      assert.equal(info.sub, user.id);
      const seen = await introspect(tokens.access_token);
      assert.equal(seen.active, true);
      assert.equal(seen.token_type, 'DPoP');
      assert.deepEqual(seen.cnf, { jkt });
      // The refresh token is bound to the key: another key's proof, or none, is refused and leaves it usable.
      const other = client.getDPoPHandle(config, await client.randomDPoPKeyPair('ES256'));
      await assert.rejects(client.refreshTokenGrant(config, tokens.refresh_token!, undefined, { DPoP: other }), (e) => {
        assert.equal((e as { error?: string }).error, 'invalid_grant');
        return true;
      });
      await assert.rejects(client.refreshTokenGrant(config, tokens.refresh_token!), (e) => {
        assert.equal((e as { error?: string }).error, 'invalid_dpop_proof');
        return true;
      });
      const refreshed = await client.refreshTokenGrant(config, tokens.refresh_token!, undefined, { DPoP });
      assert.equal(refreshed.token_type.toLowerCase(), 'dpop');
      assert.equal((await client.fetchUserInfo(config, refreshed.access_token, user.id, { DPoP })).sub, user.id);
    });

    it('answers the nonce challenge when nonces are required, which openid-client follows by itself', async () => {
      ward.setAccount({ dpop_nonce_required: true });
      const key = await proofKey();
      const flow = await codeFor(ward, { scope: OFFLINE });
      const form = {
        grant_type: 'authorization_code',
        code: flow.code,
        client_id: 'spa',
        redirect_uri: CB,
        code_verifier: flow.verifier,
      };
      const first = await tokenRequest(ward, form, dpopHeaders(await makeProof(key, { htm: 'POST', htu: tokenUrl })));
      const nonce = first.headers.get('dpop-nonce');
      await expectError(first, 400, 'use_dpop_nonce');
      assert.match(nonce ?? '', /^[A-Za-z0-9_-]{16,}$/);
      // A made-up nonce is refused the same way.
      const made = await makeProof(key, { htm: 'POST', htu: tokenUrl, nonce: 'x'.repeat(32) });
      await expectError(await tokenRequest(ward, form, dpopHeaders(made)), 400, 'use_dpop_nonce');
      // The proof is checked before the grant: the code is still good.
      const good = await makeProof(key, { htm: 'POST', htu: tokenUrl, nonce: nonce! });
      const res = await tokenRequest(ward, form, dpopHeaders(good));
      const tokens = (await res.json()) as Record<string, string>;
      assert.equal(res.status, 200, JSON.stringify(tokens));
      assert.equal(tokens.token_type, 'DPoP');
      // At userinfo: 401 with a DPoP challenge naming use_dpop_nonce, and the nonce.
      const ath = athOf(tokens.access_token!);
      const bare = await userinfo(
        'DPoP',
        tokens.access_token!,
        await makeProof(key, { htm: 'GET', htu: userinfoUrl, ath }),
      );
      await expectError(bare, 401, 'use_dpop_nonce');
      assert.match(bare.headers.get('www-authenticate') ?? '', /^DPoP error="use_dpop_nonce", algs="[A-Za-z0-9 ]+"$/);
      const fresh = bare.headers.get('dpop-nonce')!;
      const ok = await userinfo(
        'DPoP',
        tokens.access_token!,
        await makeProof(key, { htm: 'GET', htu: userinfoUrl, ath, nonce: fresh }),
      );
      assert.equal(ok.status, 200);

      // openid-client: the first proof has no nonce; it retries with the DPoP-Nonce it was given.
      const user = await signup(ward);
      const tlsFetch = ((url: string, init: object) => undiciFetch(url, { ...init, dispatcher: ward.agent })) as never;
      const config = await client.discovery(new URL(ward.url), 'spa', undefined, client.None(), {
        [client.customFetch]: tlsFetch,
      });
      config[client.customFetch] = tlsFetch;
      const DPoP = client.getDPoPHandle(config, await client.randomDPoPKeyPair('EdDSA'));
      const verifier = client.randomPKCECodeVerifier();
      const url = client.buildAuthorizationUrl(config, {
        redirect_uri: CB,
        scope: 'openid',
        state: 's1',
        code_challenge: await client.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
      });
      const browser = new Browser(ward);
      const page = await browser.get(url.toString());
      const posted = await submitLoginPage(browser, await page.text(), user.email, user.password);
      const got = await client.authorizationCodeGrant(
        config,
        location(posted),
        { pkceCodeVerifier: verifier, expectedState: 's1' },
        undefined,
        { DPoP },
      );
      assert.equal(got.token_type.toLowerCase(), 'dpop');
      assert.equal((await client.fetchUserInfo(config, got.access_token, user.id, { DPoP })).sub, user.id);
    });

    it('refuses a replayed proof, another method or URL, a symmetric, private or foreign key, an old iat', async () => {
      const key = await proofKey();
      const flow = await codeFor(ward, { scope: OFFLINE });
      const form = {
        grant_type: 'authorization_code',
        code: flow.code,
        client_id: 'spa',
        redirect_uri: CB,
        code_verifier: flow.verifier,
      };
      const refusedWith = async (proof: string, why: string) => {
        const body = await expectError(await tokenRequest(ward, form, dpopHeaders(proof)), 400, 'invalid_dpop_proof');
        assert.ok(String(body.error_description).length > 0, why);
      };
      const now = Math.floor(Date.now() / 1000);
      const other = await proofKey();
      const withPrivate = await exportJWK(key.privateKey);
      const cases: [string, string][] = [
        [await makeProof(key, { htm: 'GET', htu: tokenUrl }), 'another method'],
        [await makeProof(key, { htm: 'POST', htu: `${ward.issuer}/oauth/revoke` }), 'another URL'],
        [await makeProof(key, { htm: 'POST', htu: 'https://evil.example/oauth/token' }), 'another host'],
        [await makeProof(key, { htm: 'POST', htu: tokenUrl }, { jwk: other.publicJwk }), 'signed by another key'],
        [await makeProof(key, { htm: 'POST', htu: tokenUrl }, { jwk: withPrivate }), 'a private key in jwk'],
        [await makeProof(key, { htm: 'POST', htu: tokenUrl }, { typ: 'JWT' }), 'typ JWT'],
        [await makeProof(key, { htm: 'POST', htu: tokenUrl, iat: now - 3600 }), 'an hour old'],
        [await makeProof(key, { htm: 'POST', htu: tokenUrl, iat: now + 3600 }), 'an hour ahead'],
        [
          await new SignJWT({ jti: 'hs', htm: 'POST', htu: tokenUrl })
            .setProtectedHeader({ alg: 'HS256', typ: 'dpop+jwt', jwk: { kty: 'oct', k: 'c2VjcmV0' } } as never)
            .setIssuedAt()
            .sign(new TextEncoder().encode('secret-secret-secret-secret-32b!')),
          'HS256',
        ],
        ['not-a-jwt', 'not a JWT'],
      ];
      for (const [proof, why] of cases) await refusedWith(proof, why);
      // Two DPoP headers: refused.
      const twice = await ward.fetch('/oauth/token', {
        method: 'POST',
        headers: [
          ['content-type', 'application/x-www-form-urlencoded'],
          ['dpop', await makeProof(key, { htm: 'POST', htu: tokenUrl })],
          ['dpop', await makeProof(key, { htm: 'POST', htu: tokenUrl })],
        ],
        body: new URLSearchParams(form).toString(),
      });
      await expectError(twice, 400, 'invalid_dpop_proof');
      // A query in htu is left out of the comparison; the same proof again is a replay.
      const proof = await makeProof(key, { htm: 'POST', htu: `${tokenUrl}?x=1#f` });
      const res = await tokenRequest(ward, form, dpopHeaders(proof));
      assert.equal(res.status, 200, await res.text());
      const again = await tokenRequest(ward, form, dpopHeaders(proof));
      const body = await expectError(again, 400, 'invalid_dpop_proof');
      assert.match(String(body.error_description), /already used/);
    });

    it('binds the access token: userinfo wants the DPoP scheme, a proof by the key, and its ath', async () => {
      const key = await proofKey('RS256');
      const { tokens, user } = await boundTokens(key);
      assert.equal(tokens.token_type, 'DPoP');
      const at = tokens.access_token!;
      const ath = athOf(at);
      const ok = await userinfo('DPoP', at, await makeProof(key, { htm: 'GET', htu: userinfoUrl, ath }));
      assert.equal(ok.status, 200);
      assert.equal(((await ok.json()) as { sub: string }).sub, user.id);
      // As Bearer: refused, with a DPoP challenge (RFC 9449 7.2).
      const bearer = await userinfo('Bearer', at);
      await expectError(bearer, 401, 'invalid_token');
      assert.match(
        bearer.headers.get('www-authenticate') ?? '',
        /^DPoP error="invalid_token", algs="[^"]*ES256[^"]*"$/,
      );
      // No ath, a wrong ath, another key, another method, no proof at all: invalid_dpop_proof.
      const other = await proofKey();
      for (const [proof, why] of [
        [await makeProof(key, { htm: 'GET', htu: userinfoUrl }), 'no ath'],
        [await makeProof(key, { htm: 'GET', htu: userinfoUrl, ath: athOf('another') }), 'wrong ath'],
        [await makeProof(other, { htm: 'GET', htu: userinfoUrl, ath }), 'another key'],
        [await makeProof(key, { htm: 'POST', htu: userinfoUrl, ath }), 'another method'],
        [undefined, 'no proof'],
      ] as const) {
        const res = await userinfo('DPoP', at, proof);
        await expectError(res, 401, 'invalid_dpop_proof');
        assert.match(res.headers.get('www-authenticate') ?? '', /^DPoP error="invalid_dpop_proof", algs="/, why);
      }
      // A replayed resource proof.
      const once = await makeProof(key, { htm: 'GET', htu: userinfoUrl, ath });
      assert.equal((await userinfo('DPoP', at, once)).status, 200);
      await expectError(await userinfo('DPoP', at, once), 401, 'invalid_dpop_proof');
      // A Bearer token sent with the DPoP scheme is not taken for a bound one.
      const { tokens: unbound } = await boundTokensWithout();
      const res = await userinfo(
        'DPoP',
        unbound.access_token!,
        await makeProof(key, { htm: 'GET', htu: userinfoUrl, ath: athOf(unbound.access_token!) }),
      );
      await expectError(res, 401, 'invalid_token');
      // The Core SDK's other Bearer calls read the same check: the MFA factors list.
      const factors = await ward.fetch('/identity/v1/mfa/credentials', {
        headers: {
          authorization: `DPoP ${at}`,
          dpop: await makeProof(key, { htm: 'GET', htu: `${ward.issuer}/identity/v1/mfa/credentials`, ath }),
        },
      });
      assert.equal(factors.status, 200, await factors.text());
    });

    it("keeps a confidential client's refresh token unbound, and binds each access token to the request's key", async () => {
      const flow = await codeFor(ward, { clientId: 'backend', redirectUri: API_CB, scope: OFFLINE });
      const auth = { authorization: basic('backend', CONFIDENTIAL_SECRET) };
      const key = await proofKey();
      const first = await tokenRequest(
        ward,
        { grant_type: 'authorization_code', code: flow.code, redirect_uri: API_CB, code_verifier: flow.verifier },
        { ...auth, ...dpopHeaders(await makeProof(key, { htm: 'POST', htu: tokenUrl })) },
      );
      const tokens = (await first.json()) as Record<string, string>;
      assert.equal(tokens.token_type, 'DPoP');
      // RFC 9449 5: the client authenticates; a refresh with another key binds the new token to that key.
      const other = await proofKey('ES384');
      const next = await tokenRequest(
        ward,
        { grant_type: 'refresh_token', refresh_token: tokens.refresh_token! },
        { ...auth, ...dpopHeaders(await makeProof(other, { htm: 'POST', htu: tokenUrl })) },
      );
      const rotated = (await next.json()) as Record<string, string>;
      assert.equal(next.status, 200, JSON.stringify(rotated));
      assert.equal(rotated.token_type, 'DPoP');
      assert.deepEqual((await introspect(rotated.access_token!)).cnf, { jkt: other.jkt });
      // Without a proof: a Bearer token, which introspection tells as such.
      const bearer = await tokenRequest(
        ward,
        { grant_type: 'refresh_token', refresh_token: rotated.refresh_token! },
        auth,
      );
      const plain = (await bearer.json()) as Record<string, string>;
      assert.equal(plain.token_type, 'Bearer');
      const seen = await introspect(plain.access_token!);
      assert.equal(seen.token_type, 'Bearer');
      assert.equal(seen.cnf, undefined);
    });

    it('puts cnf.jkt in a JWT access token, which jose verifies from /jwks.json', async () => {
      const res = await tokenRequest(ward, {
        grant_type: 'client_credentials',
        client_id: 'ops',
        client_secret: OPS_SECRET,
      });
      const admin = api(ward, ((await res.json()) as { access_token: string }).access_token);
      const created = await admin.post('/api/v1/resources', {
        identifier: ORDERS,
        name: 'Orders',
        scopes: ['orders:read'],
      });
      assert.ok(created.status === 201 || created.status === 409, String(created.status));
      const key = await proofKey('PS256');
      const { tokens } = await boundTokens(key, 'openid orders:read offline_access', { resource: ORDERS });
      assert.equal(tokens.token_type, 'DPoP');
      const jwks = createRemoteJWKSet(new URL('/jwks.json', ward.url), {
        [customFetch]: (url, init) => undiciFetch(url, { ...(init as object), dispatcher: ward.agent }) as never,
      });
      const { payload } = await jwtVerify(tokens.access_token!, jwks, {
        issuer: ward.issuer,
        audience: ORDERS,
        typ: 'at+jwt',
        currentDate: new Date(ward.clock.now()),
      });
      assert.deepEqual(payload.cnf, { jkt: key.jkt });
      const seen = await introspect(tokens.access_token!);
      assert.equal(seen.token_type, 'DPoP');
      assert.deepEqual(seen.cnf, { jkt: key.jkt });
      // The refresh keeps both the audience and the binding.
      const next = await refreshWith(tokens.refresh_token!, await makeProof(key, { htm: 'POST', htu: tokenUrl }));
      const rotated = (await next.json()) as Record<string, string>;
      assert.equal(next.status, 200, JSON.stringify(rotated));
      const again = await jwtVerify(rotated.access_token!, jwks, {
        audience: ORDERS,
        currentDate: new Date(ward.clock.now()),
      });
      assert.deepEqual(again.payload.cnf, { jkt: key.jkt });
    });
  });
}
