// `ward migrate --plan` (issue 40, item 3): the migrations not yet applied to the configured database,
// each with the SQL it will run and whether it is safe to run while the current release serves. The SQL
// comes from running the migration against a compile-only Kysely of the same engine (its DummyDriver
// runs nothing and answers no rows), so nothing is changed and nothing is locked.
import {
  DummyDriver,
  Kysely,
  type Migration,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
  sql,
} from 'kysely';
import { type Db, type Engine, MIGRATION_LIST, isContractMigration } from './connect.js';

export interface PlannedMigration {
  name: string;
  statements: string[];
  /** Safe to run while processes of the current release serve. */
  online: boolean;
  /** Why not, or what to watch. */
  notes: string[];
}

function compileOnly(engine: Engine, statements: string[]): Kysely<unknown> {
  const pg = engine === 'postgres';
  return new Kysely<unknown>({
    dialect: {
      createAdapter: () => (pg ? new PostgresAdapter() : new SqliteAdapter()),
      createDriver: () => new DummyDriver(),
      createIntrospector: (db) => (pg ? new PostgresIntrospector(db) : new SqliteIntrospector(db)),
      createQueryCompiler: () => (pg ? new PostgresQueryCompiler() : new SqliteQueryCompiler()),
    },
    log: (event) => {
      if (event.level === 'query') statements.push(event.query.sql);
    },
  });
}

/** What in a statement keeps a running release from serving, or blocks it while it runs. */
function risks(engine: Engine, statement: string, contract: boolean, created: Set<string>): string[] {
  const s = statement.toLowerCase();
  const out: string[] = [];
  const table = /^create table (?:if not exists )?"([^"]+)"/.exec(s)?.[1];
  if (table) created.add(table);
  const indexed = /\bon "([^"]+)"/.exec(s)?.[1];
  if (!contract && /\b(drop (table|column|index)|rename|alter column)\b/.test(s))
    out.push(`removes or changes what the running release may use (a contract migration): ${statement}`);
  const newTable = indexed !== undefined && created.has(indexed);
  if (engine === 'postgres' && /^create (unique )?index\b/.test(s) && !s.includes('concurrently') && !newTable)
    out.push(`blocks writes to the table while the index builds: ${statement}`);
  if (/\badd column\b/.test(s) && /\bnot null\b/.test(s) && !/\bdefault\b/.test(s))
    out.push(`a NOT NULL column without a default fails on a table with rows: ${statement}`);
  return out;
}

/** The existing tables (not created by the migration) whose schema it changes: each held exclusively until it commits. */
function lockedTables(statements: string[], created: Set<string>): string[] {
  const tables = new Set<string>();
  for (const statement of statements) {
    const s = statement.toLowerCase();
    const table = /^alter table "([^"]+)"/.exec(s)?.[1] ?? /^create (?:unique )?index\b.*\bon "([^"]+)"/.exec(s)?.[1];
    if (table && !created.has(table)) tables.add(table);
  }
  return [...tables];
}

/** The names of the migrations the database has applied (none when it was never migrated). */
async function applied(d: Db): Promise<Set<string>> {
  try {
    const { rows } = await sql<{ name: string }>`select name from kysely_migration`.execute(d.db);
    return new Set(rows.map((r) => r.name));
  } catch {
    return new Set();
  }
}

/** The pending migrations, in order, with their SQL and whether each can run online. */
export async function planMigrations(d: Db): Promise<PlannedMigration[]> {
  const done = await applied(d);
  return planMigrationsOf(
    d.engine,
    MIGRATION_LIST.filter(([name]) => !done.has(name)),
  );
}

/** The plan of these migrations on this engine. */
export async function planMigrationsOf(
  engine: Engine,
  pending: ReadonlyArray<readonly [string, Migration]>,
): Promise<PlannedMigration[]> {
  const plan: PlannedMigration[] = [];
  for (const [name, migration] of pending) {
    const statements: string[] = [];
    const db = compileOnly(engine, statements);
    await migration.up(db);
    await db.destroy();
    const contract = isContractMigration(name);
    const created = new Set<string>();
    const notes = statements.flatMap((s) => risks(engine, s, contract, created));
    const locked = lockedTables(statements, created);
    if (locked.length > 1)
      notes.push(
        `locks ${locked.length} existing tables in one transaction (${locked.join(', ')}): a request that ` +
          'writes them in another order deadlocks with it; change one existing table per migration',
      );
    if (contract)
      notes.unshift('a contract migration: run it only once no process of a release that uses what it removes runs');
    plan.push({ name, statements, online: !contract && notes.length === 0, notes });
  }
  return plan;
}

/** The plan as `ward migrate --plan` prints it. */
export function describePlan(plan: PlannedMigration[]): string {
  if (!plan.length) return 'The database is up to date: no migration to run.\n';
  const lines: string[] = [];
  for (const m of plan) {
    lines.push(`${m.name}: ${m.online ? 'safe to run online' : 'NOT safe to run online'}`);
    for (const s of m.statements) lines.push(`  ${s};`);
    for (const n of m.notes) lines.push(`  ! ${n}`);
  }
  return `${lines.join('\n')}\n`;
}
