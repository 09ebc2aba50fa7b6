// Issue 33, item 2: a manage:users caller minted a custom token for an Administrator and the client
// ward-console, and GET /identity/v1/custom-token/login gave it a console session as the Administrator.
// Now custom tokens are only for a client that opted in (custom_token_login), never the console, and
// for a user who holds a role only by a caller with manage:roles; disabling, deleting or removing a
// factor or passkey of a role holder needs manage:roles too.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { engines } from '../helpers/databases.js';
import { api, CONSOLE_CLIENT, consoleToken } from '../helpers/management.js';
import { giveFactors } from '../helpers/mfa.js';
import { CONFIDENTIAL_SECRET, PUBLIC_CLIENT, authorizeUrl, location, pkcePair, signup } from '../helpers/oauth.js';
import { startWard, type TestWard } from '../helpers/ward.js';
import { Browser } from '../helpers/browser.js';
import { NO_RATE_LIMITS } from './support.js';

const CALLBACK = 'https://app.example/cb';
const backend = (client_id: string, extra: Record<string, unknown> = {}) => ({
  client_id,
  type: 'confidential',
  client_secret: CONFIDENTIAL_SECRET,
  allowed_callback_urls: [CALLBACK],
  ...extra,
});

for (const engine of engines()) {
  describe(`custom tokens and role holders (issue 33 item 2) on ${engine}`, () => {
    let ward: TestWard;
    let manager: ReturnType<typeof api>;
    let administrator: { token: string; userId: string };
    before(async () => {
      ward = await startWard({
        engine,
        account: NO_RATE_LIMITS,
        clients: [
          PUBLIC_CLIENT,
          CONSOLE_CLIENT,
          backend('opted-in', { custom_token_login: true }),
          backend('not-opted-in'),
        ],
      });
      manager = api(ward, (await consoleToken(ward, 'manager')).token);
      administrator = await consoleToken(ward, 'administrator');
    });
    after(() => ward.close());

    /** GET /identity/v1/custom-token/login for a client: where the browser is sent back. */
    const login = async (token: string, clientId: string, redirectUri: string) => {
      const { challenge } = pkcePair();
      const url = authorizeUrl({
        client_id: clientId,
        response_type: 'code',
        redirect_uri: redirectUri,
        scope: 'openid',
        state: 's',
        code_challenge: challenge,
        code_challenge_method: 'S256',
        token,
      }).replace('/oauth/authorize', '/identity/v1/custom-token/login');
      const res = await new Browser(ward).get(url);
      assert.equal(res.status, 302, await res.text());
      return location(res);
    };

    it('refuses a manage:users caller a custom token for an Administrator on ward-console', async () => {
      const minted = await manager.post('/api/v1/custom-tokens', {
        user_id: administrator.userId,
        client_id: 'ward-console',
      });
      assert.equal(minted.status, 400, JSON.stringify(minted.body));
      assert.equal(minted.body.error_message_key, 'error.customToken.clientNotAllowed');
      // Not even an Administrator mints one for the console.
      const byAdmin = await api(ward, administrator.token).post('/api/v1/custom-tokens', {
        user_id: administrator.userId,
        client_id: 'ward-console',
      });
      assert.equal(byAdmin.status, 400);
      // A token made for the console before this fix signs no one in.
      const old = await ward.registry.tkn.issueCustom(administrator.userId, 'ward-console');
      const back = await login(old, 'ward-console', `${ward.issuer}/console/callback`);
      assert.equal(back.searchParams.get('error'), 'access_denied');
      assert.equal(back.searchParams.get('code'), null);
    });

    it('mints custom tokens only for a client that opted in (custom_token_login)', async () => {
      const u = await signup(ward);
      const refused = await manager.post('/api/v1/custom-tokens', { user_id: u.id, client_id: 'not-opted-in' });
      assert.equal(refused.status, 400);
      assert.equal(refused.body.error_message_key, 'error.customToken.clientNotAllowed');
      const minted = await manager.post('/api/v1/custom-tokens', { user_id: u.id, client_id: 'opted-in' });
      assert.equal(minted.status, 201, JSON.stringify(minted.body));
      assert.ok((await login(minted.body.token, 'opted-in', CALLBACK)).searchParams.get('code'));
      // A client that did not opt in refuses a token minted for it anyhow.
      const stray = await ward.registry.tkn.issueCustom(u.id, 'not-opted-in');
      assert.equal((await login(stray, 'not-opted-in', CALLBACK)).searchParams.get('error'), 'access_denied');
    });

    it('needs manage:roles for a custom token of a user who holds a role', async () => {
      const dev = await consoleToken(ward, 'developer');
      const refused = await manager.post('/api/v1/custom-tokens', { user_id: dev.userId, client_id: 'opted-in' });
      assert.equal(refused.status, 403, JSON.stringify(refused.body));
      assert.equal(refused.body.error_message_key, 'error.management.forbidden');
      const byAdmin = await api(ward, administrator.token).post('/api/v1/custom-tokens', {
        user_id: dev.userId,
        client_id: 'opted-in',
      });
      assert.equal(byAdmin.status, 201);
    });

    it('needs manage:roles to disable, delete or remove a factor or passkey of a role holder', async () => {
      const target = await consoleToken(ward, 'administrator');
      await giveFactors(ward, target.userId, { phone: '+33600000002' });
      const [factor] = await ward.registry.storage.mfaCredentials.listOfUser(target.userId);
      const forbidden = (res: { status: number; body: Record<string, unknown> }) => {
        assert.equal(res.status, 403, JSON.stringify(res.body));
        assert.equal(res.body.error_message_key, 'error.management.forbidden');
      };
      forbidden(await manager.patch(`/api/v1/users/${target.userId}`, { disabled: true }));
      forbidden(await manager.del(`/api/v1/users/${target.userId}/mfa-credentials/${factor!.id}`));
      forbidden(await manager.del(`/api/v1/users/${target.userId}/passkeys/some-passkey`));
      forbidden(await manager.del(`/api/v1/users/${target.userId}`));
      const still = await manager.get(`/api/v1/users/${target.userId}`);
      assert.equal(still.body.disabled, false);
      assert.equal(still.body.mfa_credentials.length, 1);
      // A user without a role stays the manager's to disable; an Administrator may disable one.
      const plain = await signup(ward);
      assert.equal((await manager.patch(`/api/v1/users/${plain.id}`, { disabled: true })).status, 200);
      const admin = api(ward, administrator.token);
      assert.equal((await admin.patch(`/api/v1/users/${target.userId}`, { disabled: true })).status, 200);
    });

    it('refuses custom_token_login on a client with management scopes', async () => {
      const admin = api(ward, administrator.token);
      const res = await admin.post('/api/v1/clients', {
        client_id: 'console-like',
        type: 'public',
        allowed_callback_urls: [CALLBACK],
        management_scopes: ['read:users'],
        custom_token_login: true,
      });
      assert.equal(res.status, 400, JSON.stringify(res.body));
      assert.match(res.body.error_description, /custom_token_login/);
      const patched = await admin.patch('/api/v1/clients/opted-in', { custom_token_login: false });
      assert.equal(patched.status, 200);
      assert.equal(patched.body.custom_token_login, false);
    });
  });
}
