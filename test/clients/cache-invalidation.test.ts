// The client cache and a change that lands while a read is on its way: the read begun before the
// change may answer its own caller with the old client, but it must not stay cached after the
// change's invalidation; and a secret is unsealed from the client it is asked of, so an old client
// object never leaves its secret in place of the new one. SQLite and PostgreSQL.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { createClientService } from '../../src/clients/service.js';
import { Problems } from '../../src/config/schema/check.js';
import { validateClient } from '../../src/config/schema/client-rules.js';
import type { ClientConfig } from '../../src/config/types.js';
import { FakeClock } from '../../src/lib/clock.js';
import { createStorage, type Storage } from '../../src/storage/storage.js';
import { engines, freshDb } from '../helpers/databases.js';

function definition(name: string, secret: string): ClientConfig {
  const p = new Problems();
  const def = validateClient(p, 'clients[0]', {
    client_id: 'cached-app',
    name,
    type: 'confidential',
    client_secret: secret,
    allowed_callback_urls: ['https://cached.example/cb'],
  });
  assert.deepEqual(p.list, []);
  return def!;
}

for (const engine of engines()) {
  describe(`client cache across a change (${engine})`, () => {
    let storage: Storage;
    before(async () => {
      storage = createStorage(await freshDb(engine));
    });
    after(() => storage.close());

    it('a read begun before a change is not cached after it; secrets follow the client asked of', async () => {
      const clients = createClientService({ storage, masterKey: randomBytes(32), clock: new FakeClock() });
      const firstSecret = randomBytes(24).toString('base64url');
      await clients.upsert(definition('Before', firstSecret), 'api');
      const old = (await clients.find('cached-app'))!;
      clients.invalidate();

      // A read that fetches the row now and is held before it returns.
      const find = storage.clients.find.bind(storage.clients);
      let release!: () => void;
      const released = new Promise<void>((r) => {
        release = r;
      });
      let reads = 0;
      storage.clients.find = async (id: string) => {
        const row = await find(id);
        if (++reads === 1) await released;
        return row;
      };
      const inFlight = clients.find('cached-app');
      while (reads < 1) await new Promise((r) => setImmediate(r));

      const newSecret = randomBytes(24).toString('base64url');
      await clients.upsert(definition('After', newSecret), 'api');
      release();
      assert.equal((await inFlight)?.name, 'Before', 'its own caller gets what it read');
      storage.clients.find = find;

      const now = (await clients.find('cached-app'))!;
      assert.equal(now.name, 'After', 'the old read was not cached');
      assert.equal(clients.secretOf(old), firstSecret);
      assert.equal(clients.secretOf(now), newSecret, "the old client's secret does not stand for the new one");
    });
  });
}
