// `ward migrate --plan` (issue 40, item 3): the pending migrations of the configured database with the
// SQL each will run and whether it is safe online, and nothing changed by asking. On both engines.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { describe, it } from 'node:test';
import { connect, migrate, MIGRATION_LIST } from '../../src/storage/connect.js';
import { describePlan, planMigrations, planMigrationsOf } from '../../src/storage/migration-plan.js';
import { engines, freshPgSchema } from '../helpers/databases.js';

async function database(engine: 'sqlite' | 'postgres') {
  const dataDir = mkdtempSync(join(tmpdir(), 'ward-plan-'));
  if (engine === 'sqlite') {
    const env = { WARD_DATA_DIR: dataDir };
    return { env, db: connect({ sqlitePath: join(dataDir, 'ward.db'), postgresUrl: null }), drop: async () => {} };
  }
  const s = await freshPgSchema();
  const url = new URL(s.url);
  url.searchParams.set('options', `-c search_path=${s.schema}`);
  const env = { WARD_DATA_DIR: dataDir, WARD_DATABASE_URL: url.toString() };
  return { env, db: connect({ sqlitePath: '', postgresUrl: s.url, pgSchema: s.schema }), drop: s.drop };
}

const tables = async (db: ReturnType<typeof connect>) =>
  (await db.db.introspection.getTables()).map((t) => t.name).sort();

for (const engine of engines()) {
  describe(`ward migrate --plan (${engine})`, () => {
    it('lists every migration with its SQL on a new database, and changes nothing', async () => {
      const d = await database(engine);
      try {
        const plan = await planMigrations(d.db);
        assert.deepEqual(
          plan.map((m) => m.name),
          MIGRATION_LIST.map(([name]) => name),
        );
        assert.ok(plan[0].statements.some((s) => /^create table "users"/i.test(s)));
        assert.deepEqual(await tables(d.db), [], 'asking created nothing');
      } finally {
        await d.db.close();
        await d.drop();
      }
    });

    it('lists only what is pending, with the SQL that migration runs, safe online when it only adds', async () => {
      const d = await database(engine);
      try {
        await migrate(d.db);
        assert.deepEqual(await planMigrations(d.db), []);
        assert.match(describePlan([]), /up to date/);
        // As a database of the release before the last migration (its row, tables and columns not there
        // yet); the last migration only adds (expand), whichever it is.
        const [last] = MIGRATION_LIST[MIGRATION_LIST.length - 1];
        await MIGRATION_LIST[MIGRATION_LIST.length - 1][1].down!(d.db.db);
        await sql`delete from kysely_migration where name = ${last}`.execute(d.db.db);
        const plan = await planMigrations(d.db);
        assert.deepEqual(
          plan.map((m) => m.name),
          [last],
        );
        assert.ok(
          plan[0].statements.length > 0 &&
            plan[0].statements.every((s) => /^(alter table|create table|create (unique )?index)/i.test(s)),
        );
        assert.equal(plan[0].online, true, plan[0].notes.join('\n'));
        // What the command prints, from the process as an operator runs it (SQLite's group commit written first).
        await d.db.settled?.();
        const out = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli.ts', 'migrate', '--plan'], {
          env: { ...process.env, ...d.env },
          encoding: 'utf8',
        });
        assert.equal(out.status, 0, out.stderr);
        assert.equal(out.stdout, describePlan(plan));
        assert.match(
          out.stdout,
          new RegExp(`^${last}: safe to run online\\n  (alter table|create table|create (unique )?index)`, 'i'),
        );
        assert.deepEqual(await planMigrations(d.db), plan, 'the plan applied nothing');
      } finally {
        await d.db.close();
        await d.drop();
      }
    });
  });
}

describe('what makes a migration unsafe online', () => {
  it('a contract name, a drop or rename outside one, a blocking index, a NOT NULL column without default', async () => {
    const plan = await planMigrationsOf('postgres', [
      [
        '900-add-things',
        {
          up: async (db) => {
            await db.schema.alterTable('users').addColumn('nick', 'text').execute();
            await db.schema.createIndex('users_nick').on('users').column('nick').execute();
          },
        },
      ],
      ['901-drop-it', { up: async (db) => db.schema.alterTable('users').dropColumn('nick').execute() }],
      ['902-contract-drop-it', { up: async (db) => db.schema.alterTable('users').dropColumn('nick').execute() }],
      [
        '903-add-required',
        {
          up: async (db) =>
            db.schema
              .alterTable('users')
              .addColumn('x', 'text', (c) => c.notNull())
              .execute(),
        },
      ],
      ['904-add-table', { up: async (db) => db.schema.createTable('t').addColumn('a', 'text').execute() }],
      [
        '905-add-to-two-tables',
        {
          up: async (db) => {
            await db.schema.alterTable('grants').addColumn('x', 'text').execute();
            await db.schema.alterTable('authorization_codes').addColumn('x', 'text').execute();
          },
        },
      ],
    ]);
    assert.deepEqual(
      plan.map((m) => [m.name, m.online]),
      [
        ['900-add-things', false],
        ['901-drop-it', false],
        ['902-contract-drop-it', false],
        ['903-add-required', false],
        ['904-add-table', true],
        ['905-add-to-two-tables', false],
      ],
    );
    assert.match(plan[5].notes.join(), /locks 2 existing tables in one transaction \(grants, authorization_codes\)/);
    assert.match(plan[0].notes.join(), /blocks writes/);
    assert.match(plan[1].notes.join(), /contract migration/);
    assert.match(plan[2].notes.join(), /^a contract migration/);
    assert.match(plan[3].notes.join(), /NOT NULL column without a default/);
  });
});
