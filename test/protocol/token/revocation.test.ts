// Token revocation, RFC 7009: 200 with {} whenever the client is authenticated and sent a token,
// whether it revoked something or not (unknown, garbage, foreign or already revoked tokens: 2.2);
// a refresh token takes its whole family with it (its access tokens and its rotated successors);
// an access token dies alone (sealed tokens are revoked one by one, by jti); token_type_hint is a
// hint only (2.1); a request without a token is invalid_request and a failed client authentication
// invalid_client (2.2.1, RFC 6749 5.2). SQLite, and PostgreSQL when configured.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Response } from 'undici';
import { engines } from '../../helpers/databases.js';
import { CONFIDENTIAL_CLIENT, CONFIDENTIAL_SECRET, PUBLIC_CLIENT, codeFor, tokenRequest } from '../../helpers/oauth.js';
import { startWard, type TestWard } from '../../helpers/ward.js';
import {
  NO_LIMITS,
  OFFLINE,
  basic,
  expectError,
  expectTokens,
  offlineTokens,
  refresh,
  userinfoStatus as userinfo,
} from './support.js';

const API_CB = 'https://api.example/cb';

/** Asserts RFC 7009's success answer: 200, a JSON {}, not cached. */
async function expectRevoked(res: Response, what: string): Promise<void> {
  const text = await res.text();
  assert.equal(res.status, 200, `${what}: ${text}`);
  assert.deepEqual(JSON.parse(text), {}, what);
  assert.match(res.headers.get('content-type') ?? '', /^application\/json/, what);
  assert.equal(res.headers.get('cache-control'), 'no-store', what);
}

for (const engine of engines()) {
  describe(`token revocation, RFC 7009 (${engine})`, () => {
    let ward: TestWard;
    before(async () => {
      ward = await startWard({ engine, account: NO_LIMITS, clients: [PUBLIC_CLIENT, CONFIDENTIAL_CLIENT] });
    });
    after(() => ward.close());

    const FORM = 'application/x-www-form-urlencoded';
    const post = (type: string, body: string, headers: Record<string, string> = {}) =>
      ward.fetch('/oauth/revoke', { method: 'POST', headers: { 'content-type': type, ...headers }, body });
    const revoke = (form: Record<string, string>, headers: Record<string, string> = {}) =>
      post(FORM, new URLSearchParams(form).toString(), headers);
    /** Revokes as the public client and expects RFC 7009's 200 {}. */
    const revoked = async (token: string, what: string, extra: Record<string, string> = {}) =>
      expectRevoked(await revoke({ client_id: 'spa', token, ...extra }), what);
    const refreshFails = async (token: string) => expectError(await refresh(ward, token), 400, 'invalid_grant');
    const alive = async (token: string, what: string) => assert.equal(await userinfo(ward, token), 200, what);
    const dead = async (token: string, what: string) => assert.equal(await userinfo(ward, token), 401, what);

    it('revokes a refresh token and its family: every access token of the grant, rotated tokens too', async () => {
      const { tokens } = await offlineTokens(ward);
      const second = await expectTokens(await refresh(ward, tokens.refresh_token!));
      await alive(tokens.access_token!, 'before');
      await revoked(second.refresh_token!, 'refresh token', { token_type_hint: 'refresh_token' });
      await dead(tokens.access_token!, 'the first access token of the family dies');
      await dead(second.access_token!, 'the latest access token of the family dies');
      await refreshFails(second.refresh_token!);
      await refreshFails(tokens.refresh_token!);
      await revoked(second.refresh_token!, 'an already revoked refresh token');
    });

    it('revoking an earlier, rotated refresh token of the family revokes the family too', async () => {
      const { tokens } = await offlineTokens(ward);
      const second = await expectTokens(await refresh(ward, tokens.refresh_token!));
      await revoked(tokens.refresh_token!, 'rotated refresh token');
      await dead(second.access_token!, 'the access token of the successor');
      await refreshFails(second.refresh_token!);
    });

    it("revokes one access token alone: the refresh token and the grant's other access tokens live on", async () => {
      const { tokens } = await offlineTokens(ward);
      const second = await expectTokens(await refresh(ward, tokens.refresh_token!));
      await revoked(tokens.access_token!, 'access token', { token_type_hint: 'access_token' });
      await dead(tokens.access_token!, 'the revoked access token');
      await alive(second.access_token!, 'another access token of the grant');
      const third = await expectTokens(await refresh(ward, second.refresh_token!));
      await alive(third.access_token!, 'refreshed after the revocation');
      await revoked(tokens.access_token!, 'an already revoked access token');
    });

    it('takes token_type_hint as a hint only: a wrong or unknown hint still revokes', async () => {
      const a = await offlineTokens(ward);
      await revoked(a.tokens.access_token!, 'access token, hint refresh_token', { token_type_hint: 'refresh_token' });
      await dead(a.tokens.access_token!, 'access token, hint refresh_token');
      const b = await offlineTokens(ward);
      await revoked(b.tokens.refresh_token!, 'refresh token, hint access_token', { token_type_hint: 'access_token' });
      await dead(b.tokens.access_token!, 'refresh token, hint access_token');
      await refreshFails(b.tokens.refresh_token!);
      const c = await offlineTokens(ward);
      await revoked(c.tokens.refresh_token!, 'refresh token, hint id_token', { token_type_hint: 'id_token' });
      await refreshFails(c.tokens.refresh_token!);
    });

    it('answers 200 {} for unknown, garbage and foreign tokens, and revokes nothing of another client', async () => {
      const { tokens } = await offlineTokens(ward);
      const garbage = ['x', 'not-a-token', 'wat1.AAAA', `wat1.${'A'.repeat(200)}`, tokens.id_token!, 'a'.repeat(4096)];
      for (const token of garbage) await revoked(token, `garbage ${token.slice(0, 20)}`);
      const byBackend = { client_id: 'backend', client_secret: CONFIDENTIAL_SECRET };
      await expectRevoked(await revoke({ ...byBackend, token: tokens.access_token! }), "another client's access token");
      await expectRevoked(await revoke({ ...byBackend, token: tokens.refresh_token! }), "another's refresh token");
      await alive(tokens.access_token!, 'not revoked by another client');
      await expectTokens(await refresh(ward, tokens.refresh_token!));
    });

    it("accepts the Core SDK's JSON body", async () => {
      const { tokens } = await offlineTokens(ward);
      const json = JSON.stringify({ client_id: 'spa', token: tokens.refresh_token });
      await expectRevoked(await post('application/json', json), 'JSON');
      await dead(tokens.access_token!, 'revoked by a JSON request');
    });

    it('revokes for a confidential client authenticated by Basic or in the body', async () => {
      for (const how of ['basic', 'post'] as const) {
        const { code } = await codeFor(ward, { clientId: 'backend', redirectUri: API_CB, pkce: false, scope: OFFLINE });
        const body = await expectTokens(
          await tokenRequest(ward, {
            grant_type: 'authorization_code',
            code,
            redirect_uri: API_CB,
            client_id: 'backend',
            client_secret: CONFIDENTIAL_SECRET,
          }),
        );
        const res =
          how === 'basic'
            ? await revoke({ token: body.refresh_token! }, { authorization: basic('backend', CONFIDENTIAL_SECRET) })
            : await revoke({ client_id: 'backend', client_secret: CONFIDENTIAL_SECRET, token: body.refresh_token! });
        await expectRevoked(res, how);
        await dead(body.access_token!, how);
      }
    });

    it('refuses a request without a token (invalid_request) or client authentication (invalid_client)', async () => {
      const { tokens } = await offlineTokens(ward);
      await expectError(await revoke({ client_id: 'spa' }), 400, 'invalid_request');
      await expectError(await revoke({ client_id: 'spa', token: '' }), 400, 'invalid_request');
      const failures: Array<[string, Record<string, string>, Record<string, string>]> = [
        ['no client_id', {}, {}],
        ['an unknown client', { client_id: 'nobody' }, {}],
        ['a confidential client without its secret', { client_id: 'backend' }, {}],
        ['a wrong secret in the body', { client_id: 'backend', client_secret: 'wrong' }, {}],
        ['a wrong secret with Basic', {}, { authorization: basic('backend', 'wrong') }],
        ['a public client with a secret', { client_id: 'spa', client_secret: 'anything' }, {}],
      ];
      for (const [what, form, headers] of failures) {
        await expectError(await revoke({ ...form, token: tokens.access_token! }, headers), 401, 'invalid_client');
        await alive(tokens.access_token!, `${what}: nothing revoked`);
      }
    });
  });
}
