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
      assert.deepEqual(await storage.webhookDeliveries.backlog('ep_a'), { pending: 2, oldest: now });
    });

    it("keeps an endpoint's failure streak, disables it once, and tells what waits", async () => {
      assert.equal(await storage.webhookEndpoints.anyEnabled(), true);
      assert.equal(await storage.webhookDeliveries.anyPending(), true);
      const t = 5_000_000;
      await storage.webhookEndpoints.failed('ep_a', t);
      const second = await storage.webhookEndpoints.failed('ep_a', t + 10);
      assert.equal(second?.consecutive_failures, 2);
      assert.equal(second?.failing_since, t, 'the streak starts at its first failure');
      assert.equal(second?.last_failure_at, t + 10);
      await storage.webhookEndpoints.succeeded('ep_a', t + 20);
      const ok = await storage.webhookEndpoints.find('ep_a');
      assert.deepEqual([ok?.consecutive_failures, ok?.failing_since, ok?.last_success_at], [0, null, t + 20]);
      // Two processes disabling together: one does it.
      const both = await Promise.all([
        storage.webhookEndpoints.disableFailing('ep_b', t),
        storage.webhookEndpoints.disableFailing('ep_b', t),
      ]);
      assert.deepEqual(both.sort(), [false, true]);
      const b = await storage.webhookEndpoints.find('ep_b');
      assert.deepEqual([b?.enabled, b?.disabled_reason, b?.disabled_at], [0, 'failing', t]);
      await storage.webhookEndpoints.update('ep_a', { enabled: 0 });
      assert.equal(await storage.webhookEndpoints.anyEnabled(), false);
    });

    it("finds an endpoint's events of a time range, oldest first, once each; counts its attempts", async () => {
      await storage.webhookEndpoints.insert(endpoint('ep_c'));
      const at = [10, 20, 30, 40].map((i) => 9_000_000 + i);
      const events = at.map((when, i) => ({ type: 'user.created' as const, at: when, data: { user_id: `r${i}` } }));
      await storage.transaction((tx) => writeEvents(tx, events, 9_000_000, 'ep_c'));
      const ids = await storage.webhookDeliveries.eventsOfEndpointBetween('ep_c', at[1]!, at[2]!, 10);
      const users = [];
      for (const id of ids) users.push(JSON.parse((await storage.webhookDeliveries.findEvent(id))!.data).user_id);
      assert.deepEqual(users, ['r1', 'r2']);
      assert.equal((await storage.webhookDeliveries.eventsOfEndpointBetween('ep_c', 0, at[3]!, 3)).length, 3);
      const [first] = await storage.webhookDeliveries.listOfEndpoint('ep_c', 1);
      for (const [i, status] of [200, 503, null, 204].entries())
        await storage.webhookDeliveries.recordAttempt({
          id: `att_${i}`,
          delivery_id: first!.id,
          at: 9_500_000 + i,
          status,
          latency_ms: 1,
          error: null,
          response: '',
        });
      assert.deepEqual(await storage.webhookDeliveries.attemptStats('ep_c', 9_500_001), { total: 3, succeeded: 1 });
      assert.deepEqual(await storage.webhookDeliveries.attemptStats('ep_a', 0), { total: 0, succeeded: 0 });
    });
  });
}
