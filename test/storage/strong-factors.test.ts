// The storage contract of authenticator apps and recovery codes (stepup/strong-factors.ts), on SQLite and
// (when WARD_TEST_DATABASE_URL is set) PostgreSQL: a TOTP step accepted once and only forward, a recovery
// code used once by exactly one of parallel callers, a new set replacing the old, and a step-up of a
// user whose only factor is an authenticator app telling it with the unused recovery codes; the skips of a
// required enrolment counted up to the grace count.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createStorage, type Storage } from '../../src/storage/storage.js';
import { engines, freshDb } from '../helpers/databases.js';

for (const engine of engines()) {
  describe(`authenticator app and recovery code storage on ${engine}`, () => {
    let s: Storage;
    const now = 1_700_000_000_000;
    before(async () => {
      s = createStorage(await freshDb(engine));
      await s.users.create(
        {
          id: 'u1',
          email: 'u1@example.com',
          phone_number: null,
          password_hash: null,
          given_name: null,
          family_name: null,
          email_verified: true,
          phone_number_verified: false,
          role: null,
          disabled: false,
        },
        now,
      );
      await s.mfaCredentials.insert({
        id: 'c1',
        user_id: 'u1',
        type: 'totp',
        destination: 'authenticator',
        friendly_name: null,
        verified_at: now + 5,
        created_at: now,
      });
    });
    after(async () => s.close());

    it('accepts a time step once, and only after the last one used', async () => {
      await s.totpSecrets.put({
        credential_id: 'c1',
        user_id: 'u1',
        secret_sealed: 'v1.x',
        last_step: null,
        created_at: now,
      });
      const results = await Promise.all([1, 2, 3, 4].map(() => s.totpSecrets.advanceStep('c1', 100)));
      assert.equal(results.filter(Boolean).length, 1, 'one caller wins a step');
      assert.equal(await s.totpSecrets.advanceStep('c1', 99), false, 'an earlier step');
      assert.equal(await s.totpSecrets.advanceStep('c1', 101), true, 'a later step');
      assert.equal((await s.totpSecrets.find('c1'))?.last_step, 101);
      // A new enrolment of the pending factor replaces the secret and forgets the step.
      await s.totpSecrets.put({
        credential_id: 'c1',
        user_id: 'u1',
        secret_sealed: 'v1.y',
        last_step: null,
        created_at: now,
      });
      assert.deepEqual(await s.totpSecrets.find('c1'), {
        credential_id: 'c1',
        user_id: 'u1',
        secret_sealed: 'v1.y',
        last_step: null,
        created_at: now,
      });
    });

    it('uses a recovery code once; a new set voids the old; a step-up tells the app and the codes left', async () => {
      const row = (id: string) => ({ id, user_id: 'u1', code_hash: `h-${id}`, created_at: now, used_at: null });
      await s.transaction((tx) => tx.recoveryCodes.replaceAll('u1', [row('a'), row('b'), row('c')]));
      assert.equal(await s.recoveryCodes.countUnused('u1'), 3);
      const won = await Promise.all([1, 2, 3].map(() => s.recoveryCodes.use('a', now)));
      assert.equal(won.filter(Boolean).length, 1);
      assert.deepEqual((await s.recoveryCodes.unused('u1')).map((r) => r.id).sort(), ['b', 'c']);

      const since = await s.stepUps.insertForLiveUser({
        digest: 'd1',
        user_id: 'u1',
        client_id: 'c',
        params: '{}',
        base_amr: '["pwd"]',
        interaction_digest: null,
        requests: 0,
        created_at: now,
        expires_at: now + 300_000,
        consumed_at: null,
      });
      assert.deepEqual(since, { email: null, sms: null, totp: now, recovery: 2 });

      await s.transaction((tx) => tx.recoveryCodes.replaceAll('u1', [row('d')]));
      assert.deepEqual(
        (await s.recoveryCodes.unused('u1')).map((r) => r.id),
        ['d'],
      );
      assert.equal(await s.recoveryCodes.use('b', now), false, 'the old set is gone');
      await s.recoveryCodes.deleteAllOfUser('u1');
      assert.equal(await s.recoveryCodes.countUnused('u1'), 0);
    });

    it('counts skips of a required enrolment up to the grace count, one winner at the last', async () => {
      assert.equal(await s.enrolmentSkips.count('u1'), 0);
      assert.equal(await s.enrolmentSkips.take('u1', 0, now), null, 'no grace: no skip');
      assert.equal(await s.enrolmentSkips.take('u1', 3, now), 1);
      assert.equal(await s.enrolmentSkips.take('u1', 3, now + 1), 2);
      const won = await Promise.all([1, 2, 3].map(() => s.enrolmentSkips.take('u1', 3, now + 2)));
      assert.deepEqual(
        won.filter((n) => n !== null),
        [3],
      );
      assert.equal(await s.enrolmentSkips.take('u1', 3, now + 3), null);
      assert.equal(await s.enrolmentSkips.count('u1'), 3);
      assert.equal(await s.enrolmentSkips.take('u1', 4, now + 4), 4, 'a larger grace count gives more');
    });
  });
}
