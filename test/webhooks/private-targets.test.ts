// allow_private_webhook_targets (issue #35 item 6): without it, a webhook URL on a loopback or private
// address is refused (400) and a send to one never leaves Ward, whatever WARD_OUTBOUND_ALLOW says;
// with it, loopback and private networks are reached, never link-local or metadata addresses.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { engines } from '../helpers/databases.js';
import { api } from '../helpers/management.js';
import { PUBLIC_CLIENT } from '../helpers/oauth.js';
import { startWard, type TestWard } from '../helpers/ward.js';
import { deliverUntil, MANAGER, managerToken } from './manager.js';
import { Receiver } from './receiver.js';

for (const engine of engines()) {
  describe(`webhook private targets (${engine})`, () => {
    let ward: TestWard;
    let receiver: Receiver;
    let admin: ReturnType<typeof api>;
    before(async () => {
      ward = await startWard({
        engine,
        clients: [PUBLIC_CLIENT, MANAGER],
        account: { allow_private_webhook_targets: false },
      });
      admin = api(ward, await managerToken(ward));
      receiver = new Receiver();
      await receiver.start();
    });
    after(async () => {
      await receiver.close();
      await ward.close();
    });

    it('refuses loopback and private URLs unless the account allows them', async () => {
      for (const url of [
        receiver.url,
        'http://localhost:9/h',
        'https://10.1.2.3/h',
        'https://192.168.1.1/h',
        'https://[::1]/h',
        'https://[fd00::1]/h',
        'https://169.254.169.254/latest',
      ]) {
        const refused = await admin.post('/api/v1/webhooks', { url, events: ['*'] });
        assert.equal(refused.status, 400, url);
        assert.equal(refused.body.error_message_key, 'error.invalidParameter');
        assert.match(refused.body.error_description, /allow_private_webhook_targets/);
      }
      assert.equal(
        (await admin.post('/api/v1/webhooks', { url: 'https://hooks.example.com/w', events: ['*'] })).status,
        201,
      );

      ward.setAccount({ allow_private_webhook_targets: true });
      const made = await admin.post('/api/v1/webhooks', { url: receiver.url, events: ['webhook.test'] });
      assert.equal(made.status, 201, JSON.stringify(made.body));
      assert.equal((await admin.post('/api/v1/webhooks', { url: 'https://10.1.2.3/h', events: ['*'] })).status, 201);
      const metadata = await admin.post('/api/v1/webhooks', { url: 'https://169.254.169.254/x', events: ['*'] });
      assert.equal(metadata.status, 400, 'never a metadata address');
      const id = made.body.id as string;
      assert.equal((await admin.post(`/api/v1/webhooks/${id}/test`)).status, 202);
      await deliverUntil(ward, () => receiver.delivered().length === 1);

      // Turned off again: the endpoint stays, but a send to its loopback address is refused by the guard.
      ward.setAccount({ allow_private_webhook_targets: false });
      assert.equal((await admin.post(`/api/v1/webhooks/${id}/test`)).status, 202);
      const attempted = async () => {
        const [d] = (await admin.get(`/api/v1/webhooks/${id}/deliveries?limit=1`)).body.deliveries;
        return d.attempts.length > 0 ? d : null;
      };
      let refused = null;
      for (let i = 0; i < 50 && !refused; i++) {
        await ward.registry.webhookDelivery.tick();
        refused = await attempted();
      }
      assert.ok(refused, 'attempted');
      assert.equal(refused.attempts[0].status, null);
      assert.match(refused.attempts[0].error, /OutboundRefused.*loopback/);
      assert.equal(receiver.received.length, 1, 'nothing reached the receiver');
    });
  });
}
