// Custom token sign-in: the management API mints a single-use token for a user and a client (audited,
// guarded by manage:users); the unmodified Core SDK's loginWithCustomToken completes an authorization
// with it through GET /identity/v1/custom-token/login. The SDK sends no PKCE there, so the client is a
// confidential one whose backend redeems the code with its secret. Reused, expired and foreign-client
// tokens are refused with an error at the redirect_uri.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { engines } from '../../helpers/databases.js';
import { api, CONSOLE_CLIENT, consoleToken } from '../../helpers/management.js';
import { CONFIDENTIAL_SECRET, location, signup, tokenRequest } from '../../helpers/oauth.js';
import { installBrowserShims, type SdkPage } from '../../helpers/sdk-shims.js';
import { startWard, type TestWard } from '../../helpers/ward.js';

const ORIGIN = 'https://app.example';
const CALLBACK = 'https://app.example/cb';
type Sdk = typeof import('@reachfive/identity-core');

for (const engine of engines()) {
  describe(`custom token sign-in on ${engine}`, () => {
    let ward: TestWard;
    let page: SdkPage;
    let sdk: Sdk;
    let admin: ReturnType<typeof api>;
    before(async () => {
      ward = await startWard({
        engine,
        clients: [
          CONSOLE_CLIENT,
          { client_id: 'spa', type: 'public', allowed_callback_urls: [CALLBACK], allowed_origins: [ORIGIN] },
          {
            client_id: 'app-backend',
            type: 'confidential',
            client_secret: CONFIDENTIAL_SECRET,
            allowed_callback_urls: [CALLBACK],
            allowed_origins: [ORIGIN],
            custom_token_login: true,
          },
          {
            client_id: 'other',
            type: 'confidential',
            client_secret: CONFIDENTIAL_SECRET,
            allowed_callback_urls: [CALLBACK],
            custom_token_login: true,
          },
        ],
      });
      page = installBrowserShims(ward, ORIGIN);
      sdk = await import('@reachfive/identity-core');
      admin = api(ward, (await consoleToken(ward, 'manager')).token);
    });
    after(() => ward.close());

    const login = async (token: string, clientId = 'app-backend') => {
      const client = sdk.createClient({ domain: new URL(ward.url).host, clientId });
      const nav = page.nextNavigation();
      client.loginWithCustomToken({ token, auth: { redirectUri: CALLBACK } });
      const res = await page.browser.get(await nav);
      assert.equal(res.status, 302, await res.text());
      return { client, callback: location(res) };
    };

    it('mints a token that signs the user in once, through the SDK', async () => {
      const u = await signup(ward, 'spa');
      const minted = await admin.post('/api/v1/custom-tokens', { user_id: u.id, client_id: 'app-backend' });
      assert.equal(minted.status, 201, JSON.stringify(minted.body));
      assert.equal(minted.body.expires_in, 60);
      const { callback } = await login(minted.body.token);
      const res = await tokenRequest(ward, {
        grant_type: 'authorization_code',
        code: callback.searchParams.get('code')!,
        redirect_uri: CALLBACK,
        client_id: 'app-backend',
        client_secret: CONFIDENTIAL_SECRET,
      });
      assert.equal(res.status, 200);
      const tokens = (await res.json()) as { id_token: string };
      const claims = JSON.parse(Buffer.from(tokens.id_token.split('.')[1]!, 'base64url').toString());
      assert.equal(claims.sub, u.id);
      assert.deepEqual(claims.amr, ['custom_token']);
      const again = await login(minted.body.token);
      assert.equal(again.callback.searchParams.get('error'), 'access_denied');
      const audit = await admin.get('/api/v1/audit?action=user.custom_token_minted');
      assert.ok(JSON.stringify(audit.body).includes(u.id));
    });

    it('refuses a token of another client, and an expired one', async () => {
      const u = await signup(ward, 'spa');
      const forOther = await admin.post('/api/v1/custom-tokens', { user_id: u.id, client_id: 'other' });
      assert.equal((await login(forOther.body.token)).callback.searchParams.get('error'), 'access_denied');
      const late = await admin.post('/api/v1/custom-tokens', { user_id: u.id, client_id: 'app-backend' });
      ward.clock.advance(61_000);
      assert.equal((await login(late.body.token)).callback.searchParams.get('error'), 'access_denied');
    });

    it('needs manage:users, a known user and a known client', async () => {
      const u = await signup(ward, 'spa');
      const viewer = api(ward, (await consoleToken(ward, 'viewer')).token);
      assert.equal((await viewer.post('/api/v1/custom-tokens', { user_id: u.id, client_id: 'spa' })).status, 403);
      assert.equal((await admin.post('/api/v1/custom-tokens', { user_id: 'nobody', client_id: 'spa' })).status, 404);
      assert.equal((await admin.post('/api/v1/custom-tokens', { user_id: u.id, client_id: 'nope' })).status, 400);
      assert.equal((await admin.post('/api/v1/custom-tokens', { user_id: u.id })).status, 400);
      const doc = await ward.fetch('/api/v1/openapi.json');
      assert.ok(JSON.stringify(await doc.json()).includes('/api/v1/custom-tokens'));
    });
  });
}
