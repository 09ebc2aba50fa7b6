// Issue 33, item 11 (last point): the client.created and client.updated audit rows did not say which
// scopes the client got, so an escalation by a new or changed management client left no trace of
// what it was given. Now they carry scope and management_scopes (and never the secret).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { engines } from '../helpers/databases.js';
import { api, CONSOLE_CLIENT, consoleToken } from '../helpers/management.js';
import { startWard, type TestWard } from '../helpers/ward.js';
import { NO_RATE_LIMITS } from './support.js';

for (const engine of engines()) {
  describe(`client audit rows name the scopes (issue 33 item 11) on ${engine}`, () => {
    let ward: TestWard;
    before(async () => {
      ward = await startWard({ engine, account: NO_RATE_LIMITS, clients: [CONSOLE_CLIENT] });
    });
    after(() => ward.close());

    it('records scope and management_scopes on client.created and client.updated, without the secret', async () => {
      const admin = api(ward, (await consoleToken(ward, 'administrator')).token);
      const created = await admin.post('/api/v1/clients', {
        client_id: 'audited',
        type: 'confidential',
        scope: 'openid email',
        grant_types: ['client_credentials'],
        management_scopes: ['read:users', 'manage:users'],
      });
      assert.equal(created.status, 201);
      const secret = created.body.client_secret as string;
      assert.equal(
        (await admin.patch('/api/v1/clients/audited', { management_scopes: ['read:users'], scope: 'openid' })).status,
        200,
      );
      const log = await admin.get('/api/v1/audit?target=client:audited&limit=10');
      assert.equal(log.status, 200);
      const of = (action: string) => log.body.events.find((e: { action: string }) => e.action === action);
      assert.deepEqual(of('client.created').details.management_scopes, ['read:users', 'manage:users']);
      assert.equal(of('client.created').details.scope, 'openid email');
      assert.deepEqual(of('client.updated').details.management_scopes, ['read:users']);
      assert.equal(of('client.updated').details.scope, 'openid');
      assert.deepEqual(of('client.updated').details.fields.sort(), ['management_scopes', 'scope']);
      assert.ok(!JSON.stringify(log.body).includes(secret), 'no secret in the audit');
    });
  });
}
