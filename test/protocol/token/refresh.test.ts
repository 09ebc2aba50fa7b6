// Refresh tokens: RT-01 (rotation; reusing a rotated token revokes the whole family), RT-02 (bound
// to its client), RT-03 (absolute lifetime of the family on the fake clock), RT-04 (the scope may
// only narrow), RT-05 (logout revokes the grants of the session).
import assert from 'node:assert/strict';
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
  NO_LIMITS,
  OFFLINE,
  basic,
  expectError,
  expectTokens,
  offlineTokens,
  refresh,
  userinfoStatus,
} from './support.js';

const DAY = 86_400_000;

describe('refresh tokens', () => {
  let ward: TestWard;
  before(async () => {
    // A 10-day family lifetime, so RT-03 can cross it with the fake clock.
    ward = await startWard({
      account: { ...NO_LIMITS, refresh_token_ttl: 10 * 86_400 },
      clients: [PUBLIC_CLIENT, { ...PUBLIC_CLIENT, client_id: 'spa-two' }, CONFIDENTIAL_CLIENT],
    });
  });
  after(() => ward.close());

  it('issues a refresh token only with offline_access', async () => {
    const { code, verifier } = await codeFor(ward);
    const { body } = await redeem(ward, code, verifier);
    assert.equal(body.refresh_token, undefined);
    const { tokens } = await offlineTokens(ward);
    assert.match(tokens.refresh_token!, /^[A-Za-z0-9_-]{43}$/);
  });

  describe('RT-01 rotation and reuse detection', () => {
    it('rotates: each use returns a new refresh token, and the used one is dead', async () => {
      const { tokens, user } = await offlineTokens(ward);
      const a = await expectTokens(await refresh(ward, tokens.refresh_token!));
      assert.ok(a.refresh_token && a.refresh_token !== tokens.refresh_token);
      assert.equal(decodeJwt(a.id_token!).sub, user.id);
      assert.equal(await userinfoStatus(ward, a.access_token!), 200);
      const b = await expectTokens(await refresh(ward, a.refresh_token!));
      assert.ok(b.refresh_token && b.refresh_token !== a.refresh_token);
    });

    it('reusing a rotated token is invalid_grant and revokes the family: newest refresh and access tokens die', async () => {
      const { tokens } = await offlineTokens(ward);
      const a = await expectTokens(await refresh(ward, tokens.refresh_token!));
      const b = await expectTokens(await refresh(ward, a.refresh_token!));
      assert.equal(await userinfoStatus(ward, b.access_token!), 200);
      await expectError(await refresh(ward, tokens.refresh_token!), 400, 'invalid_grant');
      await expectError(await refresh(ward, b.refresh_token!), 400, 'invalid_grant');
      for (const at of [tokens.access_token!, a.access_token!, b.access_token!])
        assert.equal(await userinfoStatus(ward, at), 401);
      assert.ok(ward.logs.some((l) => l.includes('"event":"refresh_token.reused"')));
    });

    it('a reuse in another family leaves this one alone', async () => {
      const mine = await offlineTokens(ward);
      const theirs = await offlineTokens(ward);
      await expectTokens(await refresh(ward, theirs.tokens.refresh_token!));
      await expectError(await refresh(ward, theirs.tokens.refresh_token!), 400, 'invalid_grant');
      await expectTokens(await refresh(ward, mine.tokens.refresh_token!));
    });

    it('refuses made-up, truncated and access tokens as refresh tokens', async () => {
      const { tokens } = await offlineTokens(ward);
      for (const t of ['x'.repeat(43), tokens.refresh_token!.slice(0, -1), tokens.access_token!, tokens.id_token!])
        await expectError(await refresh(ward, t), 400, 'invalid_grant');
      // Longer than any token Ward issues (4096, as for a Bearer token): a malformed request.
      await expectError(await refresh(ward, 'x'.repeat(4097)), 400, 'invalid_request');
      // A missing parameter is invalid_request (RFC 6749 5.2).
      await expectError(
        await tokenRequest(ward, { grant_type: 'refresh_token', client_id: 'spa' }),
        400,
        'invalid_request',
      );
      await expectError(
        await tokenRequest(ward, { grant_type: 'refresh_token', client_id: 'spa', refresh_token: '' }),
        400,
        'invalid_request',
      );
      await expectTokens(await refresh(ward, tokens.refresh_token!));
    });
  });

  describe('RT-02 bound to the client', () => {
    it('refuses the refresh token of spa used by another public client and by an authenticated confidential client', async () => {
      const { tokens } = await offlineTokens(ward);
      await expectError(await refresh(ward, tokens.refresh_token!, {}, 'spa-two'), 400, 'invalid_grant');
      const res = await tokenRequest(
        ward,
        { grant_type: 'refresh_token', refresh_token: tokens.refresh_token! },
        { authorization: basic('backend', CONFIDENTIAL_SECRET) },
      );
      await expectError(res, 400, 'invalid_grant');
      await expectTokens(await refresh(ward, tokens.refresh_token!));
    });

    it('a confidential client must authenticate to refresh', async () => {
      const { code } = await codeFor(ward, {
        clientId: 'backend',
        redirectUri: 'https://api.example/cb',
        pkce: false,
        scope: OFFLINE,
      });
      const auth = { authorization: basic('backend', CONFIDENTIAL_SECRET) };
      const t = await expectTokens(
        await tokenRequest(
          ward,
          { grant_type: 'authorization_code', code, redirect_uri: 'https://api.example/cb' },
          auth,
        ),
      );
      await expectError(
        await tokenRequest(ward, {
          grant_type: 'refresh_token',
          refresh_token: t.refresh_token!,
          client_id: 'backend',
        }),
        401,
        'invalid_client',
      );
      await expectError(
        await tokenRequest(
          ward,
          { grant_type: 'refresh_token', refresh_token: t.refresh_token! },
          { authorization: basic('backend', 'wrong') },
        ),
        401,
        'invalid_client',
      );
      await expectTokens(
        await tokenRequest(ward, { grant_type: 'refresh_token', refresh_token: t.refresh_token! }, auth),
      );
    });
  });

  describe('RT-03 absolute lifetime', () => {
    it('a never-used refresh token dies at the family deadline', async () => {
      const early = await offlineTokens(ward);
      const late = await offlineTokens(ward);
      ward.clock.advance(10 * DAY - 1000);
      await expectTokens(await refresh(ward, early.tokens.refresh_token!));
      ward.clock.advance(1000);
      await expectError(await refresh(ward, late.tokens.refresh_token!), 400, 'invalid_grant');
    });

    it("rotation does not extend the family: the newest token dies at the first token's deadline", async () => {
      let { tokens } = await offlineTokens(ward);
      for (let day = 0; day < 9; day++) {
        ward.clock.advance(DAY + 3_600_000);
        tokens = await expectTokens(await refresh(ward, tokens.refresh_token!));
      }
      ward.clock.advance(DAY); // 10 days and 9 hours after the login
      await expectError(await refresh(ward, tokens.refresh_token!), 400, 'invalid_grant');
    });
  });

  describe('RT-04 scope', () => {
    it("refuses a wider scope with invalid_scope, as a string or as the SDK's JSON array", async () => {
      const { tokens } = await offlineTokens(ward);
      await expectError(
        await refresh(ward, tokens.refresh_token!, { scope: `${OFFLINE} phone` }),
        400,
        'invalid_scope',
      );
      await expectError(await refresh(ward, tokens.refresh_token!, { scope: 'openid admin' }), 400, 'invalid_scope');
      const res = await ward.fetch('/oauth/token', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          grant_type: 'refresh_token',
          refresh_token: tokens.refresh_token,
          client_id: 'spa',
          scope: ['openid', 'address'],
        }),
      });
      await expectError(res, 400, 'invalid_scope');
    });

    it("narrows the access token but keeps the grant's scope for the next refresh", async () => {
      const { tokens } = await offlineTokens(ward);
      const narrow = await expectTokens(
        await ward.fetch('/oauth/token', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            grant_type: 'refresh_token',
            refresh_token: tokens.refresh_token,
            client_id: 'spa',
            scope: ['openid', 'email'],
          }),
        }),
      );
      assert.equal(narrow.scope, 'openid email');
      const info = (await (
        await ward.fetch('/identity/v1/userinfo', { headers: { authorization: `Bearer ${narrow.access_token}` } })
      ).json()) as Record<string, unknown>;
      assert.equal(info.given_name, undefined, 'profile was not asked');
      const full = await expectTokens(await refresh(ward, narrow.refresh_token!));
      assert.deepEqual(full.scope!.split(' ').sort(), OFFLINE.split(' ').sort());
    });
  });

  describe('RT-05 logout', () => {
    it('logout with the session cookie revokes the refresh and access tokens of that session', async () => {
      const { tokens, browser } = await offlineTokens(ward);
      const other = await offlineTokens(ward); // another session: untouched
      const rotated = await expectTokens(await refresh(ward, tokens.refresh_token!));
      assert.ok(await browser.cookieValue('__Host-ward_sso'));
      const out = await browser.get('/identity/v1/logout');
      assert.equal(out.status, 200);
      await out.arrayBuffer();
      await expectError(await refresh(ward, rotated.refresh_token!), 400, 'invalid_grant');
      assert.equal(await userinfoStatus(ward, rotated.access_token!), 401);
      assert.equal(await userinfoStatus(ward, tokens.access_token!), 401);
      await expectTokens(await refresh(ward, other.tokens.refresh_token!));
    });

    it('a code issued in the session cannot be redeemed after logout', async () => {
      const { code, verifier, browser } = await codeFor(ward, { scope: OFFLINE });
      await (await browser.get('/identity/v1/logout')).arrayBuffer();
      await expectError(
        await tokenRequest(ward, {
          grant_type: 'authorization_code',
          code,
          client_id: 'spa',
          redirect_uri: 'https://app.example/cb',
          code_verifier: verifier,
        }),
        400,
        'invalid_grant',
      );
    });
  });
});
