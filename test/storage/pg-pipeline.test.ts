// PostgreSQL with the `pg_pipeline` speed-up (src/storage/engine/pg-pipeline.ts): statements outside
// a transaction pipelined on a lane of their own connections, a transaction on a pool connection
// from its begin to its end; a failing statement leaves those pipelined with it alone; a lane whose
// session is terminated fails what was on it as the database's (503) and is replaced; the migrator's
// session-level lock never lands on a lane, where its unlock could not find it. The storage
// contract runs on this path (tuned) and on the plain one (WARD_TUNING=off, scripts/run-tests.mjs).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import pg from 'pg';
import { TUNED } from '../../src/config/tuning.js';
import { connect, migrate, type Db } from '../../src/storage/connect.js';
import { pipelineSplit } from '../../src/storage/engine/pg-pipeline.js';
import { isDatabaseUnavailable } from '../../src/storage/unavailable.js';
import { freshPgSchema, testPostgresUrl } from '../helpers/databases.js';

const pid = (db: Db['db']) =>
  sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(db).then((r) => r.rows[0]!.pid);

describe('pipelined statements on PostgreSQL', {
  skip: testPostgresUrl() ? false : 'WARD_TEST_DATABASE_URL is not set',
}, () => {
  let d: Db;
  let drop: () => Promise<void>;
  let admin: pg.Client;
  before(async () => {
    const s = await freshPgSchema();
    drop = s.drop;
    // Two connections: one lane, one in the pool for transactions.
    d = connect({ sqlitePath: '', postgresUrl: s.url, pgSchema: s.schema, poolSize: 2, tuning: TUNED });
    await migrate(d);
    admin = new pg.Client({ connectionString: testPostgresUrl()! });
    await admin.connect();
  });
  after(async () => {
    await admin?.end();
    await d?.close();
    await drop?.();
  });

  it('splits the pool size: half pipelined lanes (rounded up), the rest for transactions, one at least', () => {
    assert.deepEqual(pipelineSplit(10), { lanes: 5, pool: 5 });
    assert.deepEqual(pipelineSplit(2), { lanes: 1, pool: 1 });
    assert.deepEqual(pipelineSplit(1), { lanes: 1, pool: 1 });
  });

  it("leaves no session lock on a lane: the migrator's advisory lock and unlock are on one pool connection", async () => {
    const held = await sql<{
      n: number;
    }>`select count(*)::int as n from pg_locks where locktype = 'advisory' and pid = pg_backend_pid()`.execute(d.db);
    assert.equal(held.rows[0]?.n, 0, 'the lane holds no advisory lock after the migrations');
    assert.deepEqual(await migrate(d), [], 'and migrating again takes and gives back the lock');
  });

  it('runs statements on the lane while a transaction holds the pool connection', async () => {
    const lane = await pid(d.db);
    let release!: () => void;
    const held = new Promise<void>((r) => {
      release = r;
    });
    let inside = -1;
    const tx = d.db.transaction().execute(async (t) => {
      inside = await pid(t);
      await held;
      assert.equal(await pid(t), inside, 'the transaction keeps its connection');
    });
    while (inside === -1) await new Promise((r) => setTimeout(r, 5));
    assert.notEqual(inside, lane, 'the transaction is on a pool connection, not the lane');
    // Fifty at once, while the pool's one connection is held: all on the lane, none waits for it.
    const seen = await Promise.all(Array.from({ length: 50 }, () => pid(d.db)));
    assert.deepEqual(new Set(seen), new Set([lane]));
    const counts = d.pool!;
    assert.equal(counts.totalCount, 2, 'the lane and the pool connection');
    assert.equal(counts.totalCount - counts.idleCount, 1, 'the transaction busy, the lane idle');
    release();
    await tx;
    assert.equal(counts.idleCount, 2);
  });

  it('a failing statement leaves those pipelined with it alone', async () => {
    const [a, bad, c] = await Promise.allSettled([
      sql<{ n: number }>`select 1 as n`.execute(d.db),
      sql`select 1 / 0`.execute(d.db),
      sql<{ n: number }>`select 3 as n`.execute(d.db),
    ]);
    assert.equal(a.status === 'fulfilled' && a.value.rows[0]?.n, 1);
    assert.equal(bad.status, 'rejected');
    assert.equal(bad.status === 'rejected' && (bad.reason as { code?: string }).code, '22012');
    assert.ok(!isDatabaseUnavailable(bad.status === 'rejected' && bad.reason), 'a wrong query is not an outage');
    assert.equal(c.status === 'fulfilled' && c.value.rows[0]?.n, 3);
  });

  it('a lane whose session is terminated fails as the database is unavailable, then is replaced', async () => {
    const lane = await pid(d.db);
    const slow = sql`select pg_sleep(5)`.execute(d.db).then(
      () => null,
      (e: unknown) => e,
    );
    await new Promise((r) => setTimeout(r, 100));
    await admin.query('select pg_terminate_backend($1)', [lane]);
    const failure = await slow;
    assert.ok(failure, 'the statement on the terminated session failed');
    assert.ok(isDatabaseUnavailable(failure), `as the database's: ${String(failure)}`);
    let next = -1;
    for (let i = 0; i < 20 && next === -1; i++) {
      next = await pid(d.db).catch(() => -1);
      if (next === -1) await new Promise((r) => setTimeout(r, 50));
    }
    assert.ok(next > 0 && next !== lane, 'a new lane serves');
  });
});
