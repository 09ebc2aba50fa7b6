// Catalog types the main webhook test (webhooks.test.ts) does not produce, each by its real action on
// both engines, received on loopback, verified with `standardwebhooks` and checked against its schema:
// user.locked (wrong passwords through the Core SDK), user.unlocked and session.revoked (the
// management API), webhook.test (the endpoint's test call), users.imported (a bulk import),
// user.consents_changed (the management API's PATCH of a user's consents).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Value } from 'typebox/value';
import { envelopeSchema, isEventType } from '../../src/webhooks/catalog.js';
import { engines } from '../helpers/databases.js';
import { api } from '../helpers/management.js';
import { PUBLIC_CLIENT, signup } from '../helpers/oauth.js';
import { startWard, type TestWard } from '../helpers/ward.js';
import { deliverUntil, MANAGER, managerToken, verify } from './manager.js';
import { Receiver } from './receiver.js';

const LIMITS = {
  rate_limits: { signup: { limit: null }, login: { limit: null }, token: { limit: null } },
  sign_in_delay_after: 3,
  sign_in_delay_seconds: 2,
  sign_in_lock_after: 5,
  sign_in_lock_seconds: 600,
  consents: [
    { key: 'news', consent_type: 'opt-in', versions: [{ version_id: 1, texts: [{ language: 'en', title: 'News' }] }] },
  ],
};

for (const engine of engines()) {
  describe(`webhook catalog: the remaining types by their actions (${engine})`, () => {
    let ward: TestWard;
    const receiver = new Receiver();
    before(async () => {
      ward = await startWard({ engine, clients: [PUBLIC_CLIENT, MANAGER], account: LIMITS });
      await receiver.start();
    });
    after(async () => {
      await receiver.close();
      await ward.close();
    });

    it('user.locked, user.unlocked, session.revoked, webhook.test and users.imported', async () => {
      const admin = api(ward, await managerToken(ward));
      const made = await admin.post('/api/v1/webhooks', { url: receiver.url, events: ['*'] });
      assert.equal(made.status, 201);
      const user = await signup(ward);
      const wrong = () =>
        ward.fetch('/identity/v1/password/login', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ client_id: 'spa', scope: 'openid', email: user.email, password: 'not it' }),
        });
      // Five counted failures, the waits between them respected: the fifth locks.
      for (const wait of [0, 0, 0, 2, 4]) {
        ward.clock.advance(wait * 1000);
        await wrong();
      }
      assert.equal((await admin.post(`/api/v1/users/${user.id}/unlock`, {})).status, 200);
      const revoked = await admin.post(`/api/v1/users/${user.id}/sessions/revoke`, {});
      assert.ok(revoked.status < 300, JSON.stringify(revoked));
      const consented = await admin.patch(`/api/v1/users/${user.id}`, { consents: { news: { granted: true } } });
      assert.equal(consented.status, 200, JSON.stringify(consented));
      const tested = await admin.post(`/api/v1/webhooks/${made.body.id as string}/test`, {});
      assert.ok(tested.status < 300, JSON.stringify(tested));
      const lines = [{ email: `imported-${engine}@example.com` }, { email: 'not an address' }];
      const imported = await ward.fetch('/api/v1/users/import', {
        method: 'POST',
        headers: { authorization: `Bearer ${await managerToken(ward)}`, 'content-type': 'application/x-ndjson' },
        body: lines.map((l) => JSON.stringify(l)).join('\n'),
      });
      assert.equal(imported.status, 200, await imported.clone().text());

      const expected = [
        'user.locked',
        'user.unlocked',
        'session.revoked',
        'webhook.test',
        'users.imported',
        'user.consents_changed',
      ];
      const types = () => new Set(receiver.delivered().map((e) => e.type));
      await deliverUntil(ward, () => expected.every((t) => types().has(t)), 0, JSON.stringify([...types()]));
      for (const r of receiver.received) {
        const event = verify(made.body.secret as string, r) as { type: string };
        assert.ok(isEventType(event.type));
        assert.ok(Value.Check(envelopeSchema(event.type), event), `${r.body} fits the ${event.type} schema`);
      }
      const one = (t: string) => receiver.delivered().find((e) => e.type === t)!.data;
      const locked = one('user.locked');
      assert.equal(locked.user_id, user.id);
      assert.equal(typeof locked.until, 'string');
      assert.equal((locked.user as { email: string }).email, user.email, 'the profile');
      assert.equal((one('user.unlocked').user as { id: string }).id, user.id);
      assert.deepEqual(one('session.revoked'), { user_id: user.id });
      assert.deepEqual(one('user.consents_changed'), { user_id: user.id, keys: ['news'], reporter: 'managed' });
      assert.deepEqual(one('webhook.test'), { endpoint_id: made.body.id });
      const counts = one('users.imported');
      assert.deepEqual([counts.created, counts.refused], [1, 1], JSON.stringify(counts));
    });
  });
}
