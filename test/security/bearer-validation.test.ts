// Bearer validation at GET/POST /identity/v1/userinfo: SV-07 (token-type confusion, both ways),
// SV-08 (aud, iss, exp, nbf: even JWTs signed with Ward's own key are refused; the opaque token
// expires on the FakeClock), SV-10 (revoked after code reuse, revoked at /oauth/revoke, logged-out
// session, disabled user), and the Authorization header grammar (RFC 6750 2.1, 3.1).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { SignJWT } from 'jose';
import { GLOBAL_SET } from '../../src/keys/key-store.js';
import {
  CONFIDENTIAL_SECRET,
  authorizeUrl,
  location,
  pkcePair,
  redeem,
  signup,
  passwordLogin,
  tokenRequest,
} from '../helpers/oauth.js';
import type { TestWard } from '../helpers/ward.js';
import { DPOP_ALGORITHMS } from '../../src/protocol/dpop/proof.js';
import {
  SSO,
  assertAccepted,
  assertRefused,
  basic,
  issueBackendTokens,
  issueSpaTokens,
  startSecurityWard,
  userinfo,
} from './support.js';

const NO_CREDENTIALS = 'Bearer realm="ward"';

describe('bearer validation', () => {
  let ward: TestWard;
  before(async () => {
    ward = await startSecurityWard();
  });
  after(() => ward.close());

  it('SV-07: no other kind of token or secret is an access token', async () => {
    const spa = await issueSpaTokens(ward, 'openid profile email offline_access');
    const backend = await issueBackendTokens(ward);
    const fresh = await signup(ward);
    const tkn = await passwordLogin(ward, fresh.email, fresh.password);
    const pkce = pkcePair();
    const loc = location(
      await ward.fetch(
        authorizeUrl({
          client_id: 'spa',
          response_type: 'code',
          redirect_uri: 'https://app.example/cb',
          scope: 'openid',
          code_challenge: pkce.challenge,
          code_challenge_method: 'S256',
          tkn: fresh.tkn,
        }),
      ),
    );
    const unusedCode = loc.searchParams.get('code')!;
    const sso = (await spa.browser.cookieValue(SSO))!;
    assert.ok(spa.refresh_token && unusedCode && sso);
    for (const [what, value] of [
      ['RS256 id_token', spa.id_token],
      ['HS256 id_token', backend.id_token],
      ['refresh token', spa.refresh_token],
      ['unused tkn', tkn],
      ['unused authorization code', unusedCode],
      ['redeemed authorization code', spa.code],
      ['PKCE code_verifier', spa.verifier],
      ['SSO cookie value', sso],
      ['client secret', CONFIDENTIAL_SECRET],
    ] as const) {
      await assertRefused(await userinfo(ward, `Bearer ${value}`), what);
    }
    // ...and an access token is nothing else: not a tkn, not a refresh token, not a code.
    const asTkn = await ward.fetch(
      authorizeUrl({
        client_id: 'spa',
        response_type: 'code',
        redirect_uri: 'https://app.example/cb',
        scope: 'openid',
        state: 's7',
        code_challenge: pkce.challenge,
        code_challenge_method: 'S256',
        tkn: spa.access_token,
      }),
    );
    assert.equal(asTkn.status, 302);
    assert.equal(location(asTkn).searchParams.get('error'), 'access_denied');
    assert.equal(location(asTkn).searchParams.get('code'), null);
    const asRefresh = await tokenRequest(ward, {
      grant_type: 'refresh_token',
      client_id: 'spa',
      refresh_token: spa.access_token,
    });
    assert.equal(asRefresh.status, 400);
    assert.equal(((await asRefresh.json()) as { error: string }).error, 'invalid_grant');
    const asCode = await redeem(ward, spa.access_token, pkce.verifier);
    assert.equal(asCode.res.status, 400);
    assert.equal(asCode.body.error, 'invalid_grant');
    const idAsRefresh = await tokenRequest(ward, {
      grant_type: 'refresh_token',
      client_id: 'spa',
      refresh_token: spa.id_token,
    });
    assert.equal(idAsRefresh.status, 400);
    // The real tokens still work: nothing above was refused by accident.
    await assertAccepted(ward, spa.access_token, spa.user.id);
    await assertAccepted(ward, backend.access_token, backend.user.id);
  });

  it("SV-08: JWTs signed with Ward's own current key are refused, whatever aud, iss, exp and nbf say", async () => {
    const spa = await issueSpaTokens(ward);
    const { kid, key } = ward.registry.keys.current(GLOBAL_SET);
    const now = Math.floor(ward.clock.now() / 1000);
    const good = {
      iss: ward.url,
      sub: spa.user.id,
      aud: [ward.url, 'spa'],
      client_id: 'spa',
      scope: 'openid profile email',
      iat: now,
      exp: now + 600,
    };
    const variants: Array<[string, Record<string, unknown>, string?]> = [
      ['every claim right', good],
      ['every claim right, typ at+jwt', good, 'at+jwt'],
      ['aud of another client', { ...good, aud: 'backend' }],
      ['aud of another service', { ...good, aud: 'https://api.other.example' }],
      ['iss of another environment', { ...good, iss: 'https://staging.ward.example' }],
      ['expired beyond any skew', { ...good, iat: now - 7200, exp: now - 3600 }],
      ['expired one second ago', { ...good, exp: now - 1 }],
      ['nbf in the future', { ...good, nbf: now + 3600 }],
      ['no exp', { ...good, exp: undefined }],
    ];
    for (const [what, payload, typ] of variants) {
      const clean = Object.fromEntries(Object.entries(payload).filter(([, v]) => v !== undefined));
      const token = await new SignJWT(clean).setProtectedHeader({ alg: 'RS256', kid, typ: typ ?? 'JWT' }).sign(key);
      await assertRefused(await userinfo(ward, `Bearer ${token}`), what);
    }
    await assertAccepted(ward, spa.access_token, spa.user.id);
  });

  it('SV-10: an access token dies with its grant when its code is redeemed twice', async () => {
    const spa = await issueSpaTokens(ward);
    await assertAccepted(ward, spa.access_token, spa.user.id);
    const again = await redeem(ward, spa.code, spa.verifier);
    assert.equal(again.res.status, 400);
    assert.equal(again.body.error, 'invalid_grant');
    assert.equal(again.body.access_token, undefined);
    await assertRefused(await userinfo(ward, `Bearer ${spa.access_token}`), 'token of a reused code');
  });

  it('SV-10: a token revoked at /oauth/revoke is refused', async () => {
    const spa = await issueSpaTokens(ward);
    await assertAccepted(ward, spa.access_token, spa.user.id);
    const res = await ward.fetch('/oauth/revoke', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ client_id: 'spa', token: spa.access_token }).toString(),
    });
    assert.equal(res.status, 200);
    assert.deepEqual(await res.json(), {});
    await assertRefused(await userinfo(ward, `Bearer ${spa.access_token}`), 'revoked token');
  });

  it('SV-10: logout revokes the access and refresh tokens issued inside the session', async () => {
    const spa = await issueSpaTokens(ward, 'openid profile email offline_access');
    const other = await issueSpaTokens(ward);
    await assertAccepted(ward, spa.access_token, spa.user.id);
    const out = await spa.browser.get('/identity/v1/logout');
    assert.equal(out.status, 200);
    await assertRefused(await userinfo(ward, `Bearer ${spa.access_token}`), 'token of a logged-out session');
    const refresh = await tokenRequest(ward, {
      grant_type: 'refresh_token',
      client_id: 'spa',
      refresh_token: spa.refresh_token!,
    });
    assert.equal(refresh.status, 400);
    assert.equal(((await refresh.json()) as { error: string }).error, 'invalid_grant');
    // Another user's session is untouched.
    await assertAccepted(ward, other.access_token, other.user.id);
  });

  it('SV-10: a disabled user’s tokens are refused at once', async () => {
    const spa = await issueSpaTokens(ward);
    const backend = await issueBackendTokens(ward);
    await ward.registry.storage.users.setDisabled(spa.user.id, true, ward.clock.now());
    await assertRefused(await userinfo(ward, `Bearer ${spa.access_token}`), 'disabled user, GET');
    await assertRefused(
      await ward.fetch('/identity/v1/userinfo', {
        method: 'POST',
        headers: { authorization: `Bearer ${spa.access_token}` },
      }),
      'disabled user, POST',
    );
    await assertAccepted(ward, backend.access_token, backend.user.id);
    // And the disabled user cannot get new credentials either.
    const login = await ward.fetch('/identity/v1/password/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ client_id: 'spa', scope: 'openid', email: spa.user.email, password: spa.user.password }),
    });
    assert.equal(login.status, 400);
  });

  it('parses the Authorization header strictly (RFC 6750 2.1) and challenges without an error when no credentials came (3.1)', async () => {
    const spa = await issueSpaTokens(ward);
    const at = spa.access_token;
    await assertRefused(await userinfo(ward), 'no Authorization header', NO_CREDENTIALS);
    await assertRefused(
      await userinfo(ward, basic('backend', CONFIDENTIAL_SECRET)),
      'Basic credentials',
      NO_CREDENTIALS,
    );
    await assertRefused(
      await ward.fetch(`/identity/v1/userinfo?access_token=${at}`),
      'token in the query',
      NO_CREDENTIALS,
    );
    for (const [what, header] of [
      ['scheme only', 'Bearer'],
      ['empty token', 'Bearer '],
      ['two tokens', `Bearer ${at} ${at}`],
      ['token list', `Bearer ${at},${at}`],
      ['missing space', `Bearer${at}`],
      ['quoted token', `Bearer "${at}"`],
      ['5000 characters', `Bearer ${'a'.repeat(5000)}`],
      ['another scheme named like Bearer', `Bearerx ${at}`],
      ['another scheme named like DPoP', `DPoPx ${at}`],
    ] as const) {
      await assertRefused(
        await userinfo(ward, header),
        what,
        header.startsWith('Bearer ') || header === 'Bearer' ? undefined : NO_CREDENTIALS,
      );
    }
    // The DPoP scheme (RFC 9449 7.1) with a token not bound to a key: the same refusal, a DPoP challenge.
    await assertRefused(
      await userinfo(ward, `DPoP ${at}`),
      'a Bearer token with the DPoP scheme',
      `DPoP error="invalid_token", algs="${DPOP_ALGORITHMS.join(' ')}"`,
    );
    // The scheme is case-insensitive (RFC 7235 2.1).
    const lower = await userinfo(ward, `bearer ${at}`);
    assert.equal(lower.status, 200);
    await lower.body?.cancel();
  });
});

describe('SV-08: the opaque access token expires on time', () => {
  let ward: TestWard;
  before(async () => {
    ward = await startSecurityWard({ account: { access_token_ttl: 300 } });
  });
  after(() => ward.close());

  it('works until expires_in, and is refused from that instant', async () => {
    const spa = await issueSpaTokens(ward);
    ward.clock.advance(300_000 - 1);
    await assertAccepted(ward, spa.access_token, spa.user.id);
    ward.clock.advance(1);
    await assertRefused(await userinfo(ward, `Bearer ${spa.access_token}`), 'expired access token');
  });
});
