// Ward migrates its own PostgreSQL schema while other processes create and drop theirs (other Wards
// sharing the database, or the test suite's own schemas). Kysely's stock introspector, which its
// migrator asks whether its tables exist, reads every schema and then looks each table up by name:
// a schema dropped in between fails the migration ("relation ... does not exist"), and so Ward's
// start. Ward's (storage/engine/own-schema.ts) reads only its own schema, by oid.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { connect, migrate } from '../../src/storage/connect.js';
import { freshPgSchema, testPostgresUrl } from '../helpers/databases.js';

const url = testPostgresUrl();

/** Creates and drops schemas with serial columns, as other processes do, until stopped. */
function churn(): { stop: () => Promise<number> } {
  let stopping = false;
  const done = (async () => {
    const c = new pg.Client({ connectionString: url! });
    await c.connect();
    let n = 0;
    while (!stopping) {
      const s = `ward_churn_${process.pid}_${n++}`;
      await c.query(`create schema ${s}; create table ${s}.t (id serial primary key, v text)`);
      await c.query(`drop schema ${s} cascade`);
    }
    await c.end();
    return n;
  })();
  return {
    stop: async () => {
      stopping = true;
      return done;
    },
  };
}

/** Runs `f` until it fails or `ms` pass; the number of failures (0 or 1) and of runs. */
async function untilFailure(f: () => Promise<unknown>, ms: number): Promise<{ failed: unknown; runs: number }> {
  const end = Date.now() + ms;
  let runs = 0;
  while (Date.now() < end) {
    runs++;
    try {
      await f();
    } catch (e) {
      return { failed: e, runs };
    }
  }
  return { failed: null, runs };
}

describe('migrating a PostgreSQL schema while others are created and dropped', {
  skip: !url && 'no PostgreSQL',
}, () => {
  it('applies every migration and reads only its own schema, whatever the others do', async () => {
    const mine = await freshPgSchema();
    const d = connect({ sqlitePath: '', postgresUrl: mine.url, pgSchema: mine.schema });
    const others = churn();
    try {
      const applied = await migrate(d);
      assert.ok(applied.length > 10, `applied ${applied.length}`);
      const { failed, runs } = await untilFailure(
        () => d.db.introspection.getTables({ withInternalKyselyTables: true }),
        2000,
      );
      assert.equal(failed, null, `failed after ${runs} reads`);
      const tables = await d.db.introspection.getTables();
      assert.ok(tables.some((t) => t.name === 'users' && t.schema === mine.schema));
      assert.ok(tables.every((t) => t.schema === mine.schema));
      assert.ok(!tables.some((t) => t.name.startsWith('kysely_')), 'bookkeeping tables only when asked for');
      const users = tables.find((t) => t.name === 'users')!;
      assert.ok(users.columns.some((c) => c.name === 'id' && !c.isNullable));
    } finally {
      await others.stop();
      await d.close();
      await mine.drop();
    }
  });

  it('the stock introspector fails under the same traffic (what the test above guards against)', async () => {
    const db = new Kysely<unknown>({
      dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: url!, max: 1 }) }),
    });
    const others = churn();
    try {
      const { failed } = await untilFailure(
        () => db.introspection.getTables({ withInternalKyselyTables: true }),
        20_000,
      );
      assert.match(String(failed), /does not exist/);
    } finally {
      await others.stop();
      await db.destroy();
    }
  });
});
