import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { parseTuning, type Tuning } from '../../src/config/tuning.js';
import { connect, migrate, type Db } from '../../src/storage/connect.js';

/** The engines a contract test runs on: SQLite always, PostgreSQL when WARD_TEST_DATABASE_URL is set. */
export function engines(): Array<'sqlite' | 'postgres'> {
  return process.env.WARD_TEST_DATABASE_URL ? ['sqlite', 'postgres'] : ['sqlite'];
}

export function testPostgresUrl(): string | null {
  return process.env.WARD_TEST_DATABASE_URL ?? null;
}

/**
 * The speed-ups the tests run with: all, unless WARD_TUNING=off (scripts/run-tests.mjs runs the
 * contract tests a second time so) or WARD_TUNING_OFF names some.
 */
export function testTuning(): Tuning {
  return parseTuning(process.env.WARD_TUNING || undefined, process.env.WARD_TUNING_OFF, (k, m) => {
    throw new Error(`${k} ${m}`);
  });
}

/**
 * A fresh, migrated database: a temp SQLite file, or its own PostgreSQL schema (dropped on close);
 * with the tests' speed-ups unless `tuning` is given.
 */
export async function freshDb(engine: 'sqlite' | 'postgres', tuning = testTuning()): Promise<Db> {
  if (engine === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'ward-db-'));
    const d = connect({ sqlitePath: join(dir, 'ward.db'), postgresUrl: null, tuning });
    await migrate(d);
    return d;
  }
  const { schema, url, drop } = await freshPgSchema();
  const d = connect({ sqlitePath: '', postgresUrl: url, pgSchema: schema, tuning });
  await migrate(d);
  const close = d.close;
  return {
    ...d,
    close: async () => {
      await close();
      await drop();
    },
  };
}

export async function freshPgSchema(): Promise<{ schema: string; url: string; drop: () => Promise<void> }> {
  const url = testPostgresUrl();
  if (!url) throw new Error('WARD_TEST_DATABASE_URL is not set');
  const schema = `ward_t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  await admin.end();
  return {
    schema,
    url,
    drop: () => dropPgSchema(url, schema),
  };
}

/** Drops a schema freshPgSchema made (the last Ward on it, when several start on one database). */
export async function dropPgSchema(url: string, schema: string): Promise<void> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  await c.query(`drop schema if exists ${schema} cascade`);
  await c.end();
}
