// The webhook outbox's queue on both engines: a claim takes only the oldest pending delivery of each
// endpoint (order per endpoint), leases it, and concurrent claims (several processes) never take the
// same row; a finished delivery, delivered or failed, lets its endpoint's next one go.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Db } from '../../src/storage/connect.js';
import { createStorage, type Storage } from '../../src/storage/storage.js';
import { writeEvents } from '../../src/webhooks/outbox.js';
import { engines, freshDb } from '../helpers/databases.js';

const endpoint = (id: string) => ({
  id,
  url: `https://${id}.example/hook`,
  events: '["*"]',
  enabled: 1,
  description: '',
  secret_sealed: 'sealed',
  previous_secret_sealed: null,
  previous_secret_until: null,
  created_at: 1,
  updated_at: 1,
});

for (const engine of engines()) {
  describe(`webhook deliveries queue (${engine})`, () => {
    let db: Db;
    let storage: Storage;
    before(async () => {
      db = await freshDb(engine);
      storage = createStorage(db);
    });
    after(() => db.close());

    it('claims the oldest pending delivery per endpoint, concurrently without a double claim', async () => {
      await storage.webhookEndpoints.insert(endpoint('ep_a'));
      await storage.webhookEndpoints.insert(endpoint('ep_b'));
      const now = 1_000_000;
      const events = [1, 2, 3].map((i) => ({ type: 'user.created' as const, at: now, data: { user_id: `u${i}` } }));
      assert.equal(await storage.transaction((tx) => writeEvents(tx, events, now)), 6);
      const all = await Promise.all([1, 2, 3, 4].map(() => storage.webhookDeliveries.claimDue(now, now + 60_000, 10)));
      const claimed = all.flat();
      assert.equal(claimed.length, 2, 'one per endpoint');
      assert.deepEqual(claimed.map((d) => d.endpoint_id).sort(), ['ep_a', 'ep_b']);
      const firstA = claimed.find((d) => d.endpoint_id === 'ep_a')!;
      const eventOf = async (id: string) => (await storage.webhookDeliveries.findEvent(id))!.data;
      assert.equal(JSON.parse(await eventOf(firstA.event_id)).user_id, 'u1');
      assert.equal(firstA.attempts, 1);
      // Leased: nothing is due, not even the endpoints' next deliveries.
      assert.deepEqual(await storage.webhookDeliveries.claimDue(now + 1, now + 60_000, 10), []);
      // A's first delivered and B's first given up: each endpoint's second goes next.
      await storage.webhookDeliveries.finish(firstA.id, 'delivered', now, null);
      const firstB = claimed.find((d) => d.endpoint_id === 'ep_b')!;
      await storage.webhookDeliveries.finish(firstB.id, 'failed', now, 'HTTP 500');
      const next = await storage.webhookDeliveries.claimDue(now + 1, now + 60_000, 10);
      assert.equal(next.length, 2);
      for (const d of next) assert.equal(JSON.parse(await eventOf(d.event_id)).user_id, 'u2');
      // A lease that runs out (a process died) makes the row due again.
      const again = await storage.webhookDeliveries.claimDue(now + 60_001, now + 120_000, 10);
      assert.deepEqual(again.map((d) => d.id).sort(), next.map((d) => d.id).sort());
      assert.ok(
        again.every((d) => d.attempts === 2),
        'the attempt counted',
      );
      assert.deepEqual(await storage.webhookDeliveries.backlog(), { pending: 4, oldest: now });
    });
  });
}
