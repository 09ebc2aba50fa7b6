// What DPoP stores (protocol/dpop/), on SQLite and (when WARD_TEST_DATABASE_URL is set) PostgreSQL: a
// proof's jti is claimed once, by exactly one of concurrent claims, and kept until it expires; a grant is
// bound to one key, which a later binding does not change, and its refresh tokens read it.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createStorage, type Storage } from '../../src/storage/storage.js';
import { engines, freshDb } from '../helpers/databases.js';
import { grantRow } from '../helpers/storage-rows.js';

for (const engine of engines()) {
  describe(`DPoP storage on ${engine}`, () => {
    let s: Storage;
    before(async () => {
      s = createStorage(await freshDb(engine));
    });
    after(async () => s.close());
    const now = 1_700_000_000_000;
    const proof = (digest: string, expires_at = now + 300_000) => ({
      digest,
      kind: 'dpop_proof',
      user_id: '',
      client_id: '',
      payload: '',
      expires_at,
      consumed_at: now,
      created_at: now,
    });

    it('claims a proof once, one winner among concurrent claims, until it is cleaned after expiry', async () => {
      assert.equal(await s.oneTime.claim(proof('p1')), true);
      assert.equal(await s.oneTime.claim(proof('p1')), false, 'a replay');
      const wins = await Promise.all(Array.from({ length: 10 }, () => s.oneTime.claim(proof('p2'))));
      assert.equal(wins.filter(Boolean).length, 1);
      await s.oneTime.deleteExpired(now + 300_001);
      assert.equal(await s.oneTime.claim(proof('p1', now + 600_000)), true, 'gone once expired and cleaned');
    });

    it('binds a grant to one key, read with its refresh tokens', async () => {
      await s.tokens.createGrant(grantRow('g1', 'u1', now));
      const row = {
        digest: 'r1',
        grant_id: 'g1',
        client_id: 'spa',
        user_id: 'u1',
        scope: 'openid',
        created_at: now,
        consumed_at: null,
      };
      await s.tokens.insertRefreshToken(row);
      assert.equal((await s.tokens.findRefreshTokenWithGrant('r1'))?.grant_dpop_jkt, null);
      await s.tokens.bindGrantKey('g1', 'key-a');
      await s.tokens.bindGrantKey('g1', 'key-b');
      assert.equal((await s.tokens.findRefreshTokenWithGrant('r1'))?.grant_dpop_jkt, 'key-a', 'the first key stays');
    });
  });
}
