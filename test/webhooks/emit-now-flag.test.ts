// login.succeeded costs no query when this process knows of no enabled webhook endpoint (the sender's
// flag, kept by the change poller and by this process's own management changes), and loses nothing
// when another process enabled one a moment ago: the event then goes with the audit batch, whose write
// looks at the endpoints itself. SQLite, and PostgreSQL when configured.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { engines } from '../helpers/databases.js';
import { api } from '../helpers/management.js';
import { postJson } from '../helpers/mfa.js';
import { passwordLogin, PUBLIC_CLIENT } from '../helpers/oauth.js';
import { startWard, type TestWard } from '../helpers/ward.js';
import { MANAGER, managerToken } from './manager.js';

for (const engine of engines()) {
  describe(`login.succeeded and the enabled-endpoint flag (${engine})`, () => {
    let ward: TestWard;
    before(async () => {
      ward = await startWard({ engine, clients: [PUBLIC_CLIENT, MANAGER] });
    });
    after(() => ward.close());

    const eventsOf = async (userId: string) =>
      (
        await ward.registry.db.db
          .selectFrom('webhook_events')
          .select('data')
          .where('type', '=', 'login.succeeded')
          .execute()
      ).filter((e) => (JSON.parse(e.data) as { user_id?: string }).user_id === userId).length;

    async function signUp(email: string): Promise<string> {
      const made = await postJson(ward, '/identity/v1/signup', {
        client_id: 'spa',
        data: { email, password: 'correct horse battery' },
      });
      assert.equal(made.status, 200, JSON.stringify(made.body));
      await ward.registry.events.flush();
      return (await ward.registry.storage.users.findByEmail(email))!.id;
    }

    it('no endpoint: the flag is down; one made here raises it before the answer', async () => {
      const sender = ward.registry.webhookDelivery;
      await sender.refresh();
      assert.equal(sender.endpointsEnabled(), false);
      const admin = api(ward, await managerToken(ward));
      const made = await admin.post('/api/v1/webhooks', { url: 'https://hooks.example/in', events: ['*'] });
      assert.equal(made.status, 201, JSON.stringify(made.body));
      assert.equal(sender.endpointsEnabled(), true, 'raised by this process at once');
      const patched = await admin.patch(`/api/v1/webhooks/${(made.body as { id: string }).id}`, { enabled: false });
      assert.equal(patched.status, 200, JSON.stringify(patched.body));
      await sender.refresh();
      assert.equal(sender.endpointsEnabled(), false, 'down again once the only endpoint is disabled');
    });

    it('an endpoint enabled elsewhere a moment ago still gets the event, with the batch', async () => {
      const sender = ward.registry.webhookDelivery;
      const email = `flag-${engine}@example.com`;
      const userId = await signUp(email);
      // Another process enabled it: this one's change poll has not seen it yet.
      await ward.registry.db.db.updateTable('webhook_endpoints').set({ enabled: 1 }).execute();
      assert.equal(sender.endpointsEnabled(), false);
      assert.ok(await passwordLogin(ward, email, 'correct horse battery'));
      await ward.registry.events.flush();
      assert.equal(await eventsOf(userId), 1, 'written by the batch');
      // Once the process knows, the event is written before the answer again.
      await sender.refresh();
      assert.equal(sender.endpointsEnabled(), true);
      assert.ok(await passwordLogin(ward, email, 'correct horse battery'));
      assert.equal(await eventsOf(userId), 2, 'written before the answer');
    });

    it('with the flag down, emitNow reads no endpoint; with it up, it writes the outbox rows before it returns', async () => {
      const sender = ward.registry.webhookDelivery;
      const endpoints = ward.registry.storage.webhookEndpoints;
      const enabled = endpoints.enabled;
      let reads = 0;
      endpoints.enabled = () => {
        reads++;
        return enabled();
      };
      try {
        const userId = `u-${engine}-direct`;
        const fields = { method: 'password', user_id: userId, amr: ['pwd'] };
        await ward.registry.db.db.updateTable('webhook_endpoints').set({ enabled: 0 }).execute();
        await sender.refresh();
        assert.equal(sender.endpointsEnabled(), false);
        await ward.registry.events.emitNow('login.succeeded', fields, 'test sign-in');
        assert.equal(reads, 0, 'no query: the event waits for the batch');
        await ward.registry.events.flush();
        await ward.registry.db.db.updateTable('webhook_endpoints').set({ enabled: 1 }).execute();
        await sender.refresh();
        reads = 0;
        await ward.registry.events.emitNow('login.succeeded', fields, 'test sign-in');
        assert.equal(reads, 1, 'the endpoints read once');
        assert.equal(await eventsOf(userId), 1, 'its outbox rows written before emitNow returned');
      } finally {
        endpoints.enabled = enabled;
      }
    });
  });
}
