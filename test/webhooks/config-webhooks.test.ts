// The config file's `webhooks` (issue #35): an endpoint declared in the file, its secret read from the
// environment variable `secret_env` names, is created at start (id cfg_<name>); a real action reaches
// a loopback receiver, signed with that secret (verified with `standardwebhooks`); the management API
// shows it as managed by the config and refuses to change, rotate or delete it; a restart with the
// same file changes nothing, a new secret in the environment replaces the stored one (the previous one
// signs for a day); removed from the file, it is disabled at the next start and may then be deleted.
// A bad entry stops the start.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { ConfigError, loadConfig } from '../../src/config/load.js';
import { engines } from '../helpers/databases.js';
import { api } from '../helpers/management.js';
import { PUBLIC_CLIENT, signup } from '../helpers/oauth.js';
import { startWard } from '../helpers/ward.js';
import { deliverUntil, MANAGER, managerToken } from './manager.js';
import { Receiver } from './receiver.js';

const newSecret = () => `whsec_${randomBytes(32).toString('base64')}`;
function configFile(webhooks: unknown[]): string {
  const path = join(mkdtempSync(join(tmpdir(), 'ward-config-')), 'ward.json');
  writeFileSync(path, JSON.stringify({ webhooks }));
  return path;
}

describe('config webhooks: validation', () => {
  it('refuses a missing or malformed secret, an unknown key, a duplicate name', () => {
    const entry = { name: 'site', url: 'https://hooks.example.com/ward', secret_env: 'SITE_SECRET' };
    const problems = (webhooks: unknown[], env: Record<string, string> = {}) => {
      try {
        loadConfig({ WARD_CONFIG: configFile(webhooks), ...env });
        return [];
      } catch (e) {
        assert.ok(e instanceof ConfigError);
        return e.problems;
      }
    };
    assert.match(problems([entry]).join(), /webhooks\[0\]\.secret_env: SITE_SECRET must hold a whsec_ secret/);
    assert.match(problems([entry], { SITE_SECRET: 'plain' }).join(), /must hold a whsec_ secret/);
    assert.match(problems([{ ...entry, secret: 'x' }], { SITE_SECRET: newSecret() }).join(), /webhooks\[0\]/);
    assert.match(problems([entry, entry], { SITE_SECRET: newSecret() }).join(), /duplicate webhook site/);
    const ok = loadConfig({ WARD_CONFIG: configFile([entry]), SITE_SECRET: newSecret() });
    assert.deepEqual(ok.webhooks[0]!.events, ['*']);
    assert.equal(ok.webhooks[0]!.enabled, true);
  });
});

for (const engine of engines()) {
  describe(`config webhooks (${engine})`, () => {
    it('applies the endpoint at start, delivers signed events, refuses API changes, disables when removed', async () => {
      const receiver = new Receiver();
      await receiver.start();
      const secret = newSecret();
      const entry = {
        name: 'site',
        url: receiver.url,
        events: ['user.created'],
        description: 'from the file',
        secret_env: 'SITE_WEBHOOK_SECRET',
      };
      const env = (webhooks: unknown[], s = secret) => ({ WARD_CONFIG: configFile(webhooks), SITE_WEBHOOK_SECRET: s });
      const first = await startWard({
        engine,
        clients: [PUBLIC_CLIENT, MANAGER],
        keepDatabase: true,
        env: env([entry]),
      });
      let database = first.database;
      try {
        const admin = api(first, await managerToken(first));
        const listed = (await admin.get('/api/v1/webhooks')).body.webhooks;
        assert.equal(listed.length, 1);
        assert.equal(listed[0].id, 'cfg_site');
        assert.equal(listed[0].managed_by, 'config');
        assert.equal(listed[0].description, 'from the file');
        assert.deepEqual(listed[0].events, ['user.created']);
        const stored = await first.registry.storage.webhookEndpoints.find('cfg_site');
        assert.ok(stored && !stored.secret_sealed.includes(secret.slice(6)), 'sealed at rest');

        const user = await signup(first);
        await deliverUntil(first, () => receiver.delivered().some((e) => e.type === 'user.created'));
        const got = receiver.received.at(-1)!;
        const event = new Webhook(secret).verify(got.body, got.headers as Record<string, string>) as {
          type: string;
          data: { user_id: string };
        };
        assert.equal(event.type, 'user.created');
        assert.equal(event.data.user_id, user.id);

        for (const [status, res] of [
          [409, await admin.patch('/api/v1/webhooks/cfg_site', { enabled: false })],
          [409, await admin.del('/api/v1/webhooks/cfg_site')],
          [409, await admin.post('/api/v1/webhooks/cfg_site/rotate-secret', {})],
        ] as const) {
          assert.equal(res.status, status);
          assert.equal(res.body.error_message_key, 'error.webhook.managedByConfig');
        }
        assert.equal((await admin.post('/api/v1/webhooks/cfg_site/test')).status, 202, 'a test event is allowed');
      } finally {
        await first.close();
      }

      // The same file again: nothing changes. A new secret: it signs, the previous one too for a day.
      const fresh = newSecret();
      const second = await startWard({
        engine,
        clients: [PUBLIC_CLIENT, MANAGER],
        keepDatabase: true,
        database,
        env: env([entry], fresh),
      });
      database = second.database;
      try {
        const before = receiver.received.length;
        await signup(second);
        await deliverUntil(second, () => receiver.received.length > before);
        const got = receiver.received.at(-1)!;
        for (const s of [fresh, secret]) new Webhook(s).verify(got.body, got.headers as Record<string, string>);
        assert.equal((await second.registry.storage.webhookEndpoints.list()).length, 1, 'no second endpoint');
      } finally {
        await second.close();
      }

      // Removed from the file: disabled at the next start, kept with its deliveries.
      const third = await startWard({ engine, clients: [PUBLIC_CLIENT, MANAGER], database, env: env([]) });
      try {
        const row = await third.registry.storage.webhookEndpoints.find('cfg_site');
        assert.equal(row?.enabled, 0);
        assert.equal(row?.disabled_reason, 'config');
        const before = receiver.received.length;
        await signup(third);
        await third.registry.events.flush();
        await third.registry.webhookDelivery.tick();
        assert.equal(receiver.received.length, before, 'nothing sent to a disabled endpoint');
        // No longer in the file: it may be deleted now.
        const admin = api(third, await managerToken(third));
        assert.equal((await admin.del('/api/v1/webhooks/cfg_site')).status, 204);
        assert.equal(await third.registry.storage.webhookEndpoints.find('cfg_site'), undefined);
      } finally {
        await third.close();
        await receiver.close();
      }
    });
  });
}
