// The password grant (RFC 6749 4.3), opt-in per client: off unless the client lists it; the same
// rules as password sign-in: one answer for an unknown user and a wrong password, a disabled user
// refused, the login rate limit (shared with POST /identity/v1/password/login), and a user who must
// use a second factor gets mfa_required and no token (unless the request carries a trusted-device
// cookie of that user). SQLite, and PostgreSQL when configured.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { decodeJwt } from 'jose';
import { engines } from '../../helpers/databases.js';
import { giveFactors } from '../../helpers/mfa.js';
import { CONFIDENTIAL_CLIENT, CONFIDENTIAL_SECRET, PUBLIC_CLIENT, signup, tokenRequest } from '../../helpers/oauth.js';
import { startWard, type TestWard } from '../../helpers/ward.js';
import { randomId, randomToken } from '../../../src/lib/random.js';
import { sha256 } from '../../../src/lib/secrets.js';
import { NO_LIMITS, basic, expectError, expectTokens, refresh, shape, userinfoStatus } from './support.js';

const MOBILE = {
  ...PUBLIC_CLIENT,
  client_id: 'mobile',
  grant_types: ['authorization_code', 'refresh_token', 'password'],
};
const SERVER = { ...CONFIDENTIAL_CLIENT, client_id: 'server', grant_types: ['authorization_code', 'password'] };

for (const engine of engines()) {
  describe(`the password grant (${engine})`, () => {
    let ward: TestWard;
    before(async () => {
      ward = await startWard({
        engine,
        account: NO_LIMITS,
        clients: [PUBLIC_CLIENT, CONFIDENTIAL_CLIENT, MOBILE, SERVER],
      });
    });
    after(() => ward.close());

    const grant = (username: string, password: string, extra: Record<string, string> = {}, headers = {}) =>
      tokenRequest(
        ward,
        { grant_type: 'password', username, password, client_id: 'mobile', scope: 'openid email', ...extra },
        headers,
      );

    it('is off by default: a client that did not opt in gets unauthorized_client', async () => {
      const user = await signup(ward);
      const spa = await grant(user.email, user.password, { client_id: 'spa' });
      const body = await expectError(spa, 400, 'unauthorized_client');
      assert.match(String(body.error_description), /password/);
      const backend = await grant(user.email, user.password, {
        client_id: 'backend',
        client_secret: CONFIDENTIAL_SECRET,
      });
      await expectError(backend, 400, 'unauthorized_client');
    });

    it('issues tokens to a client that opted in: access, id_token, and a refresh token with offline_access', async () => {
      const user = await signup(ward, 'mobile');
      const tokens = await expectTokens(await grant(user.email, user.password));
      assert.equal(tokens.scope, 'openid email');
      assert.equal(tokens.refresh_token, undefined, 'no refresh token without offline_access');
      const claims = decodeJwt(tokens.id_token!);
      assert.equal(claims.sub, user.id);
      assert.equal(claims.aud, 'mobile');
      assert.deepEqual(claims.amr, ['pwd']);
      assert.equal(claims.email, user.email);
      assert.equal(await userinfoStatus(ward, tokens.access_token!), 200);

      const offline = await expectTokens(await grant(user.email, user.password, { scope: 'openid offline_access' }));
      assert.ok(offline.refresh_token);
      const next = await expectTokens(await refresh(ward, offline.refresh_token!, {}, 'mobile'));
      assert.ok(next.access_token && next.refresh_token !== offline.refresh_token, 'the refresh token rotates');
    });

    it('accepts a phone number as the username, and JSON bodies (the Core SDK)', async () => {
      const phone = '+33612349876';
      const user = await signup(ward, 'mobile', { phone_number: phone });
      await expectTokens(await grant(phone, user.password, { scope: 'openid phone' }));
      const res = await ward.fetch('/oauth/token', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          client_id: 'mobile',
          grant_type: 'password',
          username: user.email,
          password: user.password,
          scope: 'openid',
        }),
      });
      await expectTokens(res);
    });

    it('gives one answer for an unknown user and a wrong password, and refuses a disabled user', async () => {
      const user = await signup(ward, 'mobile');
      const wrong = await expectError(await grant(user.email, 'not the password at all'), 400, 'invalid_grant');
      const unknown = await expectError(await grant('nobody-here@example.com', user.password), 400, 'invalid_grant');
      assert.equal(wrong.error_message_key, 'error.invalidEmailOrPassword');
      assert.deepEqual(shape(wrong), shape(unknown));
      await ward.registry.storage.users.setDisabled(user.id, true, ward.clock.now());
      assert.deepEqual(
        shape(await expectError(await grant(user.email, user.password), 400, 'invalid_grant')),
        shape(wrong),
      );
    });

    it('refuses missing credentials and unknown scopes', async () => {
      const user = await signup(ward, 'mobile');
      const noPassword = tokenRequest(ward, { grant_type: 'password', username: user.email, client_id: 'mobile' });
      await expectError(await noPassword, 400, 'invalid_request');
      const noUser = tokenRequest(ward, { grant_type: 'password', password: user.password, client_id: 'mobile' });
      await expectError(await noUser, 400, 'invalid_request');
      await expectError(await grant(user.email, user.password, { scope: 'openid calendar' }), 400, 'invalid_scope');
    });

    it('makes a confidential client authenticate', async () => {
      const user = await signup(ward, 'server');
      const form = { client_id: 'server', scope: 'openid' };
      await expectError(await grant(user.email, user.password, form), 401, 'invalid_client');
      await expectError(
        await grant(user.email, user.password, { ...form, client_secret: `${CONFIDENTIAL_SECRET}x` }),
        401,
        'invalid_client',
      );
      await expectTokens(
        await grant(user.email, user.password, form, { authorization: basic('server', CONFIDENTIAL_SECRET) }),
      );
    });

    it('answers mfa_required, with no token, to a user who must use a second factor', async () => {
      const withFactor = await signup(ward, 'mobile');
      const withoutFactor = await signup(ward, 'mobile');
      await giveFactors(ward, withFactor.id, { email: withFactor.email });
      // MFA required = Never: the factor changes nothing.
      await expectTokens(await grant(withFactor.email, withFactor.password));
      ward.setAccount({ mfa_required: 'always' });
      try {
        const body = await expectError(await grant(withFactor.email, withFactor.password), 400, 'mfa_required');
        assert.equal(body.error_message_key, 'error.mfa.required');
        // A wrong password is still just a wrong password (the second factor is not revealed).
        await expectError(await grant(withFactor.email, 'not the password at all'), 400, 'invalid_grant');
        // No verified factor: nothing to ask, as at the sign-in page.
        await expectTokens(await grant(withoutFactor.email, withoutFactor.password));
        // A trusted device of this user skips the second factor, as at the sign-in page; another's does not.
        const device = randomToken(32);
        await ward.registry.storage.trustedDevices.insert({
          id: randomId(),
          user_id: withFactor.id,
          digest: sha256(device),
          name: 'test device',
          created_at: ward.clock.now(),
          expires_at: ward.clock.now() + 3600_000,
          revoked_at: null,
        });
        const cookie = { cookie: `__Host-ward_td=${device}` };
        await expectTokens(await grant(withFactor.email, withFactor.password, {}, cookie));
        await expectError(await grant(withFactor.email, 'not the password at all', {}, cookie), 400, 'invalid_grant');
        const other = await signup(ward, 'mobile');
        await giveFactors(ward, other.id, { email: other.email });
        await expectError(await grant(other.email, other.password, {}, cookie), 400, 'mfa_required');
      } finally {
        ward.setAccount({ mfa_required: 'never' });
      }
    });
  });
}

describe('the password grant: the login rate limit', () => {
  let ward: TestWard;
  before(async () => {
    ward = await startWard({
      clients: [MOBILE],
      account: {
        rate_limits: { login: { limit: 3, window_seconds: 60 }, signup: { limit: null }, token: { limit: null } },
      },
    });
  });
  after(() => ward.close());

  it('counts each password grant as a login, with password sign-ins, per IP', async () => {
    const user = await signup(ward, 'mobile');
    ward.clock.advance(60_000 - (ward.clock.now() % 60_000) + 1);
    const grant = (password: string) =>
      tokenRequest(ward, { grant_type: 'password', username: user.email, password, client_id: 'mobile' });
    await expectError(await grant('wrong wrong wrong'), 400, 'invalid_grant');
    await expectError(await grant('wrong wrong wrong'), 400, 'invalid_grant');
    const login = await ward.fetch('/identity/v1/password/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ client_id: 'mobile', email: user.email, password: 'wrong wrong wrong' }),
    });
    assert.equal(login.status, 400);
    const limited = await expectError(await grant(user.password), 429, 'rate_limit_reached');
    assert.equal(limited.error_message_key, 'error.rateLimitReached');
    ward.clock.advance(60_000);
    await expectTokens(await grant(user.password));
  });
});
