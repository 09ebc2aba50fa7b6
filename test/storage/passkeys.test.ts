// The passkeys repository, on SQLite and (when WARD_TEST_DATABASE_URL is set) PostgreSQL.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createStorage, type Storage } from '../../src/storage/storage.js';
import { isUniqueViolation } from '../../src/storage/sql/errors.js';
import type { Passkey } from '../../src/storage/sql/passkeys.js';
import { engines, freshDb } from '../helpers/databases.js';

for (const engine of engines()) {
  describe(`passkeys storage on ${engine}`, () => {
    let s: Storage;
    before(async () => {
      s = createStorage(await freshDb(engine));
    });
    after(async () => s.close());

    const now = 1_700_000_000_000;
    const key = (id: string, userId: string, credentialId: string): Passkey => ({
      id,
      user_id: userId,
      credential_id: credentialId,
      public_key: 'pQECAyYgASFYIA',
      counter: 3,
      transports: ['internal', 'hybrid'],
      backed_up: false,
      device_type: 'singleDevice',
      friendly_name: 'Laptop',
      aaguid: '00000000-0000-0000-0000-000000000000',
      created_at: now,
      last_used_at: null,
      second_factor: false,
    });

    it('stores a passkey with its flags and transports, and finds it by credential ID', async () => {
      await s.passkeys.insert(key('p1', 'u1', 'cred-1'));
      const found = await s.passkeys.findByCredentialId('cred-1');
      assert.deepEqual(found, key('p1', 'u1', 'cred-1'));
      assert.equal(await s.passkeys.findByCredentialId('cred-unknown'), undefined);
    });

    it('marks a key registered as a second factor (unmarked by default)', async () => {
      const { second_factor: _, ...unmarked } = key('p9', 'u9', 'cred-9');
      await s.passkeys.insert(unmarked);
      assert.equal(await s.passkeys.hasSecondFactor('u9'), false);
      await s.passkeys.insert({ ...key('p10', 'u9', 'cred-10'), second_factor: true });
      assert.equal(await s.passkeys.hasSecondFactor('u9'), true);
      assert.deepEqual(
        (await s.passkeys.listOfUser('u9')).map((k) => [k.id, k.second_factor]),
        [
          ['p10', true],
          ['p9', false],
        ],
      );
      assert.equal(await s.passkeys.hasSecondFactor('u1'), false);
    });

    it('refuses a second passkey with the same credential ID, even for another user', async () => {
      await assert.rejects(s.passkeys.insert(key('p2', 'u2', 'cred-1')), (e) => isUniqueViolation(e));
    });

    it("lists a user's passkeys in creation order", async () => {
      await s.passkeys.insert({ ...key('p3', 'u1', 'cred-3'), created_at: now + 5 });
      await s.passkeys.insert({ ...key('p4', 'u3', 'cred-4'), created_at: now + 1 });
      assert.deepEqual(
        (await s.passkeys.listOfUser('u1')).map((k) => k.id),
        ['p1', 'p3'],
      );
    });

    it('records a use once per counter value read: a second writer with the old counter loses', async () => {
      const results = await Promise.all([
        s.passkeys.recordUse('p1', 3, { counter: 4, backed_up: true, now: now + 10 }),
        s.passkeys.recordUse('p1', 3, { counter: 4, backed_up: true, now: now + 10 }),
      ]);
      assert.deepEqual(results.sort(), [false, true]);
      const k = await s.passkeys.findByCredentialId('cred-1');
      assert.equal(k?.counter, 4);
      assert.equal(k?.backed_up, true);
      assert.equal(k?.last_used_at, now + 10);
    });

    it("deletes only the user's own passkey", async () => {
      assert.equal(await s.passkeys.delete('u2', 'p1'), false);
      assert.equal(await s.passkeys.delete('u1', 'p1'), true);
      assert.equal(await s.passkeys.delete('u1', 'p1'), false);
      assert.deepEqual(
        (await s.passkeys.listOfUser('u1')).map((k) => k.id),
        ['p3'],
      );
    });
  });
}
