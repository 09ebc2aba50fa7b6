import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, Migrator, SqliteDialect, sql, type Migration, type MigrationProvider } from 'kysely';
import { createRequire } from 'node:module';
import type pg from 'pg';
import type { PoolCounts } from '../observability/ward-metrics.js';
import * as m001 from './migrations/001-initial.js';
import * as m002 from './migrations/002-management.js';
import * as m003 from './migrations/003-mfa.js';
import * as m004 from './migrations/004-identities.js';
import * as m005 from './migrations/005-social-providers.js';
import * as m006 from './migrations/006-users-role-index.js';
import * as m007 from './migrations/007-sealed-access-tokens.js';
import * as m008 from './migrations/008-interactions.js';
import * as m009 from './migrations/009-client-response-types.js';
import * as m010 from './migrations/010-logout.js';
import * as m011 from './migrations/011-key-families.js';
import * as m012 from './migrations/012-passkeys.js';
import * as m013 from './migrations/013-account-codes.js';
import * as m014 from './migrations/014-profiles.js';
import * as m015 from './migrations/015-sign-in-failures.js';
import * as m016 from './migrations/016-client-token-rules.js';
import * as m017 from './migrations/017-totp-recovery-codes.js';
import * as m018 from './migrations/018-user-external-ids.js';
import * as m019 from './migrations/019-webhooks.js';
import * as m020 from './migrations/020-consents.js';
import * as m021 from './migrations/021-hooks.js';
import * as m022 from './migrations/022-webhook-health.js';
import * as m023 from './migrations/023-account-deletions.js';
import * as m024 from './migrations/024-session-devices.js';
import * as m025 from './migrations/025-api-resources.js';
import * as m026 from './migrations/026-client-registrations.js';
import * as m036 from './migrations/036-mfa-enrolment-skips.js';
import * as m027 from './migrations/027-user-import-jobs.js';
import * as m031 from './migrations/031-device-authorizations.js';
import * as m033 from './migrations/033-step-up-actions.js';
import * as m034 from './migrations/034-code-step-up-actions.js';
import * as m039 from './migrations/039-grant-dpop-keys.js';
import * as m040 from './migrations/040-user-custom-identifiers.js';
import * as m044 from './migrations/044-profile-addresses.js';
import * as m045 from './migrations/045-passkey-second-factor.js';
import * as m041 from './migrations/041-session-ip.js';
import * as m042 from './migrations/042-user-consents.js';
import * as m043 from './migrations/043-user-consent-history.js';
import * as m035 from './migrations/035-last-second-factors.js';
import * as m038 from './migrations/038-client-assertion-keys.js';
import * as m046 from './migrations/046-client-request-objects.js';
import * as m048 from './migrations/048-profile-names.js';
import { markingClient, survivingOutages } from './pg-faults.js';
import { TUNED, type Tuning } from '../config/tuning.js';
import { batchingWrites } from './engine/group-commit.js';
import { holdingStatements } from './engine/held-statements.js';
import { OwnSchemaPostgresDialect } from './engine/own-schema.js';
import { namingOn, namingStatements } from './engine/pg-named.js';
import { pipelinedPool, pipelineSplit } from './engine/pg-pipeline.js';
import { useQueryTemplates } from './engine/query-templates.js';
import { SQLITE_TUNING } from './engine/sqlite-pragmas.js';
import type { Database } from './schema.js';
import { outageLog, type OutageLog } from './unavailable.js';
import { observingQueries, type QueryObserver } from './observe.js';

export type Engine = 'sqlite' | 'postgres';

export interface Db {
  db: Kysely<Database>;
  engine: Engine;
  /** PostgreSQL only: the pool's connection counts (metrics). */
  pool?: PoolCounts;
  /**
   * Where work that ties state to its session outside a transaction runs (the migrator's advisory
   * lock): `db` itself, but with `pg_pipeline` a Kysely on the pool's connections alone.
   */
  sessions: Kysely<Database>;
  /** SQLite only: the group commit the writes made so far wait for (`engine/group-commit.ts`). */
  settled?: () => Promise<void> | undefined;
  close(): Promise<void>;
}

/** pg is loaded only when a PostgreSQL URL is configured: an SQLite instance never pays for it at start-up. */
function loadPg(): typeof pg {
  const driver = createRequire(import.meta.url)('pg') as typeof pg;
  // int8 (bigint) columns hold epoch milliseconds: well inside Number's safe range.
  driver.types.setTypeParser(20, (v: string) => Number(v));
  return driver;
}

export interface ConnectOptions {
  /** SQLite file path (or ':memory:'), used when `postgresUrl` is null. */
  sqlitePath: string;
  postgresUrl: string | null;
  /** PostgreSQL schema to work in (tests give each run its own). */
  pgSchema?: string;
  poolSize?: number;
  /** The speed-ups to use (default: all of them). */
  tuning?: Tuning;
  /** Where the outage lines go (`unavailable.ts`); standard error when not given (the CLI's one-off commands). */
  outage?: OutageLog;
  /** Told about every statement (metrics, traces; observe.ts). */
  observers?: readonly QueryObserver[];
}

const stderrOutage = (): OutageLog =>
  outageLog({
    warn: (obj, msg) => process.stderr.write(`ward: ${msg} ${JSON.stringify(obj)}\n`),
    info: (obj, msg) => process.stderr.write(`ward: ${msg} ${JSON.stringify(obj)}\n`),
  });

/**
 * Bounds on waiting for PostgreSQL. A connection attempt to a server that does not answer (a
 * failover, a dropped route) fails after 5 s instead of holding the request forever; TCP keepalive
 * finds a connection whose server vanished without closing it.
 */
const PG_CONNECT_TIMEOUT_MS = 5000;

const logging = (engine: Engine, opts: ConnectOptions) =>
  opts.observers?.length ? { log: observingQueries(engine, opts.observers) } : {};

export function connect(opts: ConnectOptions): Db {
  const tuning = opts.tuning ?? TUNED;
  if (opts.postgresUrl) {
    const driver = loadPg();
    const outage = opts.outage ?? stderrOutage();
    const size = opts.poolSize ?? 10;
    const split = tuning.pg_pipeline ? pipelineSplit(size) : { lanes: 0, pool: size };
    const settings = {
      connectionString: opts.postgresUrl,
      connectionTimeoutMillis: PG_CONNECT_TIMEOUT_MS,
      keepAlive: true,
      // Names Ward's sessions in pg_stat_activity unless the URL or PGAPPNAME names them.
      fallback_application_name: 'ward',
      ...(opts.pgSchema ? { options: `-c search_path=${opts.pgSchema}` } : {}),
    };
    const pool = new driver.Pool({ ...settings, max: split.pool });
    if (tuning.pg_named_statements) namingStatements(pool);
    survivingOutages(pool, outage);
    let counts: PoolCounts = pool;
    let forKysely: Pick<pg.Pool, 'connect' | 'end'> = pool;
    let sessions: Kysely<Database> | undefined;
    if (split.lanes) {
      // Never destroyed itself: the pool it shares ends with `db`.
      sessions = new Kysely<Database>({
        dialect: new OwnSchemaPostgresDialect({ pool }),
        ...logging('postgres', opts),
      });
      const newClient = () => {
        const client = new driver.Client({ ...settings, pipeline: true });
        if (tuning.pg_named_statements) namingOn(client);
        markingClient(client, outage);
        return client;
      };
      ({ pool: forKysely, counts } = pipelinedPool(pool, split.lanes, newClient, outage));
    }
    const dialect = new OwnSchemaPostgresDialect({ pool: forKysely as pg.Pool });
    const db = new Kysely<Database>({ dialect, ...logging('postgres', opts) });
    if (tuning.query_templates) useQueryTemplates(db);
    return { db, engine: 'postgres', pool: counts, sessions: sessions ?? db, close: () => db.destroy() };
  }
  if (opts.sqlitePath !== ':memory:') mkdirSync(dirname(opts.sqlitePath), { recursive: true });
  const file = new SqliteDatabase(opts.sqlitePath);
  // Statements are held for the process's life (engine/held-statements.ts): the settings go through
  // `exec`, which makes none, not `pragma`, which would leave one per call to the garbage collector.
  file.exec('pragma journal_mode = WAL');
  file.exec('pragma synchronous = NORMAL');
  file.exec('pragma busy_timeout = 5000');
  if (tuning.sqlite_pragmas) for (const p of SQLITE_TUNING) file.exec(`pragma ${p}`);
  const batch = tuning.group_commit ? batchingWrites(file) : undefined;
  // Kysely's SQLite driver calls `prepare` per query: an own property shadows the prototype's
  // method for this one connection, with the speed-ups chosen.
  file.prepare = holdingStatements(file, batch?.wrap) as typeof file.prepare;
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: file }), ...logging('sqlite', opts) });
  if (tuning.query_templates) useQueryTemplates(db);
  return {
    db,
    engine: 'sqlite',
    sessions: db,
    settled: batch?.settled,
    close: async () => {
      batch?.flush();
      await db.destroy();
    },
  };
}

const MIGRATIONS: Record<string, Migration> = {
  '001-initial': m001,
  '002-management': m002,
  '003-mfa': m003,
  '004-identities': m004,
  '005-social-providers': m005,
  '006-users-role-index': m006,
  '007-sealed-access-tokens': m007,
  '008-interactions': m008,
  '009-client-response-types': m009,
  '010-logout': m010,
  '011-key-families': m011,
  '012-passkeys': m012,
  '013-account-codes': m013,
  '014-profiles': m014,
  '015-sign-in-failures': m015,
  '016-client-token-rules': m016,
  '020-consents': m020,
  '017-totp-recovery-codes': m017,
  '019-webhooks': m019,
  '022-webhook-health': m022,
  '018-user-external-ids': m018,
  '021-hooks': m021,
  '023-account-deletions': m023,
  '024-session-devices': m024,
  '025-api-resources': m025,
  '026-client-registrations': m026,
  '036-mfa-enrolment-skips': m036,
  '027-user-import-jobs': m027,
  '031-device-authorizations': m031,
  '033-step-up-actions': m033,
  '034-code-step-up-actions': m034,
  '039-grant-dpop-keys': m039,
  '040-user-custom-identifiers': m040,
  '044-profile-addresses': m044,
  '045-passkey-second-factor': m045,
  '041-session-ip': m041,
  '042-user-consents': m042,
  '043-user-consent-history': m043,
  '035-last-second-factors': m035,
  '038-client-assertion-keys': m038,
  '046-client-request-objects': m046,
  '048-profile-names': m048,
};

const KNOWN_MIGRATIONS = new Set(Object.keys(MIGRATIONS));
/** The migrations in the order they run. */
export const MIGRATION_LIST: ReadonlyArray<readonly [string, Migration]> = Object.entries(MIGRATIONS).sort(([a], [b]) =>
  a.localeCompare(b),
);

/** A contract migration removes or changes what earlier code uses: it is named `NNN-contract-...`. */
export const isContractMigration = (name: string): boolean => /^\d+-contract-/.test(name);

/**
 * The migrations applied to the database that this code cannot run against: contract migrations
 * (named `NNN-contract-...`, docs/operations.md) it does not know, made by a newer release. An
 * unknown expand migration (any other name) only adds what this code does not use, so it is no
 * reason to stop serving.
 */
export function contractsBeyond(applied: string[]): string[] {
  return applied.filter((name) => !KNOWN_MIGRATIONS.has(name) && isContractMigration(name));
}

class StaticProvider implements MigrationProvider {
  async getMigrations(): Promise<Record<string, Migration>> {
    return MIGRATIONS;
  }
}

/**
 * Applies every numbered migration not yet applied; returns the names applied now. `onEmpty` is
 * called before they run on an empty database (a first start), for work that may begin meanwhile.
 */
export async function migrate(d: Db, opts: { onEmpty?: () => void } = {}): Promise<string[]> {
  // Kysely's migrator holds a session-level advisory lock on PostgreSQL, so processes starting
  // together apply each migration once: it runs where a session stays one connection
  // (`sessions`, off the pipelined lanes). Its bookkeeping tables go in the schema Ward works in:
  // unqualified, it would take a same-named table of any other schema for its own.
  const db = d.sessions;
  const schema =
    d.engine === 'postgres'
      ? (await sql<{ schema: string }>`select current_schema() as schema`.execute(db)).rows[0]?.schema
      : undefined;
  // Unordered: branches merged into one release add migrations side by side, so a database at the
  // previous release may hold 023 but not 022. Each migration only adds (docs/operations.md#upgrades),
  // so the missing ones apply after the newer ones, in name order.
  const migrator = new Migrator({
    db,
    provider: new StaticProvider(),
    allowUnorderedMigrations: true,
    ...(schema ? { migrationTableSchema: schema } : {}),
  });
  // One transaction per migration: migrateToLatest runs them all in one, which holds every table they
  // alter until the last commits, and a running release's statement that takes two of those tables in
  // the other order deadlocks with it (docs/operations.md#upgrades, rule 2).
  const applied: string[] = [];
  const known = await migrator.getMigrations();
  const pending = known.filter((m) => m.executedAt === undefined);
  // An empty database (a first start): no release runs against it, so nothing can deadlock with the
  // migrations. They run in one call, without a lock and bookkeeping round per migration, and on
  // PostgreSQL in one transaction (Kysely runs SQLite's DDL without one, as it did per migration).
  if (pending.length === known.length && pending.length > 0) {
    opts.onEmpty?.();
    const { error, results } = await migrator.migrateToLatest();
    if (error) throw error instanceof Error ? error : new Error(String(error));
    return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
  }
  for (const { name } of pending) {
    const { error, results } = await migrator.migrateTo(name);
    if (error) throw error instanceof Error ? error : new Error(String(error));
    applied.push(...(results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName));
  }
  return applied;
}
