// A user's passkeys through the management API: listed without key material (read:users), removed by a
// Manager (manage:users, audited), not by a Viewer; an unknown passkey or user is a 404. Both engines.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { engines } from '../helpers/databases.js';
import { api, CONSOLE_CLIENT, consoleToken } from '../helpers/management.js';
import { PUBLIC_CLIENT, signup } from '../helpers/oauth.js';
import { startWard, type TestWard } from '../helpers/ward.js';

for (const engine of engines()) {
  describe(`management API: a user's passkeys on ${engine}`, () => {
    let ward: TestWard;
    before(async () => {
      ward = await startWard({ engine, clients: [CONSOLE_CLIENT, PUBLIC_CLIENT] });
    });
    after(() => ward.close());

    it('lists them without key material; a Viewer cannot remove, a Manager can', async () => {
      const u = await signup(ward);
      await ward.registry.storage.passkeys.insert({
        id: 'pk-1',
        user_id: u.id,
        credential_id: 'cred-pk-1',
        public_key: 'pQECAyYgASFYIA',
        counter: 3,
        transports: ['internal'],
        backed_up: true,
        device_type: 'multiDevice',
        friendly_name: 'Phone',
        aaguid: null,
        created_at: ward.clock.now(),
        last_used_at: null,
      });
      const viewer = api(ward, (await consoleToken(ward, 'viewer')).token);
      const listed = await viewer.get(`/api/v1/users/${u.id}/passkeys`);
      assert.equal(listed.status, 200);
      assert.deepEqual(Object.keys(listed.body[0]).sort(), [
        'aaguid',
        'backed_up',
        'created_at',
        'device_type',
        'friendly_name',
        'id',
        'last_used_at',
      ]);
      assert.equal((await viewer.del(`/api/v1/users/${u.id}/passkeys/pk-1`)).status, 403);
      const manager = api(ward, (await consoleToken(ward, 'manager')).token);
      assert.equal((await manager.del(`/api/v1/users/${u.id}/passkeys/nope`)).status, 404);
      assert.equal((await manager.del(`/api/v1/users/${u.id}/passkeys/pk-1`)).status, 204);
      assert.deepEqual(await ward.registry.storage.passkeys.listOfUser(u.id), []);
      assert.equal((await manager.get(`/api/v1/users/${'0'.repeat(32)}/passkeys`)).status, 404);
    });
  });
}
