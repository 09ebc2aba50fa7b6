// The outbox and the change share one transaction (issue #35): a user.* event's `data.user` is read in
// that transaction (the change it reports is already in it), and a rolled-back change leaves no event,
// no delivery. SQLite, and PostgreSQL when configured.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { recordAudit } from '../../src/audit/record.js';
import { engines } from '../helpers/databases.js';
import { api } from '../helpers/management.js';
import { PUBLIC_CLIENT } from '../helpers/oauth.js';
import { startWard, type TestWard } from '../helpers/ward.js';
import { deliverUntil, MANAGER, managerToken } from './manager.js';
import { Receiver } from './receiver.js';

const ACTOR = { type: 'cli' as const, id: 'test', ip: null };

for (const engine of engines()) {
  describe(`webhook outbox in the change's transaction (${engine})`, () => {
    let ward: TestWard;
    const receiver = new Receiver();
    before(async () => {
      ward = await startWard({ engine, clients: [PUBLIC_CLIENT, MANAGER] });
      await receiver.start();
    });
    after(async () => {
      await receiver.close();
      await ward.close();
    });

    it('a rolled-back change sends nothing; a committed one carries the user as it left them', async () => {
      const admin = api(ward, await managerToken(ward));
      assert.equal((await admin.post('/api/v1/webhooks', { url: receiver.url, events: ['user.updated'] })).status, 201);
      const made = await admin.post('/api/v1/users', { email: 'tx@example.com', password: 'a long good password' });
      assert.equal(made.status, 201);
      const id = made.body.id as string;
      const { storage } = ward.registry;
      const change = (name: string) => async (tx: Parameters<Parameters<typeof storage.transaction>[0]>[0]) => {
        const now = ward.clock.now();
        await tx.users.setNames(id, { given_name: name }, now);
        await recordAudit(tx, now, ACTOR, 'user.profile_updated', `user:${id}`, 'success', { fields: ['given_name'] });
      };
      await assert.rejects(
        storage.transaction(async (tx) => {
          await change('Rolled')(tx);
          throw new Error('the change fails after its audit row');
        }),
        /fails after/,
      );
      await storage.transaction(change('Kept'));
      await deliverUntil(ward, () => receiver.delivered().length >= 1);
      await ward.registry.webhookDelivery.tick();
      const events = receiver.delivered();
      assert.equal(events.length, 1, `only the committed change: ${JSON.stringify(events)}`);
      assert.equal(events[0]!.type, 'user.updated');
      assert.equal(events[0]!.data.user_id, id);
      assert.deepEqual(events[0]!.data.fields, ['given_name']);
      assert.equal((events[0]!.data.user as { given_name: string }).given_name, 'Kept', 'read in the transaction');
    });
  });
}
