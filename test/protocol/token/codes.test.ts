// Authorization codes at POST /oauth/token: TK-01 (happy path, form and JSON, both client kinds),
// TK-02 (reuse revokes the first redemption's tokens), TK-03 (foreign client), TK-04 (redirect_uri
// binding), TK-05 (code TTL on the fake clock), TK-08 (made-up, truncated, foreign and tampered
// codes: invalid_grant with one constant error shape).
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { decodeJwt } from 'jose';
import {
  CONFIDENTIAL_CLIENT,
  CONFIDENTIAL_SECRET,
  PUBLIC_CLIENT,
  codeFor,
  redeem,
  tokenRequest,
} from '../../helpers/oauth.js';
import { startWard, type TestWard } from '../../helpers/ward.js';
import {
  basic,
  redeemRaw,
  expectError,
  expectTokens,
  offlineTokens,
  refresh,
  shape,
  userinfoStatus,
  type Body,
  NO_LIMITS,
} from './support.js';

const OTHER_PUBLIC = { ...PUBLIC_CLIENT, client_id: 'spa-two', name: 'Another SPA' };

describe('authorization codes at the token endpoint', () => {
  let ward: TestWard;
  before(async () => {
    ward = await startWard({ account: NO_LIMITS, clients: [PUBLIC_CLIENT, OTHER_PUBLIC, CONFIDENTIAL_CLIENT] });
  });
  after(() => ward.close());

  describe('TK-01 happy path', () => {
    it('redeems a public client code sent as a form: no-store, Bearer, expires_in, scope, id_token', async () => {
      const { code, verifier, user } = await codeFor(ward, { nonce: 'n-1' });
      const res = await tokenRequest(ward, {
        grant_type: 'authorization_code',
        code,
        redirect_uri: 'https://app.example/cb',
        client_id: 'spa',
        code_verifier: verifier,
      });
      const body = await expectTokens(res);
      assert.equal(res.headers.get('pragma'), 'no-cache');
      assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
      assert.equal(body.expires_in, 3600 as unknown as string);
      assert.equal(body.scope, 'openid profile email');
      assert.equal(body.refresh_token, undefined);
      const claims = decodeJwt(body.id_token!);
      assert.equal(claims.sub, user.id);
      assert.equal(claims.aud, 'spa');
      assert.equal(claims.nonce, 'n-1');
      assert.equal(await userinfoStatus(ward, body.access_token!), 200);
    });

    it('redeems a code sent as JSON the way the Core SDK does', async () => {
      const { code, verifier } = await codeFor(ward);
      const res = await ward.fetch('/oauth/token', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          client_id: 'spa',
          grant_type: 'authorization_code',
          code,
          redirect_uri: 'https://app.example/cb',
          code_verifier: verifier,
        }),
      });
      const body = await expectTokens(res);
      assert.ok(body.id_token);
    });

    it('redeems a confidential client code with client_secret_post, and with code_verifier JSON null', async () => {
      const a = await codeFor(ward, { clientId: 'backend', redirectUri: 'https://api.example/cb', pkce: false });
      await expectTokens(
        await tokenRequest(ward, {
          grant_type: 'authorization_code',
          code: a.code,
          redirect_uri: 'https://api.example/cb',
          client_id: 'backend',
          client_secret: CONFIDENTIAL_SECRET,
        }),
      );
      const b = await codeFor(ward, { clientId: 'backend', redirectUri: 'https://api.example/cb', pkce: false });
      const res = await ward.fetch('/oauth/token', {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: basic('backend', CONFIDENTIAL_SECRET) },
        body: JSON.stringify({
          grant_type: 'authorization_code',
          code: b.code,
          redirect_uri: 'https://api.example/cb',
          code_verifier: null,
        }),
      });
      await expectTokens(res);
    });
  });

  describe('TK-02 code reuse', () => {
    it("refuses a second redemption and revokes the first one's access token", async () => {
      const { code, verifier } = await codeFor(ward);
      const first = await redeem(ward, code, verifier);
      assert.equal(first.res.status, 200);
      assert.equal(await userinfoStatus(ward, first.body.access_token!), 200);
      await expectError(await redeemRaw(ward, code, verifier), 400, 'invalid_grant');
      assert.equal(await userinfoStatus(ward, first.body.access_token!), 401);
    });

    it('after 30 seconds too, and the refresh token of the first redemption dies with it', async () => {
      const { code, verifier, tokens } = await offlineTokens(ward);
      ward.clock.advance(30_000);
      await expectError(await redeemRaw(ward, code, verifier), 400, 'invalid_grant');
      assert.equal(await userinfoStatus(ward, tokens.access_token!), 401);
      await expectError(await refresh(ward, tokens.refresh_token!), 400, 'invalid_grant');
    });

    it('a refresh token rotated before the reuse dies too (the whole grant is revoked)', async () => {
      const { code, verifier, tokens } = await offlineTokens(ward);
      const rotated = await expectTokens(await refresh(ward, tokens.refresh_token!));
      await expectError(await redeemRaw(ward, code, verifier), 400, 'invalid_grant');
      assert.equal(await userinfoStatus(ward, rotated.access_token!), 401);
      await expectError(await refresh(ward, rotated.refresh_token!), 400, 'invalid_grant');
    });
  });

  describe('TK-03 code bound to its client', () => {
    it('refuses the code of spa redeemed by another public client', async () => {
      const { code, verifier } = await codeFor(ward);
      await expectError(await redeemRaw(ward, code, verifier, 'spa-two'), 400, 'invalid_grant');
    });

    it('refuses the code of spa redeemed by an authenticated confidential client', async () => {
      const { code, verifier } = await codeFor(ward);
      const res = await tokenRequest(
        ward,
        { grant_type: 'authorization_code', code, redirect_uri: 'https://app.example/cb', code_verifier: verifier },
        { authorization: basic('backend', CONFIDENTIAL_SECRET) },
      );
      await expectError(res, 400, 'invalid_grant');
    });

    it('refuses the code of backend redeemed by a public client naming itself backend (no secret)', async () => {
      const { code } = await codeFor(ward, { clientId: 'backend', redirectUri: 'https://api.example/cb', pkce: false });
      const res = await tokenRequest(ward, {
        grant_type: 'authorization_code',
        code,
        redirect_uri: 'https://api.example/cb',
        client_id: 'backend',
      });
      await expectError(res, 401, 'invalid_client');
    });
  });

  describe('TK-04 redirect_uri binding', () => {
    const variants: Array<[string, string | undefined]> = [
      ['a trailing slash', 'https://app.example/cb/'],
      ['another registered URI', 'https://app.example/other'],
      ['a different case', 'https://APP.example/cb'],
      ['an added query', 'https://app.example/cb?x=1'],
      ['an empty value', ''],
      ['no redirect_uri', undefined],
    ];
    for (const [name, uri] of variants) {
      it(`refuses ${name}`, async () => {
        const { code, verifier } = await codeFor(ward);
        const form: Record<string, string> = {
          grant_type: 'authorization_code',
          code,
          client_id: 'spa',
          code_verifier: verifier,
        };
        if (uri !== undefined) form.redirect_uri = uri;
        await expectError(await tokenRequest(ward, form), 400, 'invalid_grant');
      });
    }
  });

  describe('TK-05 code lifetime (at most 60 s)', () => {
    it('accepts a code 59 s old', async () => {
      const { code, verifier } = await codeFor(ward);
      ward.clock.advance(59_000);
      await expectTokens(await redeemRaw(ward, code, verifier));
    });

    it('refuses a code 61 s old, and one 10 min + 1 s old', async () => {
      for (const age of [61_000, 600_001]) {
        const { code, verifier } = await codeFor(ward);
        ward.clock.advance(age);
        await expectError(await redeemRaw(ward, code, verifier), 400, 'invalid_grant');
      }
    });
  });

  describe('TK-08 codes that were never issued here', () => {
    it('refuses made-up, truncated, tampered and foreign codes with one error shape, not burning the real code', async () => {
      const { code, verifier } = await codeFor(ward);
      const flip = (c: string) => c.slice(0, -1) + (c.endsWith('A') ? 'B' : 'A');
      const other = await startWard({ account: NO_LIMITS, clients: [PUBLIC_CLIENT] });
      let foreign: { code: string; verifier: string };
      try {
        foreign = await codeFor(other);
      } finally {
        await other.close();
      }
      const bodies: Body[] = [];
      for (const attempt of [
        randomBytes(32).toString('base64url'),
        code.slice(0, -1),
        code.slice(0, 20),
        flip(code),
        `${code}A`,
        code.toUpperCase(),
        foreign.code,
      ]) {
        const v = attempt === foreign.code ? foreign.verifier : verifier;
        bodies.push(await expectError(await redeemRaw(ward, attempt, v), 400, 'invalid_grant'));
      }
      // A code of another client and an expired code answer exactly like an unknown one.
      const forOther = await codeFor(ward);
      bodies.push(
        await expectError(await redeemRaw(ward, forOther.code, forOther.verifier, 'spa-two'), 400, 'invalid_grant'),
      );
      const expired = await codeFor(ward);
      ward.clock.advance(61_000);
      bodies.push(await expectError(await redeemRaw(ward, expired.code, expired.verifier), 400, 'invalid_grant'));
      for (const b of bodies) assert.deepEqual(shape(b), shape(bodies[0]!));
      // None of the near misses matched the real code, which is still good (had it not expired).
      const fresh = await codeFor(ward);
      for (const near of [fresh.code.slice(0, -1), flip(fresh.code)])
        await expectError(await redeemRaw(ward, near, fresh.verifier), 400, 'invalid_grant');
      await expectTokens(await redeemRaw(ward, fresh.code, fresh.verifier));
    });
  });
});
