// DPoP (RFC 9449) refusals, with proofs made by hand (jose), each with the RFC's error code: a replayed
// jti, another method or URL, a proof by another key, a symmetric or private key, an old iat, two DPoP
// headers; at userinfo and the identity API a bound token sent as Bearer, a missing or wrong ath, another
// key. A confidential client's refresh token stays unbound (RFC 9449 5); a JWT access token carries
// cnf.jkt, which jose verifies. SQLite, and PostgreSQL when configured.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { createRemoteJWKSet, customFetch, exportJWK, jwtVerify, SignJWT } from 'jose';
import { fetch as undiciFetch } from 'undici';
import { engines } from '../helpers/databases.js';
import { athOf, makeProof, proofKey } from '../helpers/dpop.js';
import { api } from '../helpers/management.js';
import { CONFIDENTIAL_SECRET, codeFor, tokenRequest } from '../helpers/oauth.js';
import type { TestWard } from '../helpers/ward.js';
import { OFFLINE, basic, expectError } from './token/support.js';
import { API_CB, CB, OPS_SECRET, ORDERS, atRealTime, dpopCalls, startDpopWard } from './dpop-support.js';

for (const engine of engines()) {
  describe(`DPoP refusals and bindings (${engine})`, () => {
    let ward: TestWard;
    let tokenUrl: string;
    let userinfoUrl: string;
    before(async () => {
      ward = await startDpopWard(engine);
      tokenUrl = `${ward.issuer}/oauth/token`;
      userinfoUrl = `${ward.issuer}/identity/v1/userinfo`;
    });
    after(() => ward.close());
    beforeEach(() => atRealTime(ward));
    const { dpopHeaders, boundTokens, boundTokensWithout, userinfo, introspect, refreshWith } = dpopCalls(() => ward);

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
      assert.ok(
        ward.logs.some((l) => l.includes('"event":"dpop.proof_replayed"') && l.includes(key.jkt)),
        'audited',
      );
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

    it("binds a management client's client_credentials token, which the management API checks the same way", async () => {
      const key = await proofKey();
      const form = { grant_type: 'client_credentials', client_id: 'ops', client_secret: OPS_SECRET };
      const res = await tokenRequest(ward, form, dpopHeaders(await makeProof(key, { htm: 'POST', htu: tokenUrl })));
      const { access_token: at, token_type } = (await res.json()) as Record<string, string>;
      assert.equal(token_type, 'DPoP');
      const url = `${ward.issuer}/api/v1/clients`;
      const ok = await ward.fetch('/api/v1/clients', {
        headers: { authorization: `DPoP ${at}`, dpop: await makeProof(key, { htm: 'GET', htu: url, ath: athOf(at!) }) },
      });
      assert.equal(ok.status, 200, await ok.text());
      const bearer = await ward.fetch('/api/v1/clients', { headers: { authorization: `Bearer ${at}` } });
      assert.equal(bearer.status, 401);
      assert.match(bearer.headers.get('www-authenticate') ?? '', /^DPoP error="invalid_token"/);
      await bearer.body?.cancel();
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
