// Operating webhooks (issue #35 items 3 and 4): the sender polls only while there is something to
// send, and learns of another process's endpoints through the change counter; an endpoint failing
// for a day is disabled, audited and shown so; a time range is replayed; the health and the metrics
// tell how deliveries go. Real receivers on loopback, both engines.
import assert from 'node:assert/strict';
import { after, afterEach, before, beforeEach, describe, it } from 'node:test';
import { engines } from '../helpers/databases.js';
import { api } from '../helpers/management.js';
import { metricValue } from '../helpers/metrics.js';
import { PUBLIC_CLIENT } from '../helpers/oauth.js';
import { startWard, type TestWard } from '../helpers/ward.js';
import { deliverUntil, MANAGER, managerToken } from './manager.js';
import { Receiver } from './receiver.js';

const HOUR = 3600_000;

/** Waits (real time) until `ok` holds, up to `ms`. */
async function eventually(ok: () => boolean, ms = 3000): Promise<boolean> {
  for (const end = Date.now() + ms; !ok() && Date.now() < end; ) await new Promise((r) => setTimeout(r, 25));
  return ok();
}

for (const engine of engines()) {
  describe(`webhook operations (${engine})`, () => {
    let ward: TestWard;
    let receiver: Receiver;
    let admin: ReturnType<typeof api>;
    const signIn = async () => {
      admin = api(ward, await managerToken(ward));
    };

    before(async () => {
      ward = await startWard({ engine, clients: [PUBLIC_CLIENT, MANAGER] });
    });
    after(() => ward.close());
    afterEach(() => receiver.close());
    beforeEach(async () => {
      await signIn();
      for (const w of (await admin.get('/api/v1/webhooks')).body.webhooks)
        await admin.del(`/api/v1/webhooks/${w.id as string}`);
      receiver = new Receiver();
      await receiver.start();
    });

    async function endpoint(events: string[]): Promise<{ id: string; secret: string }> {
      const made = await admin.post('/api/v1/webhooks', { url: receiver.url, events });
      assert.equal(made.status, 201, JSON.stringify(made.body));
      return { id: made.body.id, secret: made.body.secret };
    }
    const newUser = async (email: string) =>
      (await admin.post('/api/v1/users', { email, password: 'a long good password' })).body.id as string;

    it('polls the queue only while an endpoint is enabled; another process learns of it too', async () => {
      const sender = ward.registry.webhookDelivery;
      await sender.refresh();
      assert.equal(sender.polling, false, 'no endpoint: no poll');
      const storage = ward.registry.storage.webhookDeliveries;
      const claim = storage.claimDue;
      let claims = 0;
      storage.claimDue = (...args) => {
        claims++;
        return claim(...args);
      };
      try {
        await new Promise((r) => setTimeout(r, 1300));
        assert.equal(claims, 0, 'the one-second timer did not poll');
        const { id } = await endpoint(['*']);
        assert.equal(sender.polling, true, 'creating an endpoint starts the polls');
        assert.ok(await eventually(() => claims >= 2), 'the timer polls again');
        assert.equal((await admin.patch(`/api/v1/webhooks/${id}`, { enabled: false })).status, 200);
        assert.ok(await eventually(() => !sender.polling), 'disabled: the polls stop');
        assert.equal((await admin.patch(`/api/v1/webhooks/${id}`, { enabled: true })).status, 200);
        assert.equal(sender.polling, true);
        // Processes share PostgreSQL (SQLite serves one): another one learns of it by the change counter.
        if (engine === 'postgres') {
          const other = await startWard({
            engine,
            clients: [PUBLIC_CLIENT, MANAGER],
            database: ward.database,
            keepDatabase: true,
          });
          try {
            assert.ok(await eventually(() => other.registry.webhookDelivery.polling), 'the other process polls');
            assert.equal((await admin.patch(`/api/v1/webhooks/${id}`, { enabled: false })).status, 200);
            assert.ok(await eventually(() => !other.registry.webhookDelivery.polling), 'disabled elsewhere: stops');
            assert.equal((await admin.patch(`/api/v1/webhooks/${id}`, { enabled: true })).status, 200);
            assert.ok(await eventually(() => other.registry.webhookDelivery.polling), 'enabled elsewhere: polls');
          } finally {
            await other.close();
          }
        }
      } finally {
        storage.claimDue = claim;
      }
    });

    it('disables an endpoint failing for a day: audited, logged, in the API and the metrics', async () => {
      const { id } = await endpoint(['user.created']);
      receiver.answer = (res) => res.writeHead(500).end('down');
      await newUser(`failing-${engine}@example.com`);
      await deliverUntil(ward, () => receiver.received.length === 1);
      await signIn();
      let health = (await admin.get(`/api/v1/webhooks/${id}/health`)).body;
      assert.equal(health.consecutive_failures, 1);
      assert.equal(health.last_success_at, null);
      assert.equal(health.success_rate_24h, 0);
      assert.equal(health.pending, 1);
      // Retried for a day, failing every time: the endpoint is disabled and the delivery failed.
      const disabled = async () => (await ward.registry.storage.webhookEndpoints.find(id))?.enabled === 0;
      for (let i = 0; i < 40 && !(await disabled()); i++) {
        ward.clock.advance(HOUR);
        await ward.registry.webhookDelivery.tick();
      }
      assert.ok(await disabled(), 'disabled after a day of failures');
      await signIn();
      const shown = (await admin.get(`/api/v1/webhooks/${id}`)).body;
      assert.equal(shown.enabled, false);
      assert.equal(shown.disabled_reason, 'failing');
      assert.ok(shown.disabled_at);
      assert.ok(shown.consecutive_failures >= 5, JSON.stringify(shown));
      const audit = await ward.registry.storage.audit.list({ target: `webhook:${id}`, limit: 10 });
      const row = audit.find((a) => a.action === 'webhook.disabled');
      assert.ok(row, 'audited');
      assert.equal(row.actor_type, 'system');
      assert.equal(JSON.parse(row.details).reason, 'failing');
      const [delivery] = (await admin.get(`/api/v1/webhooks/${id}/deliveries`)).body.deliveries;
      assert.equal(delivery.status, 'failed');
      const metrics = await (await ward.fetch('/metrics')).text();
      assert.equal(metricValue(metrics, 'ward_webhook_endpoints_disabled_total'), 1);
      assert.ok(metricValue(metrics, 'ward_webhook_deliveries_total{outcome="retry"}') >= 5);
      health = (await admin.get(`/api/v1/webhooks/${id}/health`)).body;
      assert.equal(health.enabled, false);
      assert.equal(health.disabled_reason, 'failing');
      // Enabled again by an operator: Ward's disabling and the streak are forgotten.
      const enabled = (await admin.patch(`/api/v1/webhooks/${id}`, { enabled: true })).body;
      assert.deepEqual([enabled.enabled, enabled.disabled_reason, enabled.consecutive_failures], [true, null, 0]);
      assert.equal((await admin.get('/api/v1/webhooks/ep_nope/health')).status, 404);
    });

    it('replays every event of a time range to an endpoint, in order; reports health and metrics', async () => {
      const { id } = await endpoint(['user.created']);
      const t0 = ward.clock.now();
      const users = [];
      for (const i of [1, 2, 3]) {
        users.push(await newUser(`replay-${engine}-${i}@example.com`));
        ward.clock.advance(60_000);
      }
      await deliverUntil(ward, () => receiver.delivered().length === 3);
      await signIn();
      const before = await (await ward.fetch('/metrics')).text();
      // The last two, sent again: the same events (same webhook-ids), in their order.
      const from = new Date(t0 + 30_000).toISOString();
      const to = new Date(ward.clock.now()).toISOString();
      const replay = await admin.post(`/api/v1/webhooks/${id}/replay`, { from, to });
      assert.equal(replay.status, 202, JSON.stringify(replay.body));
      assert.equal(replay.body.deliveries, 2);
      assert.equal(replay.body.truncated, false);
      await deliverUntil(ward, () => receiver.delivered().length === 5);
      const again = receiver.delivered().slice(3);
      assert.deepEqual(
        again.map((e) => e.data.user_id),
        users.slice(1),
      );
      assert.deepEqual(
        again.map((e) => e.id),
        receiver
          .delivered()
          .slice(1, 3)
          .map((e) => e.id),
      );
      // (Signed like any delivery: the earlier tests moved the clock past the library's timestamp window.)
      assert.deepEqual(
        receiver.received.slice(3).map((r) => r.headers['webhook-id']),
        again.map((e) => e.id),
      );
      const after = await (await ward.fetch('/metrics')).text();
      const delivered = 'ward_webhook_deliveries_total{outcome="delivered"}';
      assert.equal(metricValue(after, delivered) - metricValue(before, delivered), 2);
      assert.equal(metricValue(after, 'ward_webhook_queue_depth'), 0);
      assert.equal(metricValue(after, 'ward_webhook_oldest_pending_age_seconds'), 0);
      const audit = await ward.registry.storage.audit.list({ target: `webhook:${id}`, limit: 10 });
      assert.ok(audit.some((a) => a.action === 'webhook.replayed' && JSON.parse(a.details).deliveries === 2));

      const health = (await admin.get(`/api/v1/webhooks/${id}/health`)).body;
      assert.equal(health.consecutive_failures, 0);
      assert.equal(health.attempts_24h, 5);
      assert.equal(health.success_rate_24h, 1);
      assert.ok(health.last_success_at);
      assert.equal(health.pending, 0);

      // A delivery waiting shows in the queue metrics.
      receiver.answer = (res) => res.writeHead(503).end();
      await newUser(`replay-${engine}-late@example.com`);
      await deliverUntil(ward, () => receiver.received.length === 6);
      ward.clock.advance(90_000);
      const waiting = await (await ward.fetch('/metrics')).text();
      assert.equal(metricValue(waiting, 'ward_webhook_queue_depth'), 1);
      assert.ok(metricValue(waiting, 'ward_webhook_oldest_pending_age_seconds') >= 90);

      // Bad ranges: 400 with a message key.
      await signIn();
      for (const body of [{ from: to, to: from }, { from: 'yesterday', to }, { from }]) {
        const bad = await admin.post(`/api/v1/webhooks/${id}/replay`, body);
        assert.equal(bad.status, 400, JSON.stringify(body));
        assert.ok(bad.body.error_message_key, JSON.stringify(bad.body));
      }
      assert.equal((await admin.post('/api/v1/webhooks/ep_nope/replay', { from, to })).status, 404);
      const doc = (await (await ward.fetch('/api/v1/openapi.json')).json()) as { paths: Record<string, unknown> };
      assert.ok(doc.paths['/api/v1/webhooks/{webhookId}/replay'] && doc.paths['/api/v1/webhooks/{webhookId}/health']);
    });
  });
}
