// The consents repository's contract (storage/sql/consents.ts), on SQLite and (when
// WARD_TEST_DATABASE_URL is set) PostgreSQL: grants widen, never narrow; parallel grants all count;
// revoking deletes one user's consent to one client; a user's erasure takes their consents.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createStorage, type Storage } from '../../src/storage/storage.js';
import { engines, freshDb } from '../helpers/databases.js';

for (const engine of engines()) {
  describe(`consents storage on ${engine}`, () => {
    let s: Storage;
    before(async () => {
      s = createStorage(await freshDb(engine));
    });
    after(async () => s.close());
    const now = 1_700_000_000_000;

    it('grants, widens with new scopes, lists per user and revokes', async () => {
      assert.equal(await s.consents.find('u1', 'app'), undefined);
      assert.deepEqual(await s.consents.grant('u1', 'app', ['profile', 'openid'], now), ['openid', 'profile']);
      assert.deepEqual(await s.consents.grant('u1', 'app', ['email', 'openid'], now + 5), [
        'email',
        'openid',
        'profile',
      ]);
      const got = await s.consents.find('u1', 'app');
      assert.deepEqual(got, {
        user_id: 'u1',
        client_id: 'app',
        scopes: ['email', 'openid', 'profile'],
        created_at: now,
        updated_at: now + 5,
      });
      await s.consents.grant('u1', 'other', ['openid'], now);
      await s.consents.grant('u2', 'app', ['openid'], now);
      assert.deepEqual(
        (await s.consents.listForUser('u1')).map((c) => c.client_id),
        ['app', 'other'],
      );
      assert.deepEqual(await s.consents.revoke('u1', 'app', now), { revoked: true, grants: 0 });
      assert.deepEqual(await s.consents.revoke('u1', 'app', now), { revoked: false, grants: 0 });
      assert.equal(await s.consents.find('u1', 'app'), undefined);
      assert.deepEqual((await s.consents.find('u2', 'app'))?.scopes, ['openid'], "another user's consent stays");
      assert.equal(await s.consents.revokeClient('app'), 1);
      assert.equal(await s.consents.find('u2', 'app'), undefined);
    });

    it("revoking ends the client's grants of that user, and only those", async () => {
      const grant = (id: string, user: string, client: string) =>
        s.tokens.createGrant({
          id,
          user_id: user,
          client_id: client,
          session_id: null,
          scope: 'openid',
          auth_time: now,
          amr: '["pwd"]',
          created_at: now,
          expires_at: now + 60_000,
          revoked_at: null,
          resource: null,
          step_up_action: null,
        });
      await grant('g1', 'u5', 'app');
      await grant('g2', 'u5', 'app');
      await grant('g3', 'u5', 'other');
      await grant('g4', 'u6', 'app');
      await s.consents.grant('u5', 'app', ['openid'], now);
      assert.deepEqual(await s.consents.revoke('u5', 'app', now + 1), { revoked: true, grants: 2 });
      assert.equal((await s.tokens.findGrant('g1'))?.revoked_at, now + 1);
      assert.equal((await s.tokens.findGrant('g2'))?.revoked_at, now + 1);
      assert.equal((await s.tokens.findGrant('g3'))?.revoked_at, null, "another client's grant stays");
      assert.equal((await s.tokens.findGrant('g4'))?.revoked_at, null, "another user's grant stays");
    });

    it('parallel grants of different scopes all count', async () => {
      const scopes = ['a', 'b', 'c', 'd', 'e', 'f'];
      await Promise.all(scopes.map((sc) => s.consents.grant('u3', 'app', [sc], now)));
      assert.deepEqual((await s.consents.find('u3', 'app'))?.scopes, scopes);
    });

    it("a user's erasure deletes their consents", async () => {
      await s.users.create(
        {
          id: 'u4',
          email: 'erase@example.com',
          phone_number: null,
          password_hash: 'h',
          given_name: null,
          family_name: null,
          email_verified: false,
          phone_number_verified: false,
          role: null,
          disabled: false,
        },
        now,
      );
      await s.consents.grant('u4', 'app', ['openid'], now);
      const counts = await s.transaction((tx) => tx.userErasure.erase('u4', []));
      assert.equal(counts.consents, 1);
      assert.equal(await s.consents.find('u4', 'app'), undefined);
    });
  });
}
