// Webhooks out (issue #35): endpoints through the management API, events produced by real actions
// (the Core SDK's HTTP paths and the management API), signed per Standard Webhooks and verified
// with the `standardwebhooks` package, each matching its catalog schema; a receiver that fails then
// recovers gets everything in order; a fresh Ward on the same database delivers what was pending.
import assert from 'node:assert/strict';
import { after, afterEach, before, beforeEach, describe, it } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { Value } from 'typebox/value';
import { userViewSchema } from '../../src/accounts/user-view.js';
import { FakeClock } from '../../src/lib/clock.js';
import { envelopeSchema, isEventType } from '../../src/webhooks/catalog.js';
import { engines } from '../helpers/databases.js';
import { api } from '../helpers/management.js';
import { codeFor, PUBLIC_CLIENT, redeem } from '../helpers/oauth.js';
import { startWard, type TestWard } from '../helpers/ward.js';
import { MANAGER, managerToken, SECRET, verify } from './manager.js';
import { Receiver } from './receiver.js';

for (const engine of engines()) {
  describe(`webhooks (${engine})`, () => {
    let ward: TestWard;
    let receiver: Receiver;
    let admin: ReturnType<typeof api>;

    before(async () => {
      ward = await startWard({ engine, clients: [PUBLIC_CLIENT, MANAGER] });
    });
    /** A fresh management token (the tests move the clock past a token's life). */
    async function signIn(): Promise<void> {
      admin = api(ward, await managerToken(ward));
    }
    after(() => ward.close());
    afterEach(() => receiver.close());
    beforeEach(async () => {
      await signIn();
      // One endpoint at a time: each test registers its own and removes the others.
      for (const w of (await admin.get('/api/v1/webhooks')).body.webhooks)
        await admin.del(`/api/v1/webhooks/${w.id as string}`);
      receiver = new Receiver();
      await receiver.start();
    });

    /** Creates an endpoint for `events` at the receiver; answers its id and secret. */
    async function endpoint(events: string[]): Promise<{ id: string; secret: string }> {
      const made = await admin.post('/api/v1/webhooks', { url: receiver.url, events, description: 'test' });
      assert.equal(made.status, 201, JSON.stringify(made.body));
      return { id: made.body.id, secret: made.body.secret };
    }

    /** Runs the sender until `ok` holds, moving the clock by `stepMs` before each pass (retries). */
    async function deliverUntil(ok: () => boolean, stepMs = 0): Promise<void> {
      for (let i = 0; i < 200 && !ok(); i++) {
        await ward.registry.events.flush();
        ward.clock.advance(stepMs);
        await ward.registry.webhookDelivery.tick();
      }
      assert.ok(ok(), `not delivered: ${JSON.stringify(receiver.received.map((r) => [r.status, r.body]))}`);
    }

    it('manages endpoints: https only (http to loopback), known events, secret shown once and sealed', async () => {
      const refused = await admin.post('/api/v1/webhooks', { url: 'http://example.com/hook', events: ['*'] });
      assert.equal(refused.status, 400);
      assert.equal(refused.body.error_message_key, 'error.invalidParameter');
      const unknown = await admin.post('/api/v1/webhooks', { url: 'https://example.com/h', events: ['user.exploded'] });
      assert.equal(unknown.status, 400);
      assert.match(unknown.body.error_description, /user\.exploded/);

      const made = await admin.post('/api/v1/webhooks', {
        url: 'https://hooks.example.com/ward',
        events: ['user.created', 'login.failed'],
      });
      assert.equal(made.status, 201);
      assert.match(made.body.secret, /^whsec_[A-Za-z0-9+/]{43}=$/);
      assert.equal(made.body.enabled, true);
      const id = made.body.id as string;
      const read = await admin.get(`/api/v1/webhooks/${id}`);
      assert.equal(read.status, 200);
      assert.equal(read.body.secret, undefined, 'the secret is shown only once');
      assert.deepEqual(read.body.events, ['user.created', 'login.failed']);
      const stored = await ward.registry.storage.webhookEndpoints.find(id);
      assert.ok(stored && !stored.secret_sealed.includes(made.body.secret.slice(6)), 'sealed at rest');

      const patched = await admin.patch(`/api/v1/webhooks/${id}`, { enabled: false, description: 'paused' });
      assert.equal(patched.status, 200);
      assert.equal(patched.body.enabled, false);
      assert.equal(patched.body.description, 'paused');
      assert.equal((await admin.patch(`/api/v1/webhooks/${id}`, { url: 'ftp://x' })).status, 400);
      const listed = await admin.get('/api/v1/webhooks');
      assert.deepEqual(
        listed.body.webhooks.map((w: { id: string }) => w.id),
        [id],
      );
      const audit = await ward.registry.storage.audit.list({ target: `webhook:${id}`, limit: 10 });
      assert.deepEqual(audit.map((a) => a.action).sort(), ['webhook.created', 'webhook.updated']);
      assert.ok(!audit.some((a) => a.details.includes(made.body.secret.slice(6))), 'no secret in the audit');

      assert.equal((await admin.del(`/api/v1/webhooks/${id}`)).status, 204);
      assert.equal((await admin.get(`/api/v1/webhooks/${id}`)).status, 404);
      const doc = (await (await ward.fetch('/api/v1/openapi.json')).json()) as { paths: Record<string, unknown> };
      assert.ok(doc.paths['/api/v1/webhooks/{webhookId}/rotate-secret'], 'in the OpenAPI document');
    });

    it('delivers the events of real actions, signed (standardwebhooks), each matching its catalog schema', async () => {
      const { secret } = await endpoint(['*']);
      // The Core SDK's paths: signup, sign-in, a wrong password, a password change.
      const { code, verifier, user } = await codeFor(ward);
      const wrong = await ward.fetch('/identity/v1/password/login', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ client_id: 'spa', scope: 'openid', email: user.email, password: 'not the password' }),
      });
      assert.ok(wrong.status >= 400 && wrong.status < 500, 'refused');
      const { body: tokens } = await redeem(ward, code, verifier);
      const changed = await ward.fetch('/identity/v1/update-password', {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${tokens.access_token as string}` },
        body: JSON.stringify({ old_password: user.password, password: 'a brand new long password' }),
      });
      assert.equal(changed.status, 204, await changed.text());
      // The management API: a user, a client and the site's keys, created, changed and removed.
      const made = await admin.post('/api/v1/users', {
        email: 'webhook-user@example.com',
        password: 'a long good password',
      });
      assert.equal(made.status, 201);
      assert.equal((await admin.patch(`/api/v1/users/${made.body.id as string}`, { disabled: true })).status, 200);
      assert.equal((await admin.del(`/api/v1/users/${made.body.id as string}`)).status, 204);
      const client = {
        client_id: 'hooked',
        name: 'Hooked',
        type: 'public',
        allowed_callback_urls: ['https://h.example/cb'],
      };
      assert.equal((await admin.post('/api/v1/clients', client)).status, 201);
      assert.equal((await admin.patch('/api/v1/clients/hooked', { name: 'Hooked again' })).status, 200);
      assert.equal((await admin.del('/api/v1/clients/hooked')).status, 204);
      // The Core SDK's logout of another signed-in browser.
      const signedIn = await codeFor(ward);
      assert.equal((await signedIn.browser.get('/identity/v1/logout')).status < 400, true);
      const key = await admin.post('/api/v1/site/keys', {});
      assert.equal(key.status, 201);
      assert.equal((await admin.del(`/api/v1/site/keys/${key.body.kid as string}`)).status, 204);

      const expected = [
        'user.created',
        'login.succeeded',
        'login.failed',
        'user.password_changed',
        'user.updated',
        'user.deleted',
        'client.created',
        'client.updated',
        'client.deleted',
        'key.rotated',
        'key.revoked',
        'logout',
      ];
      const types = () => new Set(receiver.delivered().map((e) => e.type));
      await deliverUntil(() => expected.every((t) => types().has(t)));

      for (const r of receiver.received) {
        const event = verify(secret, r) as { id: string; type: string };
        assert.equal(r.headers['webhook-id'], event.id);
        assert.equal(r.headers['content-type'], 'application/json');
        assert.ok(isEventType(event.type), event.type);
        assert.ok(Value.Check(envelopeSchema(event.type), event), `${r.body} fits the ${event.type} schema`);
        for (const secretValue of [user.password, 'a brand new long password', 'a long good password', SECRET])
          assert.ok(!r.body.includes(secretValue), 'no password nor secret in an event');
      }
      const byType = (t: string) => receiver.delivered().filter((e) => e.type === t);
      assert.ok(
        byType('user.created').some((e) => e.data.user_id === user.id && e.data.method === 'api'),
        'the SDK signup',
      );
      assert.ok(
        byType('login.succeeded').some((e) => e.data.user_id === user.id && e.data.client_id === 'spa'),
        'the SDK sign-in',
      );
      assert.ok(
        byType('login.failed').some((e) => e.data.client_id === 'spa' && e.data.reason === 'wrong_password'),
        'the wrong password',
      );
      // user.* carry the user as the management API shows it, as the change left it; user.deleted the ids.
      const shown = (await admin.get(`/api/v1/users/${user.id}`)).body as Record<string, unknown>;
      const changedEvent = byType('user.password_changed')[0]!.data;
      assert.equal(changedEvent.user_id, user.id);
      const profile = changedEvent.user as Record<string, unknown>;
      assert.deepEqual(Object.keys(profile).sort(), Object.keys(userViewSchema.properties).sort());
      for (const [k, v] of Object.entries(profile)) assert.deepEqual(v, shown[k], `user.${k} as the API shows it`);
      assert.equal(
        (byType('user.created').find((e) => e.data.user_id === user.id)!.data.user as { email: string }).email,
        user.email,
      );
      const updated = byType('user.updated')[0]!.data;
      assert.equal(updated.user_id, made.body.id);
      assert.equal(updated.disabled, true);
      assert.deepEqual(
        { id: (updated.user as { id: string }).id, disabled: (updated.user as { disabled: boolean }).disabled },
        { id: made.body.id, disabled: true },
      );
      assert.deepEqual(byType('user.deleted')[0]!.data, { user_id: made.body.id }, 'erased: the ids only');
      assert.deepEqual(byType('client.updated')[0]!.data.client_id, 'hooked');
      assert.equal(byType('key.revoked')[0]!.data.kid, key.body.kid);
      assert.deepEqual(byType('logout')[0]!.data, { user_id: signedIn.user.id });
      // Each event once: the webhook-ids are all different.
      const ids = receiver.received.map((r) => r.headers['webhook-id']);
      assert.equal(new Set(ids).size, ids.length);
    });

    it('retries a failing receiver with backoff (Retry-After honoured) and delivers everything in order', async () => {
      const { id, secret } = await endpoint(['user.created']);
      // Fails three times (503, 429 asking for 7 s, a reset connection), then recovers.
      receiver.answer = (res, n) => {
        if (n === 0) res.writeHead(503).end('busy');
        else if (n === 1) res.writeHead(429, { 'retry-after': '7' }).end('slow down');
        else if (n === 2) res.destroy();
        else res.writeHead(200).end('ok');
      };
      const emails = [1, 2, 3, 4].map((i) => `ordered-${engine}-${i}@example.com`);
      const users: string[] = [];
      for (const email of emails)
        users.push((await admin.post('/api/v1/users', { email, password: 'a long good password' })).body.id);
      await deliverUntil(() => receiver.delivered().length === 4, 1_000);
      assert.deepEqual(
        receiver.delivered().map((e) => e.data.user_id),
        users,
        'in the order of the changes, none skipped while the first was retried',
      );
      // Every request verifies, the retries under the same webhook-id.
      for (const r of receiver.received.filter((x) => x.status !== 0)) verify(secret, r);
      const first = receiver.received[0]!.headers['webhook-id'];
      assert.equal(receiver.received[1]!.headers['webhook-id'], first);

      const { body } = await admin.get(`/api/v1/webhooks/${id}/deliveries`);
      const oldest = body.deliveries.at(-1);
      assert.equal(oldest.status, 'delivered');
      assert.deepEqual(
        oldest.attempts.map((a: { status: number | null }) => a.status),
        [503, 429, null, 200],
      );
      assert.equal(oldest.attempts[0].response, 'busy', 'the answer kept with the attempt');
      assert.match(oldest.attempts[2].error, /\w/);
      const at = (i: number) => Date.parse(oldest.attempts[i].at);
      assert.ok(at(2) - at(1) >= 7_000, 'Retry-After: 7 was waited for');
      assert.ok(
        body.deliveries.every((d: { status: string }) => d.status === 'delivered'),
        'all delivered',
      );
      // Sent again on request: the same event (same webhook-id), as a new delivery.
      const again = await admin.post(`/api/v1/webhooks/${id}/deliveries/${oldest.id as string}/resend`);
      assert.equal(again.status, 202, JSON.stringify(again.body));
      await deliverUntil(() => receiver.delivered().length === 5);
      assert.equal(receiver.received.at(-1)!.headers['webhook-id'], first);
      verify(secret, receiver.received.at(-1)!);
      assert.equal((await admin.post(`/api/v1/webhooks/${id}/deliveries/dlv_nope/resend`)).status, 404);
    });

    it('rotates the secret: during the overlap both secrets sign', async () => {
      const { id, secret: old } = await endpoint(['webhook.test']);
      const rotated = await admin.post(`/api/v1/webhooks/${id}/rotate-secret`, { overlap_seconds: 3600 });
      assert.equal(rotated.status, 200);
      assert.notEqual(rotated.body.secret, old);
      assert.ok(rotated.body.previous_secret_expires_at, 'an overlap');
      assert.equal((await admin.post(`/api/v1/webhooks/${id}/test`)).status, 202);
      await deliverUntil(() => receiver.delivered().length === 1);
      verify(rotated.body.secret, receiver.received[0]!);
      verify(old, receiver.received[0]!);
      // Past the overlap, only the new secret signs.
      ward.clock.advance(3601_000);
      await signIn();
      assert.equal((await admin.post(`/api/v1/webhooks/${id}/test`)).status, 202);
      await deliverUntil(() => receiver.delivered().length === 2);
      const late = receiver.received[1]!;
      // The clock moved an hour past real time: the library's timestamp window would refuse the message,
      // so the signatures are compared with the library's own signing under each secret.
      const sig = String(late.headers['webhook-signature']);
      const when = new Date(Number(late.headers['webhook-timestamp']) * 1000);
      const id2 = String(late.headers['webhook-id']);
      assert.equal(sig, new Webhook(rotated.body.secret).sign(id2, when, late.body));
      assert.ok(!sig.includes(new Webhook(old).sign(id2, when, late.body).slice(3)));
    });
  });
}

for (const engine of engines()) {
  describe(`webhooks across a restart (${engine})`, () => {
    it('delivers after a restart what was pending when the previous Ward stopped', async () => {
      const receiver = new Receiver();
      await receiver.start();
      receiver.answer = (res) => res.writeHead(500).end();
      const first = await startWard({ engine, clients: [PUBLIC_CLIENT, MANAGER], keepDatabase: true });
      let admin = api(first, await managerToken(first));
      await admin.post('/api/v1/webhooks', { url: receiver.url, events: ['user.created'] });
      const made = await admin.post('/api/v1/users', {
        email: `restart@example.com`,
        password: 'a long good password',
      });
      await first.registry.webhookDelivery.tick();
      await receiver.until(() => receiver.received.length === 1);
      // Ward stops with the delivery pending (retried later), the receiver recovers, a new Ward starts.
      await first.close();
      receiver.answer = (res) => res.writeHead(204).end();
      const clock = new FakeClock(first.clock.now() + 3600_000);
      const second = await startWard({ engine, clients: [PUBLIC_CLIENT, MANAGER], database: first.database, clock });
      try {
        await second.registry.webhookDelivery.tick();
        await receiver.until(() => receiver.delivered().length === 1);
        assert.equal(receiver.delivered()[0]!.data.user_id, made.body.id);
        admin = api(second, await managerToken(second));
        const endpoints = (await admin.get('/api/v1/webhooks')).body.webhooks;
        const { body } = await admin.get(`/api/v1/webhooks/${endpoints[0].id as string}/deliveries`);
        assert.deepEqual(
          body.deliveries[0].attempts.map((a: { status: number }) => a.status),
          [500, 204],
        );
      } finally {
        await second.close();
        await receiver.close();
      }
    });
  });
}
