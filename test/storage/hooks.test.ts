// The hooks repositories' contract (storage/sql/hooks.ts), on SQLite and (when WARD_TEST_DATABASE_URL
// is set) PostgreSQL: the enabled hooks of an event in the order they run, changes, the record of
// calls newest first by seq, and a hook's removal with its calls.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createStorage, type Storage } from '../../src/storage/storage.js';
import type { HookRow } from '../../src/storage/sql/hooks.js';
import { engines, freshDb } from '../helpers/databases.js';

for (const engine of engines()) {
  describe(`hooks storage on ${engine}`, () => {
    let s: Storage;
    before(async () => {
      s = createStorage(await freshDb(engine));
    });
    after(async () => s.close());
    const now = 1_700_000_000_000;
    const hook = (id: string, event: string, at: number, enabled = 1): HookRow => ({
      id,
      url: 'https://hooks.example/h',
      event,
      timeout_ms: 2000,
      failure_policy: 'closed',
      enabled,
      description: '',
      secret_sealed: 'sealed',
      created_at: at,
      updated_at: at,
    });

    it('lists the enabled hooks of an event, oldest first; updates and removes one with its calls', async () => {
      await s.hooks.insert(hook('hk_b', 'before.signup', now + 1));
      await s.hooks.insert(hook('hk_a', 'before.signup', now));
      await s.hooks.insert(hook('hk_off', 'before.signup', now, 0));
      await s.hooks.insert(hook('hk_t', 'before.token', now));
      assert.deepEqual(
        (await s.hooks.enabledFor('before.signup')).map((h) => h.id),
        ['hk_a', 'hk_b'],
      );
      assert.deepEqual(await s.hooks.find('hk_t'), hook('hk_t', 'before.token', now));
      assert.equal(await s.hooks.update('hk_a', { enabled: 0, updated_at: now + 9 }), true);
      assert.equal(await s.hooks.update('hk_none', { enabled: 0 }), false);
      assert.deepEqual(
        (await s.hooks.enabledFor('before.signup')).map((h) => h.id),
        ['hk_b'],
      );
      assert.equal((await s.hooks.list()).length, 4);

      const call = (id: string, seq: number) => ({
        id,
        hook_id: 'hk_b',
        event: 'before.signup',
        at: now,
        seq,
        outcome: 'allowed',
        status: 200,
        latency_ms: 3,
        error: null,
        response: '{"decision":"allow"}',
      });
      await s.hookCalls.record(call('c1', now * 1000 + 1));
      await s.hookCalls.record(call('c3', now * 1000 + 3));
      await s.hookCalls.record({ ...call('c2', now * 1000 + 2), outcome: 'failed_open', status: null, error: 'x' });
      const listed = await s.hookCalls.listOfHook('hk_b', 2);
      assert.deepEqual(
        listed.map((c) => c.id),
        ['c3', 'c2'],
      );
      assert.deepEqual(listed[1], { ...call('c2', now * 1000 + 2), outcome: 'failed_open', status: null, error: 'x' });
      await s.hookCalls.removeOfHook('hk_b');
      assert.equal(await s.hooks.remove('hk_b'), true);
      assert.equal(await s.hooks.remove('hk_b'), false);
      assert.deepEqual(await s.hookCalls.listOfHook('hk_b', 10), []);
    });
  });
}
