// Issue 33, item 1: no management caller grants, holds or changes more than it holds. A caller with
// manage:clients created a client with manage:users and manage:roles, took its client_credentials
// token and made itself Administrator; it could also re-secret or change a client with more scopes
// than its own, and change ward-console. A console Developer had the same path with their console
// token. Now: 403 error.management.exceedsCaller / error.client.system, and nothing changes.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { engines } from '../helpers/databases.js';
import { api, clientCredentialsToken, CONSOLE_CLIENT, consoleToken } from '../helpers/management.js';
import { codeFor, PUBLIC_CLIENT, redeem, signup } from '../helpers/oauth.js';
import { startWard, type TestWard } from '../helpers/ward.js';
import { NO_RATE_LIMITS } from './support.js';

const SECRET = 'a-management-client-secret-of-40-characters';
const ALL = CONSOLE_CLIENT.management_scopes;
const managementClient = (client_id: string, management_scopes: string[]) => ({
  client_id,
  type: 'confidential',
  client_secret: SECRET,
  grant_types: ['client_credentials'],
  management_scopes,
});
const EXCEEDS = 'error.management.exceedsCaller';

for (const engine of engines()) {
  describe(`management API privilege escalation (issue 33 item 1) on ${engine}`, () => {
    let ward: TestWard;
    before(async () => {
      ward = await startWard({
        engine,
        account: NO_RATE_LIMITS,
        clients: [
          PUBLIC_CLIENT,
          CONSOLE_CLIENT,
          managementClient('ops', ['read:clients', 'manage:clients']),
          managementClient('super', ALL),
          managementClient('role-giver', ['read:clients', 'read:settings', 'read:users', 'read:audit', 'manage:roles']),
        ],
      });
    });
    after(() => ward.close());

    const ccToken = (clientId: string, secret = SECRET) => clientCredentialsToken(ward, clientId, secret);
    const refused = (res: { status: number; body: Record<string, unknown> }, key = EXCEEDS) => {
      assert.equal(res.status, 403, JSON.stringify(res.body));
      assert.equal(res.body.error_message_key, key);
    };

    it('refuses a manage:clients caller a client with manage:users and manage:roles (no path to Administrator)', async () => {
      const ops = api(ward, await ccToken('ops'));
      const escalate = await ops.post('/api/v1/clients', {
        ...managementClient('evil', ['manage:users', 'manage:roles']),
        client_secret: undefined,
      });
      refused(escalate);
      assert.equal((await ops.get('/api/v1/clients/evil')).status, 404, 'nothing was created');
      // Within its own permissions, it still creates management clients.
      const ok = await ops.post('/api/v1/clients', {
        client_id: 'ops-child',
        type: 'confidential',
        grant_types: ['client_credentials'],
        management_scopes: ['read:clients'],
      });
      assert.equal(ok.status, 201, JSON.stringify(ok.body));
      // Nor does it raise a client it may change past its own permissions.
      refused(await ops.patch('/api/v1/clients/ops-child', { management_scopes: ['read:clients', 'manage:roles'] }));
      assert.deepEqual((await ops.get('/api/v1/clients/ops-child')).body.management_scopes, ['read:clients']);
    });

    it('refuses PATCH, secret regeneration and DELETE on a client with more scopes than the caller', async () => {
      const ops = api(ward, await ccToken('ops'));
      refused(await ops.patch('/api/v1/clients/super', { name: 'mine now' }));
      refused(await ops.post('/api/v1/clients/super/secret', {}));
      refused(await ops.del('/api/v1/clients/super'));
      refused(await ops.patch('/api/v1/clients/console', { allowed_callback_urls: ['https://evil.example/cb'] }));
      const still = await api(ward, await ccToken('super')).get('/api/v1/clients/super');
      assert.equal(still.status, 200);
      assert.notEqual(still.body.name, 'mine now');
      const audit = await api(ward, await ccToken('super')).get('/api/v1/audit?action=client.secret_regenerated');
      assert.ok(
        audit.body.events.some((e: Record<string, string>) => e.actor_id === 'ops' && e.outcome === 'failed'),
        'the refused call is audited',
      );
    });

    it('protects ward-console from change, deletion and a new secret, even for a caller with every scope', async () => {
      const superApi = api(ward, await ccToken('super'));
      refused(
        await superApi.patch('/api/v1/clients/ward-console', { allowed_callback_urls: ['https://evil.example/cb'] }),
        'error.client.system',
      );
      refused(await superApi.post('/api/v1/clients/ward-console/secret', {}), 'error.client.system');
      refused(await superApi.del('/api/v1/clients/ward-console'), 'error.client.system');
      const console = await superApi.get('/api/v1/clients/ward-console');
      assert.equal(console.status, 200);
      assert.deepEqual(console.body.allowed_callback_urls, [`${ward.issuer}/console/callback`]);
    });

    it('refuses a console Developer (their ward-console token) the same escalation', async () => {
      // A Developer signed in to the real console client: their token carries the Developer's permissions.
      const { code, verifier, user } = await codeFor(ward, {
        clientId: 'ward-console',
        redirectUri: `${ward.issuer}/console/callback`,
        scope: 'openid',
      });
      await ward.registry.storage.users.setRole(user.id, 'developer', ward.clock.now());
      const { body } = await redeem(ward, code, verifier, 'ward-console', `${ward.issuer}/console/callback`);
      const dev = api(ward, body.access_token!);
      assert.equal((await dev.get('/api/v1/clients')).status, 200);
      refused(
        await dev.post('/api/v1/clients', {
          client_id: 'dev-escalation',
          type: 'confidential',
          grant_types: ['client_credentials'],
          management_scopes: ['manage:users', 'manage:roles'],
        }),
      );
      refused(await dev.post('/api/v1/clients/super/secret', {}));
      refused(await dev.patch('/api/v1/clients/console', { allowed_callback_urls: ['https://evil.example/cb'] }));
      refused(
        await dev.patch('/api/v1/clients/ward-console', { allowed_callback_urls: ['https://evil.example/cb'] }),
        'error.client.system',
      );
      // What a Developer holds, they may give.
      const ok = await dev.post('/api/v1/clients', {
        client_id: 'dev-tool',
        type: 'confidential',
        grant_types: ['client_credentials'],
        management_scopes: ['read:clients', 'manage:keys'],
      });
      assert.equal(ok.status, 201, JSON.stringify(ok.body));
    });

    it('refuses a role whose permissions exceed the caller, and changing the role of someone who holds more', async () => {
      const giver = api(ward, await ccToken('role-giver'));
      const target = await signup(ward);
      refused(await giver.put(`/api/v1/users/${target.id}/role`, { role: 'administrator' }));
      refused(await giver.put(`/api/v1/users/${target.id}/role`, { role: 'developer' }));
      const viewer = await giver.put(`/api/v1/users/${target.id}/role`, { role: 'viewer' });
      assert.equal(viewer.status, 200, JSON.stringify(viewer.body));
      const admin = await consoleToken(ward, 'administrator');
      refused(await giver.put(`/api/v1/users/${admin.userId}/role`, { role: null }));
      // A console Administrator holds every permission: they still give any role.
      const given = await api(ward, admin.token).put(`/api/v1/users/${target.id}/role`, { role: 'administrator' });
      assert.equal(given.status, 200);
      assert.equal(given.body.role, 'administrator');
    });
  });
}
