// The storage contract of the step-up statements that check the user and the factors in the same
// statement (insertForLiveUser, claimRequest, consumeWithUser, consumeWithInteraction), on SQLite and (when
// WARD_TEST_DATABASE_URL is set) PostgreSQL.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createStorage, type Storage } from '../../src/storage/storage.js';
import type { StepUpRow } from '../../src/storage/sql/mfa.js';
import { EMPTY_PROFILE } from '../../src/storage/sql/profiles.js';
import type { InteractionRow } from '../../src/storage/sql/interactions.js';
import { engines, freshDb } from '../helpers/databases.js';
import { userRow } from '../helpers/storage-rows.js';

for (const engine of engines()) {
  describe(`step_up storage on ${engine}`, () => {
    let s: Storage;
    const now = 1_700_000_000_000;
    const user = (id: string, disabled = false) => userRow(id, { disabled });
    const factor = (
      id: string,
      userId: string,
      type: 'email' | 'sms',
      destination: string,
      createdAt: number,
      verified = true,
    ) =>
      s.mfaCredentials.insert({
        id,
        user_id: userId,
        type,
        destination,
        friendly_name: null,
        verified_at: verified ? createdAt : null,
        created_at: createdAt,
      });
    const stepUp = (digest: string, userId: string, expiresAt = now + 300_000): StepUpRow => ({
      digest,
      user_id: userId,
      client_id: 'c1',
      params: '{}',
      base_amr: '["pwd"]',
      interaction_digest: null,
      requests: 0,
      created_at: now,
      expires_at: expiresAt,
      consumed_at: null,
    });

    const interaction = (digest: string, expiresAt = now + 300_000): InteractionRow => ({
      digest,
      client_id: 'c1',
      request: '{"scopes":["openid"]}',
      browser: null,
      step: 'stepup',
      user_id: null,
      amr: null,
      auth_time: null,
      created_at: now,
      expires_at: expiresAt,
    });
    const bound = (digest: string, userId: string, interactionDigest: string) => ({
      ...stepUp(digest, userId),
      interaction_digest: interactionDigest,
    });

    before(async () => {
      s = createStorage(await freshDb(engine));
      await s.users.create(user('both'), now);
      await factor('f1', 'both', 'sms', '+33600000001', now + 1);
      await factor('f2', 'both', 'email', 'old@example.com', now + 2);
      await factor('f3', 'both', 'email', 'new@example.com', now + 3);
      await factor('f4', 'both', 'sms', '+33600000002', now, false);
      await s.users.create(user('pending'), now);
      await factor('f5', 'pending', 'email', 'p@example.com', now, false);
      await s.users.create(user('off', true), now);
      await factor('f6', 'off', 'email', 'off@example.com', now);
    });
    after(async () => s.close());

    it('inserts a step_up only for an enabled user with a verified factor, and tells since when each type is there', async () => {
      assert.deepEqual(await s.stepUps.insertForLiveUser(stepUp('s-both', 'both')), {
        email: now + 2,
        sms: now + 1,
        totp: null,
        recovery: 0,
      });
      assert.equal((await s.stepUps.findLive('s-both', now))?.user_id, 'both');
      assert.deepEqual(await s.stepUps.findLive('s-both', now), stepUp('s-both', 'both'), 'the row as given');
      for (const [digest, userId] of [
        ['s-pending', 'pending'],
        ['s-off', 'off'],
        ['s-gone', 'gone'],
      ] as const) {
        assert.equal(await s.stepUps.insertForLiveUser(stepUp(digest, userId)), undefined, userId);
        assert.equal(await s.stepUps.findLive(digest, now), undefined, `${userId}: nothing stored`);
      }
    });

    it('claims a code request only on a live token of an enabled user with a verified factor of the type, to its oldest destination', async () => {
      await s.stepUps.insert(stepUp('c-both', 'both'));
      assert.deepEqual(await s.stepUps.claimRequest('c-both', now, 'email'), {
        user_id: 'both',
        requests: 1,
        expires_at: now + 300_000,
        destination: 'old@example.com',
      });
      assert.deepEqual(await s.stepUps.claimRequest('c-both', now, 'sms'), {
        user_id: 'both',
        requests: 2,
        expires_at: now + 300_000,
        destination: '+33600000001',
      });
      await s.stepUps.insert(stepUp('c-pending', 'pending'));
      await s.stepUps.insert(stepUp('c-off', 'off'));
      await s.stepUps.insert(stepUp('c-gone', 'gone'));
      await s.stepUps.insert(stepUp('c-expired', 'both', now));
      await s.stepUps.insert(stepUp('c-used', 'both'));
      await s.stepUps.consume('c-used', now);
      for (const [digest, type] of [
        ['c-pending', 'email'],
        ['c-off', 'email'],
        ['c-gone', 'email'],
        ['c-expired', 'email'],
        ['c-used', 'email'],
        ['nope', 'email'],
      ] as const) {
        assert.equal(await s.stepUps.claimRequest(digest, now, type), undefined, digest);
      }
      await s.users.create(user('email-only'), now);
      await factor('f7', 'email-only', 'email', 'e@example.com', now);
      await s.stepUps.insert(stepUp('c-email-only', 'email-only'));
      assert.equal(await s.stepUps.claimRequest('c-email-only', now, 'sms'), undefined, 'no sms factor');
      assert.equal((await s.stepUps.findLive('c-email-only', now))?.requests, 0, 'a refused claim counted nothing');
      assert.equal((await s.stepUps.findLive('c-pending', now))?.requests, 0, 'a refused claim counted nothing');
    });

    it('counts 20 concurrent claims without losing one', async () => {
      await s.stepUps.insert(stepUp('c-race', 'both'));
      const claims = await Promise.all(
        Array.from({ length: 20 }, () => s.stepUps.claimRequest('c-race', now, 'email')),
      );
      assert.deepEqual(
        claims.map((c) => c?.requests).sort((a, b) => a! - b!),
        Array.from({ length: 20 }, (_, i) => i + 1),
      );
    });

    it('consumes a step_up with its user exactly once under 20 concurrent callers', async () => {
      await s.stepUps.insert(stepUp('u-both', 'both'));
      const results = await Promise.all(Array.from({ length: 20 }, () => s.stepUps.consumeWithUser('u-both', now + 5)));
      const won = results.filter((r) => r !== undefined);
      assert.equal(won.length, 1);
      const { user: got, ...row } = won[0]!;
      assert.deepEqual(row, { ...stepUp('u-both', 'both'), consumed_at: now + 5 });
      assert.deepEqual(got, { ...user('both'), created_at: now, updated_at: now, lite: false });
      assert.deepEqual(got, await s.users.findById('both'), 'the same user as a read of its own');
      await s.stepUps.insert(stepUp('u-off', 'off'));
      assert.equal((await s.stepUps.consumeWithUser('u-off', now))?.user?.disabled, true);
      await s.stepUps.insert(stepUp('u-gone', 'gone'));
      const gone = await s.stepUps.consumeWithUser('u-gone', now);
      assert.equal(gone?.digest, 'u-gone');
      assert.equal(gone?.user, undefined, 'a user who is gone');
    });

    it("reads the user's lite profile in the consume's statement (its RETURNING, or its join on PostgreSQL)", async () => {
      await s.users.create(user('lite'), now);
      await s.stepUps.insert(stepUp('l-none', 'lite'));
      assert.equal((await s.stepUps.consumeWithUser('l-none', now))?.user?.lite, false, 'no profile: not lite');
      await s.profiles.put('lite', { ...EMPTY_PROFILE, lite_only: true }, now);
      await s.stepUps.insert(stepUp('l-with', 'lite'));
      const withUser = await s.stepUps.consumeWithUser('l-with', now);
      assert.equal(withUser?.user?.lite, true);
      assert.deepEqual(withUser?.user, await s.users.findById('lite'), 'the same user as a read of its own');
      await s.stepUps.insert(stepUp('l-int', 'lite'));
      assert.equal((await s.stepUps.consumeWithInteraction('l-int', now))?.user?.lite, true);
      await s.profiles.put('lite', { ...EMPTY_PROFILE, lite_only: false }, now + 1);
      await s.stepUps.insert(stepUp('l-int-off', 'lite'));
      assert.equal((await s.stepUps.consumeWithInteraction('l-int-off', now))?.user?.lite, false);
      await s.stepUps.insert(stepUp('l-both', 'both'));
      assert.equal((await s.stepUps.consumeWithInteraction('l-both', now))?.user?.lite, false);
    });

    it('stores the interaction with its step_up, and nothing of either when the step_up is refused', async () => {
      const since = await s.stepUps.insertForLiveUser(bound('i-both', 'both', 'int-both'), interaction('int-both'));
      assert.deepEqual(since, { email: now + 2, sms: now + 1, totp: null, recovery: 0 });
      assert.equal((await s.stepUps.findLive('i-both', now))?.interaction_digest, 'int-both');
      assert.deepEqual(await s.interactions.findLive('int-both', now), interaction('int-both'), 'the row as given');
      for (const userId of ['pending', 'off', 'gone']) {
        const refused = await s.stepUps.insertForLiveUser(bound(`i-${userId}`, userId, `int-${userId}`), {
          ...interaction(`int-${userId}`),
        });
        assert.equal(refused, undefined, userId);
        assert.equal(await s.stepUps.findLive(`i-${userId}`, now), undefined, `${userId}: no step_up`);
        assert.equal(await s.interactions.findLive(`int-${userId}`, now), undefined, `${userId}: no interaction`);
      }
    });

    it("consumes a step_up with its user and its API step-up's live interaction exactly once under 20 concurrent callers", async () => {
      await s.stepUps.insertForLiveUser(bound('t-both', 'both', 'int-t'), interaction('int-t'));
      const results = await Promise.all(
        Array.from({ length: 20 }, () => s.stepUps.consumeWithInteraction('t-both', now + 5)),
      );
      const won = results.filter((r) => r !== undefined);
      assert.equal(won.length, 1);
      const { user: got, interaction: read, ...row } = won[0]!;
      assert.deepEqual(row, { ...bound('t-both', 'both', 'int-t'), consumed_at: now + 5 });
      assert.deepEqual(got, await s.users.findById('both'));
      assert.deepEqual(read, interaction('int-t'), 'the interaction as stored');
      // None to read: an expired one, a hosted sign-in's (bound to a browser, at its mfa step), none at all
      // (the account page's step-up).
      await s.stepUps.insertForLiveUser(bound('t-expired', 'both', 'int-x'), interaction('int-x', now + 1));
      const expired = await s.stepUps.consumeWithInteraction('t-expired', now + 5);
      assert.equal(expired?.digest, 't-expired');
      assert.equal(expired?.interaction, undefined, 'an expired interaction');
      const hosted = { ...interaction('int-h'), browser: 'b'.repeat(64), step: 'mfa' };
      await s.stepUps.insertForLiveUser(bound('t-hosted', 'both', 'int-h'), hosted);
      assert.deepEqual(await s.interactions.findLive('int-h', now), hosted);
      assert.equal((await s.stepUps.consumeWithInteraction('t-hosted', now + 5))?.interaction, undefined, 'hosted');
      await s.stepUps.insertForLiveUser(stepUp('t-none', 'both'));
      const none = await s.stepUps.consumeWithInteraction('t-none', now + 5);
      assert.equal(none?.user?.id, 'both');
      assert.equal(none?.interaction, undefined, 'none bound');
      assert.equal(await s.stepUps.consumeWithInteraction('t-none', now + 5), undefined, 'used up');
      await s.stepUps.insert(stepUp('t-gone', 'gone'));
      assert.equal((await s.stepUps.consumeWithInteraction('t-gone', now))?.user, undefined, 'a user who is gone');
    });
  });
}
