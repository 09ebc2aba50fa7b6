// The code flow end to end over TLS: TK-01 happy path, IDT-01/02/03/10, userinfo IDT-11.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createLocalJWKSet, createRemoteJWKSet, customFetch, decodeJwt, decodeProtectedHeader, jwtVerify } from 'jose';
import {
  CONFIDENTIAL_CLIENT,
  CONFIDENTIAL_SECRET,
  PUBLIC_CLIENT,
  codeFor,
  redeem,
  tokenRequest,
} from '../helpers/oauth.js';
import { startWard, type TestWard } from '../helpers/ward.js';

describe('code flow', () => {
  let ward: TestWard;
  before(async () => {
    ward = await startWard({ clients: [PUBLIC_CLIENT, CONFIDENTIAL_CLIENT] });
  });
  after(() => ward.close());

  it('issues a code with state and iss, redeemed once for an RS256 id_token verifiable through the JWKS', async () => {
    const { code, verifier, user, location } = await codeFor(ward, { nonce: 'n-0S6_WzA2Mj' });
    assert.equal(location.origin + location.pathname, 'https://app.example/cb');
    assert.equal(location.searchParams.get('state'), 'st-1');
    assert.equal(location.searchParams.get('iss'), ward.url);
    const { res, body } = await redeem(ward, code, verifier);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('cache-control'), 'no-store');
    assert.equal(body.token_type, 'Bearer');
    assert.equal(body.expires_in, 3600 as unknown as string);
    assert.equal(body.refresh_token, undefined, 'no refresh token without offline_access');
    const header = decodeProtectedHeader(body.id_token!);
    assert.equal(header.alg, 'RS256');
    const jwks = (await (await ward.fetch('/jwks.json')).json()) as { keys: Array<{ kid: string }> };
    assert.ok(jwks.keys.some((k) => k.kid === header.kid));
    const { payload } = await jwtVerify(body.id_token!, createLocalJWKSet(jwks as never), {
      issuer: ward.url,
      audience: 'spa',
      algorithms: ['RS256'],
    });
    assert.equal(payload.sub, user.id);
    assert.equal(payload.nonce, 'n-0S6_WzA2Mj');
    assert.equal(payload.azp, 'spa');
    assert.equal(payload.email, user.email);
    assert.equal(payload.given_name, 'Ada');
    assert.deepEqual(payload.amr, ['pwd']);
    assert.ok(typeof payload.auth_time === 'number');
    assert.ok((payload.exp as number) > (payload.iat as number));
    // IDT-10: at_hash is the left half of SHA-256 of the access token.
    const { createHash } = await import('node:crypto');
    assert.equal(
      payload.at_hash,
      createHash('sha256').update(body.access_token!).digest().subarray(0, 16).toString('base64url'),
    );
    // IDT-11: userinfo with the same sub, no-store, Bearer required.
    const ui = await ward.fetch('/identity/v1/userinfo', { headers: { authorization: `Bearer ${body.access_token}` } });
    assert.equal(ui.status, 200);
    assert.equal(ui.headers.get('cache-control'), 'no-store');
    const info = (await ui.json()) as Record<string, unknown>;
    assert.equal(info.sub, payload.sub);
    assert.equal((await ward.fetch('/identity/v1/userinfo')).status, 401);
  });

  it('verifies the RS256 id_token with jose createRemoteJWKSet over TLS (IDT-02)', async () => {
    const { code, verifier } = await codeFor(ward);
    const { body } = await redeem(ward, code, verifier);
    const { fetch: uf } = await import('undici');
    const jwks = createRemoteJWKSet(new URL(`${ward.url}/jwks.json`), {
      [customFetch]: ((url: string, init: object) => uf(url, { ...init, dispatcher: ward.agent })) as never,
    });
    const { payload } = await jwtVerify(body.id_token!, jwks, {
      issuer: ward.url,
      audience: 'spa',
      algorithms: ['RS256'],
    });
    assert.ok(payload.sub);
  });

  it('signs HS256 id_tokens of a confidential client with its secret (IDT-03)', async () => {
    const { code } = await codeFor(ward, { clientId: 'backend', redirectUri: 'https://api.example/cb', pkce: false });
    const res = await tokenRequest(
      ward,
      { grant_type: 'authorization_code', code, redirect_uri: 'https://api.example/cb' },
      {
        authorization: `Basic ${Buffer.from(`backend:${encodeURIComponent(CONFIDENTIAL_SECRET)}`).toString('base64')}`,
      },
    );
    assert.equal(res.status, 200);
    const body = (await res.json()) as Record<string, string>;
    assert.equal(decodeProtectedHeader(body.id_token!).alg, 'HS256');
    const { payload } = await jwtVerify(body.id_token!, new TextEncoder().encode(CONFIDENTIAL_SECRET), {
      issuer: ward.url,
      audience: 'backend',
      algorithms: ['HS256'],
    });
    assert.equal(decodeJwt(body.id_token!).sub, payload.sub);
  });

  it('publishes discovery consistent with the issuer (MD-01, PK-10)', async () => {
    const res = await ward.fetch('/.well-known/openid-configuration');
    const d = (await res.json()) as Record<string, unknown>;
    assert.equal(d.issuer, ward.url);
    assert.deepEqual(d.code_challenge_methods_supported, ['S256']);
    assert.ok(!(d.id_token_signing_alg_values_supported as string[]).includes('none'));
    assert.ok((d.scopes_supported as string[]).includes('openid'));
    assert.equal(d.jwks_uri, `${ward.url}/jwks.json`);
  });
});
