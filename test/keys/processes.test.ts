// Several Ward processes on one database: a key change made anywhere (here by `ward keys rotate`
// and `ward clients rotate-key`, separate processes) reaches every server's /jwks.json within a
// second, and a client created elsewhere is known everywhere. SQLite file, and PostgreSQL when
// WARD_TEST_DATABASE_URL is set.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { fetch } from 'undici';
import { engines } from '../helpers/databases.js';
import { runCli, sharedDb, startWardProcess, within, type SharedDb, type WardProcess } from '../helpers/processes.js';

for (const engine of engines()) {
  describe(`two Ward processes on one ${engine} database`, () => {
    let db: SharedDb;
    let a: WardProcess;
    let b: WardProcess;
    before(async () => {
      db = await sharedDb(engine);
      a = await startWardProcess(db.env);
      b = await startWardProcess(db.env);
    });
    after(async () => {
      await a?.stop();
      await b?.stop();
      await db?.drop();
    });

    const kids = async (w: WardProcess, q = '') =>
      ((await (await fetch(`${w.url}/jwks.json${q}`)).json()) as { keys: Array<{ kid: string }> }).keys.map(
        (k) => k.kid,
      );

    it('shares the global key, and sees a rotation made by another process within a second', async () => {
      assert.deepEqual(await kids(a), await kids(b));
      const r = await runCli(db.env, ['keys', 'rotate']);
      assert.equal(r.code, 0, r.out);
      const kid = /New global key (\S+)/.exec(r.out)![1]!;
      for (const w of [a, b]) await within(1000, async () => (await kids(w)).includes(kid));
    });

    it('sees a client created and given its own key by the CLI within a second, on both servers', async () => {
      const created = await runCli(db.env, [
        'clients',
        'create',
        '--id',
        `multi-${engine}`,
        '--callbacks',
        'https://m.example/cb',
      ]);
      assert.equal(created.code, 0, created.out);
      for (const w of [a, b])
        await within(
          1000,
          async () => (await fetch(`${w.url}/identity/v1/config?client_id=multi-${engine}`)).status === 200,
        );
      const rotated = await runCli(db.env, ['clients', 'rotate-key', `multi-${engine}`]);
      assert.equal(rotated.code, 0, rotated.out);
      const kid = /New key (\S+)/.exec(rotated.out)![1]!;
      for (const w of [a, b])
        await within(1000, async () => (await kids(w, `?client_id=multi-${engine}`)).includes(kid));
      const revoked = await runCli(db.env, ['clients', 'revoke-key', `multi-${engine}`, kid]);
      assert.equal(revoked.code, 0, revoked.out);
      for (const w of [a, b]) await within(1000, async () => !(await kids(w)).includes(kid));
    });
  });
}
