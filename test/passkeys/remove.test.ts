// Removing passkeys: never the last way to sign in, even when two removals of a user's last two
// passkeys run at once (the user's row is held for the check and the delete). SQLite and PostgreSQL.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DEFAULT_ACCOUNT } from '../../src/config/defaults.js';
import { FakeClock } from '../../src/lib/clock.js';
import { createPasskeys } from '../../src/passkeys/service.js';
import type { Passkey } from '../../src/storage/sql/passkeys.js';
import { createStorage, type Storage } from '../../src/storage/storage.js';
import { engines, freshDb } from '../helpers/databases.js';

for (const engine of engines()) {
  describe(`passkey removal on ${engine}`, () => {
    let s: Storage;
    const clock = new FakeClock(1_700_000_000_000);
    before(async () => {
      s = createStorage(await freshDb(engine));
    });
    after(async () => s.close());

    const passkeys = () =>
      createPasskeys({
        storage: s,
        clock,
        account: () => ({ ...DEFAULT_ACCOUNT, passkeys: { ...DEFAULT_ACCOUNT.passkeys, enabled: true } }),
        issuer: 'https://id.ward.test',
      });
    const key = (id: string, userId: string): Passkey => ({
      id,
      user_id: userId,
      credential_id: `cred-${id}`,
      public_key: 'pQECAyYgASFYIA',
      counter: 0,
      transports: ['internal'],
      backed_up: false,
      device_type: 'singleDevice',
      friendly_name: id,
      aaguid: null,
      created_at: clock.now(),
      last_used_at: null,
    });
    const user = async (id: string, password_hash: string | null) => {
      await s.users.create(
        {
          id,
          email: `${id}@example.com`,
          phone_number: null,
          password_hash,
          given_name: null,
          family_name: null,
          email_verified: false,
          phone_number_verified: false,
          role: null,
          disabled: false,
        },
        clock.now(),
      );
      return { id, password_hash };
    };

    it('two removals at once of the last two passkeys of a user without a password: one is refused', async () => {
      for (let round = 0; round < 5; round++) {
        const u = await user(`race-${round}`, null);
        await s.passkeys.insert(key(`a-${round}`, u.id));
        await s.passkeys.insert(key(`b-${round}`, u.id));
        const p = passkeys();
        const results = await Promise.allSettled([p.remove(u, `a-${round}`), p.remove(u, `b-${round}`)]);
        assert.equal(results.filter((r) => r.status === 'fulfilled').length, 1, JSON.stringify(results));
        const refused = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
        assert.equal(refused.reason.entry.key, 'error.webauthn.lastSignInMethod');
        assert.equal((await s.passkeys.listOfUser(u.id)).length, 1);
      }
    });

    it('with a password, the last passkey may go; a passkey of another user is not found', async () => {
      const u = await user('with-password', 'hash');
      await s.passkeys.insert(key('only', u.id));
      await assert.rejects(passkeys().remove({ id: 'someone-else', password_hash: 'h' }, 'only'), (e: any) => {
        return e.entry.key === 'error.notFound';
      });
      await passkeys().remove(u, 'only');
      assert.deepEqual(await s.passkeys.listOfUser(u.id), []);
    });
  });
}
