// Issue 33, item 9: a client_credentials access token (sealed, no grant row to revoke) kept working
// after POST /api/v1/clients/:id/secret. Now each client has a not-before time, set when its secret,
// scopes, grants or type change (and when it is created): the management API and introspection
// refuse its client_credentials tokens issued before. On both engines, tuned and plain (WARD_TUNING=off).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { engines } from '../helpers/databases.js';
import { api, clientCredentialsToken } from '../helpers/management.js';
import { startWard, type TestWard } from '../helpers/ward.js';
import { NO_RATE_LIMITS } from './support.js';

const SECRET = 'a-management-client-secret-of-40-characters';
const RS_SECRET = 'a-resource-server-secret-of-40-characters!!';
const ALL = ['read:clients', 'manage:clients', 'read:users', 'manage:users', 'read:audit'];

for (const engine of engines()) {
  for (const tuning of ['on', 'off'] as const) {
    describe(`client_credentials tokens after a secret or scope change (issue 33 item 9) on ${engine}, tuning ${tuning}`, () => {
      let ward: TestWard;
      before(async () => {
        ward = await startWard({
          engine,
          env: { WARD_TUNING: tuning },
          account: NO_RATE_LIMITS,
          clients: [
            {
              client_id: 'admin-ops',
              type: 'confidential',
              client_secret: SECRET,
              grant_types: ['client_credentials'],
              management_scopes: ALL,
            },
            { client_id: 'api', type: 'resource_server', client_secret: RS_SECRET },
          ],
        });
      });
      after(() => ward.close());

      const ccToken = (clientId: string, secret: string) => clientCredentialsToken(ward, clientId, secret);
      const active = async (token: string): Promise<boolean> => {
        const res = await ward.fetch('/oauth/introspect', {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ client_id: 'api', client_secret: RS_SECRET, token }).toString(),
        });
        assert.equal(res.status, 200);
        return ((await res.json()) as { active: boolean }).active;
      };
      const reads = async (token: string) => (await api(ward, token).get('/api/v1/clients')).status;
      /** A new management client of the admin's, with its first secret. */
      const newClient = async (admin: ReturnType<typeof api>, id: string) => {
        const created = await admin.post('/api/v1/clients', {
          client_id: id,
          type: 'confidential',
          grant_types: ['client_credentials'],
          management_scopes: ['read:clients', 'manage:clients'],
        });
        assert.equal(created.status, 201, JSON.stringify(created.body));
        return created.body.client_secret as string;
      };

      it('refuses a token issued before the secret was regenerated', async () => {
        const admin = api(ward, await ccToken('admin-ops', SECRET));
        const secret = await newClient(admin, 'rotated');
        const old = await ccToken('rotated', secret);
        assert.equal(await reads(old), 200);
        assert.equal(await active(old), true);
        ward.clock.advance(1000);
        const regenerated = await admin.post('/api/v1/clients/rotated/secret', {});
        assert.equal(regenerated.status, 200);
        assert.equal(await reads(old), 401, 'the token minted with the old secret stops working');
        assert.equal(await active(old), false);
        const fresh = await ccToken('rotated', regenerated.body.client_secret);
        assert.equal(await reads(fresh), 200, 'a token of the new secret works');
        assert.equal(await active(fresh), true);
      });

      it('refuses a token issued before the client scopes changed, not after a harmless change', async () => {
        const admin = api(ward, await ccToken('admin-ops', SECRET));
        const secret = await newClient(admin, 'rescoped');
        const old = await ccToken('rescoped', secret);
        ward.clock.advance(1000);
        assert.equal((await admin.patch('/api/v1/clients/rescoped', { name: 'Renamed' })).status, 200);
        assert.equal(await reads(old), 200, 'a new name leaves its tokens alone');
        ward.clock.advance(1000);
        assert.equal(
          (await admin.patch('/api/v1/clients/rescoped', { management_scopes: ['read:clients'] })).status,
          200,
        );
        assert.equal(await reads(old), 401);
        assert.equal(await active(old), false);
        const scoped = await ccToken('rescoped', secret);
        ward.clock.advance(1000);
        assert.equal((await admin.patch('/api/v1/clients/rescoped', { scope: 'openid profile' })).status, 200);
        assert.equal(await reads(scoped), 401, 'a change of scope ends them too');
      });

      it('refuses a token of a deleted client, even once a client of that id is made again', async () => {
        const admin = api(ward, await ccToken('admin-ops', SECRET));
        const secret = await newClient(admin, 'reborn');
        const old = await ccToken('reborn', secret);
        ward.clock.advance(1000);
        assert.equal((await admin.del('/api/v1/clients/reborn')).status, 204);
        assert.equal(await reads(old), 401);
        assert.equal(await active(old), false);
        await newClient(admin, 'reborn');
        assert.equal(await reads(old), 401);
        assert.equal(await active(old), false);
      });
    });
  }
}
