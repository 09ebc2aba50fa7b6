// Two reloads of the signing keys can overlap: the change notice of one key operation, and the next
// operation's own reload after its commit. The one that read before the commit must not finish last
// and put back the key the commit retired (seen once in CI: an ES256 id token signed with the key
// just rotated away). The same rule holds the social providers and the account settings
// (lib/latest-read.ts). SQLite and PostgreSQL.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { generateSigningKey } from '../../src/keys/generate.js';
import { GLOBAL_SET, KeyStore } from '../../src/keys/key-store.js';
import { FakeClock } from '../../src/lib/clock.js';
import { latestRead } from '../../src/lib/latest-read.js';
import { createStorage, type Storage } from '../../src/storage/storage.js';
import { engines, freshDb } from '../helpers/databases.js';

/** A promise and the function that settles it. */
function gate(): { open: () => void; opened: Promise<void> } {
  let open!: () => void;
  const opened = new Promise<void>((r) => {
    open = r;
  });
  return { open, opened };
}

for (const engine of engines()) {
  describe(`overlapping key reloads (${engine})`, () => {
    let storage: Storage;
    const masterKey = randomBytes(32);
    const clock = new FakeClock(1_700_000_000_000);
    before(async () => {
      storage = createStorage(await freshDb(engine));
    });
    after(() => storage.close());

    it('a reload that read before a rotation and ends after the next reload leaves the rotated key current', async () => {
      const keys = new KeyStore(storage, masterKey, clock, () => 900_000);
      await keys.ensureGlobalKeys(['ES256']);
      const before = keys.current(GLOBAL_SET, 'ES256').kid;

      // The first reload reads the rows now, then is held before it applies them.
      const listLive = storage.keys.listLive.bind(storage.keys);
      const held = gate();
      let calls = 0;
      storage.keys.listLive = async () => {
        const rows = await listLive();
        if (++calls === 1) await held.opened;
        return rows;
      };
      const stale = keys.reload();
      while (calls < 1) await new Promise((r) => setImmediate(r));

      const fresh = await generateSigningKey(masterKey, GLOBAL_SET, clock.now(), 'ES256');
      await storage.transaction(async (tx) => {
        await tx.versions.bump('keys');
        await tx.keys.retireCurrent(GLOBAL_SET, clock.now(), 'ES256');
        await tx.keys.insert(fresh);
      });
      await keys.reload();
      assert.equal(keys.current(GLOBAL_SET, 'ES256').kid, fresh.kid);

      held.open();
      await stale;
      storage.keys.listLive = listLive;
      assert.equal(keys.current(GLOBAL_SET, 'ES256').kid, fresh.kid, 'the older read did not put back the retired key');
      assert.notEqual(fresh.kid, before);
    });
  });
}

describe('latestRead', () => {
  it('applies reads in the order they started, dropping one that ends after a later one; set counts as a read', async () => {
    const applied: number[] = [];
    const gates = [gate(), gate(), gate()];
    let n = 0;
    const r = latestRead(
      async () => {
        const i = n++;
        await gates[i]!.opened;
        return i;
      },
      (v) => applied.push(v),
    );
    const first = r.reload();
    const second = r.reload();
    gates[1]!.open();
    await second;
    gates[0]!.open();
    await first;
    assert.deepEqual(applied, [1], 'the first read ended last and was dropped');

    const third = r.reload();
    r.set(99);
    gates[2]!.open();
    await third;
    assert.deepEqual(applied, [1, 99], 'a read begun before a set does not undo it');
  });
});
