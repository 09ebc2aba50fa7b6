// Fills Ward's `users` table with generated users, for the "cost does not grow with the user count"
// measurement (`npm run bench -- --users 0,100k,1m`, see bench/README.md). The table must exist
// (Ward's migrations: start Ward once, or `cli.js migrate`), and Ward should be stopped meanwhile.
//
// Rows look like signups: a random 32-hex id (as `randomId()`), an email `seed-<i>@users.seed.example`
// (a domain no scenario user has), a phone number on every other user (the unique index on
// phone_number is filled too), names, email verified, and ONE argon2id hash (Ward's parameters,
// computed once) for every user: hashing a million passwords is not what is measured.
// Same rows on both engines: SQLite through one better-sqlite3 prepared insert in transactions of
// 50 000 rows; PostgreSQL through `insert ... select from unnest($arrays)`, 20 000 rows a statement.
//
//   node --import tsx bench/seed-users.ts --sqlite /path/ward.db --count 1m [--from 0]
//   node --import tsx bench/seed-users.ts --postgres postgres://postgres@127.0.0.1:5432/test --schema s --count 1m
import { randomBytes } from 'node:crypto';
import { statSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { Algorithm, hash } from '@node-rs/argon2';
import Database from 'better-sqlite3';
import pg from 'pg';

export const SEED_DOMAIN = 'users.seed.example';
export type SeedTarget = { engine: 'sqlite'; file: string } | { engine: 'postgres'; url: string; schema: string };

/** `100k`, `1m`, `1M`, `250000`: a count of users. */
export function parseCount(s: string): number {
  const m = /^(\d+(?:\.\d+)?)([kKmM]?)$/.exec(s.trim());
  if (!m) throw new Error(`not a user count: ${s} (e.g. 0, 100k, 1m, 250000)`);
  return Math.round(Number(m[1]) * (m[2] ? (m[2].toLowerCase() === 'k' ? 1e3 : 1e6) : 1));
}
export const countLabel = (n: number) =>
  n >= 1e6 && n % 1e6 === 0 ? `${n / 1e6}M` : n >= 1e3 && n % 1e3 === 0 ? `${n / 1e3}k` : String(n);

let seedHash: Promise<string> | null = null;
/** One argon2id hash with Ward's parameters (src/accounts/passwords.ts), of a password no one uses. */
const passwordHash = () =>
  (seedHash ??= hash('seed-user-password-not-used', {
    algorithm: Algorithm.Argon2id,
    memoryCost: 19456,
    timeCost: 2,
    parallelism: 1,
  }));

interface Batch {
  id: string[];
  email: string[];
  phone: Array<string | null>;
  given: string[];
  family: string[];
  created: number[];
}

function batch(from: number, to: number, now: number): Batch {
  const n = to - from;
  const hex = randomBytes(16 * n).toString('hex');
  const b: Batch = { id: [], email: [], phone: [], given: [], family: [], created: [] };
  for (let k = 0; k < n; k++) {
    const i = from + k;
    b.id.push(hex.slice(32 * k, 32 * k + 32));
    b.email.push(`seed-${i}@${SEED_DOMAIN}`);
    b.phone.push(i % 2 === 0 ? `+3361${String(i / 2).padStart(7, '0')}` : null); // +33 6 1xxxxxxx: 5M distinct
    b.given.push(`Seed${i % 1000}`);
    b.family.push(`User${i}`);
    b.created.push(now - (1 + ((7919 * i) % 31_536_000)) * 1000); // spread over the past year
  }
  return b;
}

export interface SeedResult {
  inserted: number;
  ms: number;
  perSecond: number;
}

/** Inserts users seed-<from> .. seed-<from+count-1>. */
export async function seedUsers(
  t: SeedTarget,
  count: number,
  from = 0,
  log: (s: string) => void = () => undefined,
): Promise<SeedResult> {
  const ph = await passwordHash();
  const now = Date.now();
  const t0 = performance.now();
  const progress = (done: number) => {
    if (done % 200_000 === 0 || done === count)
      log(`  seeded ${done}/${count} users (${((performance.now() - t0) / 1000).toFixed(1)} s)`);
  };
  if (t.engine === 'sqlite') {
    const db = new Database(t.file);
    try {
      db.pragma('journal_mode = WAL'); // what Ward uses; it is already so
      db.pragma('synchronous = OFF'); // this connection only: a crash while seeding just means seeding again
      db.pragma('cache_size = -262144'); // 256 MiB for this connection: random ids go all over the id index
      const ins =
        db.prepare(`insert into users (id, email, phone_number, password_hash, given_name, family_name, email_verified,
        phone_number_verified, role, disabled, created_at, updated_at) values (?, ?, ?, ?, ?, ?, 1, 0, null, 0, ?, ?)`);
      const step = 50_000;
      for (let a = 0; a < count; a += step) {
        const b = batch(from + a, from + Math.min(count, a + step), now);
        db.transaction(() => {
          for (let k = 0; k < b.id.length; k++)
            ins.run(b.id[k], b.email[k], b.phone[k], ph, b.given[k], b.family[k], b.created[k], b.created[k]);
        })();
        progress(Math.min(count, a + step));
      }
      db.pragma('wal_checkpoint(TRUNCATE)');
    } finally {
      db.close();
    }
  } else {
    const c = new pg.Client({
      connectionString: t.url,
      options: `-c search_path=${t.schema}`,
      statement_timeout: 120_000,
    });
    await c.connect();
    try {
      await c.query('set synchronous_commit = off');
      const step = 20_000;
      for (let a = 0; a < count; a += step) {
        const b = batch(from + a, from + Math.min(count, a + step), now);
        await c.query(
          `insert into users (id, email, phone_number, password_hash, given_name, family_name, email_verified,
          phone_number_verified, role, disabled, created_at, updated_at)
          select u.id, u.email, u.phone, $6, u.given, u.family, 1, 0, null, 0, u.created, u.created
          from unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $7::int8[]) as u(id, email, phone, given, family, created)`,
          [b.id, b.email, b.phone, b.given, b.family, ph, b.created],
        );
        progress(Math.min(count, a + step));
      }
      // What autovacuum would do shortly after a bulk load: planner statistics for the new rows.
      await c.query('analyze users');
    } finally {
      await c.end();
    }
  }
  const ms = performance.now() - t0;
  return { inserted: count, ms, perSecond: count / (ms / 1000) };
}

export interface StoreSize {
  users: number;
  seeded: number;
  bytes: number;
  what: string;
}

/** Rows in `users` (all, and seeded ones) and the size on disk: the SQLite file, or the users table with its indexes. */
export async function storeSize(t: SeedTarget): Promise<StoreSize> {
  if (t.engine === 'sqlite') {
    const db = new Database(t.file, { readonly: true });
    try {
      const users = (db.prepare('select count(*) as n from users').get() as { n: number }).n;
      const seeded = (
        db.prepare(`select count(*) as n from users where email like 'seed-%@${SEED_DOMAIN}'`).get() as { n: number }
      ).n;
      const size = (f: string) => {
        try {
          return statSync(f).size;
        } catch {
          return 0;
        }
      };
      return { users, seeded, bytes: size(t.file) + size(`${t.file}-wal`), what: 'SQLite file ward.db (+ -wal)' };
    } finally {
      db.close();
    }
  }
  const c = new pg.Client({ connectionString: t.url, options: `-c search_path=${t.schema}` });
  await c.connect();
  try {
    const r = await c.query<{ users: string; seeded: string; bytes: string }>(
      `select (select count(*) from users) as users, (select count(*) from users where email like $1) as seeded, pg_total_relation_size('users') as bytes`,
      [`seed-%@${SEED_DOMAIN}`],
    );
    const row = r.rows[0]!;
    return {
      users: Number(row.users),
      seeded: Number(row.seeded),
      bytes: Number(row.bytes),
      what: 'PostgreSQL users table + indexes (pg_total_relation_size)',
    };
  } finally {
    await c.end();
  }
}

async function main(argv: string[]) {
  const opt = (n: string) => {
    const i = argv.indexOf(`--${n}`);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const count = parseCount(opt('count') ?? '');
  const from = Number(opt('from') ?? 0);
  const sqlite = opt('sqlite');
  const url = opt('postgres');
  const t: SeedTarget = sqlite
    ? { engine: 'sqlite', file: sqlite }
    : url
      ? { engine: 'postgres', url, schema: opt('schema') ?? 'public' }
      : (() => {
          throw new Error('--sqlite FILE or --postgres URL --schema S');
        })();
  const r = await seedUsers(t, count, from, (s) => process.stdout.write(s + '\n'));
  const s = await storeSize(t);
  process.stdout.write(
    `${r.inserted} users in ${(r.ms / 1000).toFixed(1)} s (${r.perSecond.toFixed(0)}/s); users now ${s.users} (${s.seeded} seeded); ${s.what}: ${(s.bytes / 2 ** 20).toFixed(0)} MiB\n`,
  );
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main(process.argv.slice(2)).catch((e: unknown) => {
    process.stderr.write(`seed-users: ${(e as Error).stack ?? String(e)}\n`);
    process.exit(1);
  });
}
