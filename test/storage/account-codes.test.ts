// The account codes repository (codes and links sent to an address), on SQLite and PostgreSQL.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createStorage, type Storage } from '../../src/storage/storage.js';
import type { AccountCodeRow } from '../../src/storage/sql/account-codes.js';
import { engines, freshDb } from '../helpers/databases.js';

for (const engine of engines()) {
  describe(`account codes storage on ${engine}`, () => {
    let s: Storage;
    before(async () => {
      s = createStorage(await freshDb(engine));
    });
    after(async () => s.close());

    const now = 1_700_000_000_000;
    const row = (id: string, over: Partial<AccountCodeRow> = {}): AccountCodeRow => ({
      id,
      purpose: 'verify_email',
      user_id: 'u1',
      channel: 'email',
      destination: 'ann@example.com',
      code_hmac: `mac-${id}`,
      link_digest: `link-${id}`,
      client_id: 'c1',
      data: '{}',
      attempts: 0,
      max_attempts: 5,
      created_at: now,
      code_expires_at: now + 900_000,
      link_expires_at: now + 3_600_000,
      consumed_at: null,
      superseded_at: null,
      ...over,
    });

    it('a new row of the same user and purpose supersedes the live one; other purposes stay', async () => {
      await s.accountCodes.issue(row('a'), now);
      await s.accountCodes.issue(row('r', { purpose: 'reset_password', link_digest: 'link-r' }), now);
      await s.transaction(async (tx) => {
        await tx.accountCodes.lockUser('u1');
        await tx.accountCodes.issue(row('b', { created_at: now + 1 }), now + 1);
      });
      assert.deepEqual(
        (await s.accountCodes.liveForAddress('verify_email', 'ann@example.com')).map((r) => r.id),
        ['b'],
      );
      assert.equal((await s.accountCodes.findByLink('link-a'))?.superseded_at, now + 1);
      assert.deepEqual(
        (await s.accountCodes.liveForAddress('reset_password', 'ann@example.com')).map((r) => r.id),
        ['r'],
      );
    });

    it('counts attempts atomically and answers the counted row', async () => {
      const counted = await Promise.all([1, 2, 3].map(() => s.accountCodes.countAttempt('b')));
      assert.deepEqual(counted.map((r) => r?.attempts).sort(), [1, 2, 3]);
      assert.equal(await s.accountCodes.countAttempt('missing'), undefined);
    });

    it('consumes a live row once; a superseded row is never consumed', async () => {
      const won = await Promise.all([s.accountCodes.consume('b', now + 2), s.accountCodes.consume('b', now + 2)]);
      assert.deepEqual(won.sort(), [false, true]);
      assert.equal(await s.accountCodes.consume('a', now + 2), false);
      assert.deepEqual(await s.accountCodes.liveForAddress('verify_email', 'ann@example.com'), []);
    });

    it("kills a user's live rows of one purpose or all, and deletes them", async () => {
      await s.accountCodes.issue(row('c', { link_digest: null }), now + 3);
      await s.accountCodes.supersedeOfUser('u1', now + 4, 'reset_password');
      assert.equal((await s.accountCodes.liveForAddress('reset_password', 'ann@example.com')).length, 0);
      assert.equal((await s.accountCodes.liveForAddress('verify_email', 'ann@example.com')).length, 1);
      await s.accountCodes.supersedeOfUser('u1', now + 5);
      assert.equal((await s.accountCodes.liveForAddress('verify_email', 'ann@example.com')).length, 0);
      await s.accountCodes.deleteOfUser('u1');
      assert.equal(await s.accountCodes.findByLink('link-b'), undefined);
    });

    it('deletes rows whose code and link are both expired', async () => {
      await s.accountCodes.issue(row('old', { user_id: 'u2', code_expires_at: now, link_expires_at: now + 10 }), now);
      await s.accountCodes.deleteExpired(now + 5);
      assert.ok(await s.accountCodes.findByLink('link-old'));
      await s.accountCodes.deleteExpired(now + 11);
      assert.equal(await s.accountCodes.findByLink('link-old'), undefined);
    });

    it("finds a user's newest live row of some purposes (the account page's pending change)", async () => {
      const phone = { channel: 'sms', destination: '+33612345678', link_digest: null, user_id: 'u3' };
      await s.accountCodes.issue(row('p1', { ...phone, purpose: 'change_phone' }), now);
      await s.accountCodes.issue(row('p2', { ...phone, purpose: 'verify_phone', created_at: now + 1 }), now + 1);
      await s.accountCodes.issue(row('e1', { user_id: 'u3', purpose: 'change_email', link_digest: 'link-e1' }), now);
      const newest = (purposes: string[]) => s.accountCodes.newestLiveOfUser('u3', purposes);
      assert.equal((await newest(['change_phone', 'verify_phone']))?.id, 'p2');
      assert.equal((await newest(['change_phone']))?.id, 'p1');
      assert.equal((await newest(['change_email']))?.id, 'e1');
      await s.accountCodes.consume('p2', now + 2);
      await s.accountCodes.supersede('e1', now + 2);
      assert.equal((await newest(['change_phone', 'verify_phone']))?.id, 'p1');
      assert.equal(await newest(['change_email']), undefined);
      assert.equal(await s.accountCodes.newestLiveOfUser('u4', ['change_phone']), undefined);
    });
  });
}
