// Token introspection, RFC 7662, at /oauth/introspect: the caller authenticates as a client (a
// confidential client for its own tokens, a resource server for any access token of this Ward; a
// public client cannot); a live token gets its claims, anything else exactly {"active":false} (2.2):
// expired, revoked (alone or with its grant), rotated, another client's, garbage; a resource server
// sees no refresh token; answers are never cached; and a resource server can do nothing else (no
// grant, no authorization request, no revocation). SQLite, and PostgreSQL when configured.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Response } from 'undici';
import { engines } from '../../helpers/databases.js';
import {
  CONFIDENTIAL_CLIENT,
  CONFIDENTIAL_SECRET,
  PUBLIC_CLIENT,
  authorizeUrl,
  codeFor,
  pkcePair,
  tokenRequest,
} from '../../helpers/oauth.js';
import { startWard, type TestWard } from '../../helpers/ward.js';
import { NO_LIMITS, OFFLINE, basic, expectError, expectTokens, offlineTokens, refresh } from './support.js';

const API_SECRET = 'resource-server-secret-of-at-least-32-bytes';
const API = { client_id: 'orders-api', name: 'Orders API', type: 'resource_server', client_secret: API_SECRET };
const OPS_SECRET = 'management-client-secret-of-40-characters!';
const OPS = {
  client_id: 'ops',
  type: 'confidential',
  client_secret: OPS_SECRET,
  grant_types: ['client_credentials'],
  management_scopes: ['read:clients'],
};
const API_CB = 'https://api.example/cb';
type Answer = Record<string, unknown>;

for (const engine of engines()) {
  describe(`token introspection, RFC 7662 (${engine})`, () => {
    let ward: TestWard;
    before(async () => {
      ward = await startWard({ engine, account: NO_LIMITS, clients: [PUBLIC_CLIENT, CONFIDENTIAL_CLIENT, API, OPS] });
    });
    after(() => ward.close());

    const FORM = 'application/x-www-form-urlencoded';
    const post = (form: Record<string, string>, headers: Record<string, string> = {}) =>
      ward.fetch('/oauth/introspect', {
        method: 'POST',
        headers: { 'content-type': FORM, ...headers },
        body: new URLSearchParams(form).toString(),
      });
    const asApi = (token: string, extra: Record<string, string> = {}) =>
      post({ token, ...extra }, { authorization: basic('orders-api', API_SECRET) });
    const asBackend = (token: string) => post({ token, client_id: 'backend', client_secret: CONFIDENTIAL_SECRET });

    /** A 200 JSON answer, never cached. */
    async function answer(res: Response, what = ''): Promise<Answer> {
      const text = await res.text();
      assert.equal(res.status, 200, `${what}: ${text}`);
      assert.match(res.headers.get('content-type') ?? '', /^application\/json/, what);
      assert.equal(res.headers.get('cache-control'), 'no-store', what);
      return JSON.parse(text) as Answer;
    }
    /** RFC 7662 2.2: an inactive token is exactly {"active": false}. */
    const inactive = async (res: Response, what: string) =>
      assert.deepEqual(await answer(res, what), { active: false }, what);

    /** A code flow of the confidential client: its tokens and user. */
    async function backendTokens(scope = OFFLINE) {
      const { code, user } = await codeFor(ward, { clientId: 'backend', redirectUri: API_CB, pkce: false, scope });
      const form = { grant_type: 'authorization_code', code, redirect_uri: API_CB };
      const tokens = await expectTokens(
        await tokenRequest(ward, form, { authorization: basic('backend', CONFIDENTIAL_SECRET) }),
      );
      return { tokens, user };
    }

    it("lets a resource server check a user's access token: active, with its claims", async () => {
      const { tokens, user } = await offlineTokens(ward);
      const before = Math.floor(ward.clock.now() / 1000);
      const body = await answer(await asApi(tokens.access_token!, { token_type_hint: 'access_token' }));
      assert.equal(body.active, true);
      assert.equal(body.scope, OFFLINE);
      assert.equal(body.client_id, 'spa');
      assert.equal(body.sub, user.id);
      assert.equal(body.username, user.email);
      assert.equal(body.token_type, 'Bearer');
      assert.equal(body.iss, ward.url);
      assert.equal(body.aud, 'spa');
      assert.equal(body.iat, before);
      assert.equal(body.exp, before + 3600);
      assert.equal(typeof body.auth_time, 'number');
    });

    it('lets a confidential client check its own access and refresh tokens, with client_secret_basic or _post', async () => {
      const { tokens, user } = await backendTokens();
      const access = await answer(await asBackend(tokens.access_token!));
      assert.equal(access.active, true);
      assert.equal(access.client_id, 'backend');
      assert.equal(access.sub, user.id);
      const viaBasic = await answer(
        await post({ token: tokens.refresh_token! }, { authorization: basic('backend', CONFIDENTIAL_SECRET) }),
      );
      assert.equal(viaBasic.active, true);
      assert.equal(viaBasic.client_id, 'backend');
      assert.equal(viaBasic.sub, user.id);
      assert.equal(viaBasic.scope, OFFLINE);
      assert.equal(viaBasic.token_type, undefined, 'token_type is for access tokens (RFC 6749 5.1)');
      assert.ok((viaBasic.exp as number) > (access.exp as number), 'the refresh token outlives the access token');
    });

    it('checks a client_credentials token (no user: no sub)', async () => {
      const form = { grant_type: 'client_credentials', client_id: 'ops', client_secret: OPS_SECRET };
      const { access_token } = await expectTokens(await tokenRequest(ward, form));
      const body = await answer(await asApi(access_token!));
      assert.equal(body.active, true);
      assert.equal(body.client_id, 'ops');
      assert.equal(body.scope, 'read:clients');
      assert.equal(body.sub, undefined);
      assert.deepEqual(
        await answer(await post({ token: access_token!, client_id: 'ops', client_secret: OPS_SECRET })),
        body,
      );
    });

    it("answers {active:false} for another client's tokens, and shows refresh tokens to their client only", async () => {
      const { tokens } = await offlineTokens(ward);
      await inactive(await asBackend(tokens.access_token!), "another client's access token");
      await inactive(await asBackend(tokens.refresh_token!), "another client's refresh token");
      await inactive(await asApi(tokens.refresh_token!), 'a refresh token, to a resource server');
      await inactive(await asApi(tokens.refresh_token!, { token_type_hint: 'refresh_token' }), 'with the hint too');
      assert.equal((await answer(await asApi(tokens.access_token!))).active, true, 'the access token is visible');
    });

    it('answers {active:false} for garbage: unknown, malformed, an id_token, a forged prefix, a huge value', async () => {
      const { tokens } = await backendTokens('openid');
      const garbage = [
        'x',
        'not-a-token',
        'wat1.AAAA',
        `wat1.${'A'.repeat(200)}`,
        `${tokens.access_token!}x`,
        tokens.id_token!,
        'a'.repeat(5000),
      ];
      for (const token of garbage) await inactive(await asApi(token), `garbage ${token.slice(0, 20)}`);
      for (const token of garbage) await inactive(await asBackend(token), `garbage ${token.slice(0, 20)} (backend)`);
    });

    it('answers {active:false} once a token expires', async () => {
      const { tokens } = await backendTokens();
      assert.equal((await answer(await asApi(tokens.access_token!))).active, true);
      ward.clock.advance(3601 * 1000);
      await inactive(await asApi(tokens.access_token!), 'an expired access token');
      await inactive(await asBackend(tokens.access_token!), 'an expired access token, to its client');
      assert.equal((await answer(await asBackend(tokens.refresh_token!))).active, true, 'the refresh token lives on');
      ward.clock.advance(ward.registry.account().refresh_token_ttl * 1000);
      await inactive(await asBackend(tokens.refresh_token!), 'an expired refresh token');
    });

    it('answers {active:false} for a revoked access token, a revoked family, a disabled user', async () => {
      const a = await backendTokens();
      const creds = { client_id: 'backend', client_secret: CONFIDENTIAL_SECRET };
      const revoke = (token: string) =>
        ward.fetch('/oauth/revoke', {
          method: 'POST',
          headers: { 'content-type': FORM },
          body: new URLSearchParams({ ...creds, token }).toString(),
        });
      const revokeSpa = (token: string) =>
        ward.fetch('/oauth/revoke', {
          method: 'POST',
          headers: { 'content-type': FORM },
          body: new URLSearchParams({ client_id: 'spa', token }).toString(),
        });
      assert.equal((await revoke(a.tokens.access_token!)).status, 200);
      await inactive(await asApi(a.tokens.access_token!), 'an access token revoked alone');
      assert.equal((await answer(await asBackend(a.tokens.refresh_token!))).active, true, 'its refresh token lives');
      assert.equal((await revoke(a.tokens.refresh_token!)).status, 200);
      await inactive(await asBackend(a.tokens.refresh_token!), 'a revoked refresh token');

      const b = await offlineTokens(ward);
      const next = await expectTokens(await refresh(ward, b.tokens.refresh_token!));
      assert.equal((await answer(await asApi(next.access_token!))).active, true, 'the new access token');
      assert.equal((await answer(await asApi(b.tokens.access_token!))).active, true, 'rotation leaves access tokens');
      assert.equal((await revokeSpa(next.refresh_token!)).status, 200);
      await inactive(await asApi(b.tokens.access_token!), 'an access token of a revoked family');
      await inactive(await asApi(next.access_token!), 'the latest access token of a revoked family');

      const c = await backendTokens();
      await ward.registry.storage.users.setDisabled(c.user.id, true, ward.clock.now());
      await inactive(await asApi(c.tokens.access_token!), "a disabled user's access token");
      await inactive(await asBackend(c.tokens.refresh_token!), "a disabled user's refresh token");
    });

    it('answers {active:false} for a rotated refresh token, to its own client', async () => {
      const { tokens } = await backendTokens();
      const auth = { authorization: basic('backend', CONFIDENTIAL_SECRET) };
      const form = { grant_type: 'refresh_token', refresh_token: tokens.refresh_token! };
      const next = await expectTokens(await tokenRequest(ward, form, auth));
      await inactive(await asBackend(tokens.refresh_token!), 'the rotated refresh token');
      assert.equal((await answer(await asBackend(next.refresh_token!))).active, true, 'its successor');
    });

    it('requires client authentication: a public client, a wrong secret, no credentials are invalid_client', async () => {
      const { tokens } = await offlineTokens(ward);
      const token = tokens.access_token!;
      await expectError(await post({ token, client_id: 'spa' }), 401, 'invalid_client');
      await expectError(await post({ token }), 401, 'invalid_client');
      await expectError(await post({ token, client_id: 'orders-api' }), 401, 'invalid_client');
      await expectError(
        await post({ token, client_id: 'orders-api', client_secret: `${API_SECRET}!` }),
        401,
        'invalid_client',
      );
      const wrong = await post({ token }, { authorization: basic('orders-api', 'wrong secret wrong secret wrong') });
      await expectError(wrong, 401, 'invalid_client');
      assert.match(wrong.headers.get('www-authenticate') ?? '', /^Basic /);
    });

    it('refuses a request without a token, other media types, and other methods', async () => {
      const none = await expectError(
        await post({ client_id: 'orders-api', client_secret: API_SECRET }),
        400,
        'invalid_request',
      );
      assert.match(String(none.error_description), /token/);
      const text = await ward.fetch('/oauth/introspect', {
        method: 'POST',
        headers: { 'content-type': 'text/plain', authorization: basic('orders-api', API_SECRET) },
        body: 'token=x',
      });
      assert.equal(text.status, 415);
      const json = await ward.fetch('/oauth/introspect', {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: basic('orders-api', API_SECRET) },
        body: JSON.stringify({ token: 'x' }),
      });
      assert.deepEqual(await answer(json), { active: false });
      const get = await ward.fetch('/oauth/introspect?token=x', {
        headers: { authorization: basic('orders-api', API_SECRET) },
      });
      assert.equal(get.status, 405);
      assert.equal(get.headers.get('allow'), 'POST');
    });

    it('lets a resource server do nothing else: no grant, no authorization request, no revocation, no sign-in', async () => {
      const auth = { authorization: basic('orders-api', API_SECRET) };
      const forms: Record<string, string>[] = [
        { grant_type: 'client_credentials' },
        { grant_type: 'authorization_code', code: 'abc', redirect_uri: API_CB },
        { grant_type: 'refresh_token', refresh_token: 'abc' },
        { grant_type: 'password', username: 'a@example.com', password: 'whatever whatever' },
      ];
      for (const form of forms) {
        const body = await expectError(await tokenRequest(ward, form, auth), 400, 'unauthorized_client');
        assert.match(String(body.error_description), /resource server/, form.grant_type);
      }
      // Without its secret it is a client that failed to authenticate, not told what it is.
      await expectError(
        await tokenRequest(ward, { grant_type: 'client_credentials', client_id: 'orders-api' }),
        401,
        'invalid_client',
      );
      const { tokens } = await offlineTokens(ward);
      await expectError(
        await ward.fetch('/oauth/revoke', {
          method: 'POST',
          headers: { 'content-type': FORM, ...auth },
          body: new URLSearchParams({ token: tokens.access_token! }).toString(),
        }),
        400,
        'unauthorized_client',
      );
      const page = await ward.fetch(
        authorizeUrl({
          client_id: 'orders-api',
          response_type: 'code',
          redirect_uri: API_CB,
          scope: 'openid',
          state: 's',
          code_challenge: pkcePair().challenge,
          code_challenge_method: 'S256',
        }),
      );
      assert.equal(page.status, 400);
      assert.equal(page.headers.get('location'), null, 'never redirected');
      const signin = await ward.fetch('/identity/v1/password/login', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ client_id: 'orders-api', email: 'a@example.com', password: 'whatever whatever' }),
      });
      await expectError(signin, 400, 'unauthorized_client');
    });
  });
}

describe('token introspection: the rate limit', () => {
  let ward: TestWard;
  before(async () => {
    ward = await startWard({
      clients: [API],
      account: { rate_limits: { token: { limit: 2, window_seconds: 60 } } },
    });
  });
  after(() => ward.close());

  it('is limited per IP with the token rule, in a count of its own', async () => {
    ward.clock.advance(60_000 - (ward.clock.now() % 60_000) + 1);
    const call = () =>
      ward.fetch('/oauth/introspect', {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          authorization: basic('orders-api', API_SECRET),
        },
        body: 'token=x',
      });
    assert.equal((await call()).status, 200);
    assert.equal((await call()).status, 200);
    await expectError(await call(), 429, 'rate_limit_reached');
    // The token endpoint's own count is untouched.
    const res = await tokenRequest(ward, { grant_type: 'client_credentials', client_id: 'nobody' });
    await expectError(res, 401, 'invalid_client');
    ward.clock.advance(60_000);
    assert.equal((await call()).status, 200, 'a new window');
  });
});
