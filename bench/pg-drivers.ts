// `node --import tsx bench/pg-drivers.ts [--seconds S] [--rounds N] [--concurrency C] [--users U]
// [--drivers pg,pg/25,postgres.js,...]`: a what-if for issue 40. Ward's own storage code (createStorage over
// Kysely, query templates on) on PostgreSQL through two drivers: `pg` exactly as Ward runs it
// (connect(): a pg.Pool of 10, hot texts as named statements), and `postgres` (porsager) through
// kysely-postgres-js, a pool of 10 too, int8 as Number like connect()'s parser. kysely-postgres-js
// reserves a connection per query and calls `unsafe(text, values)`, which postgres.js runs unprepared
// (Parse and Describe, a round trip, then Bind and Execute) whatever its `prepare` option says; so
// postgres.js is measured three ways: as shipped (`postgres.js`), with `{prepare: true}` on each
// `unsafe` (`postgres.js/prepared`: each connection prepares a text once, as pg's named statements),
// and prepared with a connection reserved only for a transaction (`postgres.js/pipelined`: the other
// queries share the pool's connections and pipeline on them). Those settings and the wrapper are in
// ./experiments/postgres-js-dialect.ts, shared with `npm run bench -- --experiment postgres-js` (the
// whole Ward on the pipelined variant, end to end).
// Scenarios, C concurrent loops each, on U seeded users (each with a grant, an unused refresh token
// and an SSO session):
// - B4 storage: tokens.useRefreshToken (one data-modifying CTE), the successor used next time.
// - B5 storage: what Ward's storage does for one B5 flow (SSO authorize, then the code redeemed;
//   scope `openid profile email` as bench/flows-ward.ts, so no refresh token): sessions.findLiveWithUser
//   (sessions.touch when last seen over a minute ago), userConsents.ofUser, codes.insertWithGrant (one
//   CTE: the grant and its code), codes.consume (one CTE: the code with its user and profile).
// Before measuring, the same calls on a check user must give identical results on every driver.
// Rounds interleaved over the drivers (a 0.5 s warm-up before each run); prints the median rate, CPU
// of this process and of the driver's PostgreSQL backends (from /proc, when local) per operation, and
// the median of the per-round ratios to the first driver. Ward keeps `pg` unless a driver clears 10%
// on B4 or B5. Only the PostgreSQL of WARD_BENCH_DATABASE_URL, else 127.0.0.1:5432/test, in schemas
// of its own, dropped at the end (also on an error or Ctrl-C); every run is bounded in time.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Kysely, sql } from 'kysely';
import type { PostgresJSDialectConfig } from 'kysely-postgres-js';
import pg from 'pg';
import { connect, migrate, type Db } from '../src/storage/connect.js';
import { OwnSchemaPostgresDialect } from '../src/storage/engine/own-schema.js';
import { useQueryTemplates } from '../src/storage/engine/query-templates.js';
import type { Database } from '../src/storage/schema.js';
import { EMPTY_PROFILE } from '../src/storage/sql/profiles.js';
import { createStorage, type Storage } from '../src/storage/storage.js';
import { grantRow, userRow } from '../test/helpers/storage-rows.js';
import { ownSchemaPostgresJs, postgresJs, preparing } from './experiments/postgres-js-dialect.js';
import { onAbort } from './proc.js';

const argv = process.argv.slice(2);
const opt = (name: string, d: string) => (argv.includes(`--${name}`) ? argv[argv.indexOf(`--${name}`) + 1]! : d);
const seconds = Number(opt('seconds', '10'));
const rounds = Number(opt('rounds', '3'));
const concurrency = Number(opt('concurrency', '50'));
const users = Number(opt('users', '2000'));
const drivers = opt('drivers', 'pg,postgres.js,postgres.js/prepared,postgres.js/pipelined').split(',');
const BASE = process.env.WARD_BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
if (users < concurrency) throw new Error('--users must be at least --concurrency');

/** postgres.js set as connect() sets pg (./experiments/postgres-js-dialect.ts), in `schema`, its sessions named `app`. */
const postgresJsIn = (schema: string, app: string) => postgresJs(BASE, { search_path: schema, application_name: app });
const kyselyOver = (postgresJsSql: PostgresJSDialectConfig['postgres']): Db => {
  const db = new Kysely<Database>({ dialect: ownSchemaPostgresJs(postgresJsSql, OwnSchemaPostgresDialect) });
  useQueryTemplates(db);
  return { db, engine: 'postgres', sessions: db, close: () => db.destroy() };
};

/** `pg` through connect(), with a pool of `poolSize` (connect()'s default, 10, unless given). */
const pgDriver = (poolSize?: number) => (schema: string, app: string) => {
  const url = new URL(BASE);
  url.searchParams.set('application_name', app);
  return connect({ sqlitePath: '', postgresUrl: url.toString(), pgSchema: schema, poolSize });
};

const DRIVERS: Record<string, (schema: string, app: string) => Db> = {
  pg: pgDriver(),
  // pg with a larger pool: more statements in flight, as pipelining has.
  'pg/25': pgDriver(25),
  'postgres.js': (schema, app) => kyselyOver(postgresJsIn(schema, app)),
  'postgres.js/prepared': (schema, app) => kyselyOver(() => preparing(postgresJsIn(schema, app), false)),
  'postgres.js/pipelined': (schema, app) => kyselyOver(() => preparing(postgresJsIn(schema, app), true)),
};
for (const d of drivers) if (!DRIVERS[d]) throw new Error(`unknown driver ${d}: ${Object.keys(DRIVERS).join(', ')}`);

async function admin<T>(fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: BASE, connectionTimeoutMillis: 2000 });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}
const schemas: string[] = [];
const dropAll = () =>
  admin(async (c) => {
    for (const s of schemas.splice(0)) await c.query(`drop schema if exists ${s} cascade`);
  });
onAbort(dropAll);

const DAY = 86_400_000;
const SCOPE = 'openid profile email';
const t0 = Date.now();
const h = (s: string, enc: 'hex' | 'base64url' = 'hex') => createHash('sha256').update(s).digest(enc);
let serial = 0;

interface Side {
  name: string;
  app: string;
  storage: Storage;
  /** B4: the refresh tokens to use, each loop takes the first and puts back its successor. */
  tokens: string[];
  /** B5: the last user signed in. */
  user: number;
}

/** Users 0..users-1 for the runs, user `users` for the check (with a profile): each with a grant, a refresh token, a session. */
async function seed(s: Storage): Promise<void> {
  const one = async (i: number) => {
    await s.users.create(userRow(`u${i}`), t0);
    await s.tokens.createGrant(grantRow(`g${i}`, `u${i}`, t0, { expires_at: t0 + 30 * DAY }));
    await s.tokens.insertRefreshToken({
      digest: h(`r${i}`),
      grant_id: `g${i}`,
      client_id: 'spa',
      user_id: `u${i}`,
      scope: 'openid offline_access',
      created_at: t0,
      consumed_at: null,
    });
    await s.sessions.create({
      id_digest: h(`s${i}`),
      user_id: `u${i}`,
      auth_time: t0,
      amr: '["pwd"]',
      created_at: t0,
      last_seen_at: t0,
      expires_at: t0 + 7 * DAY,
      revoked_at: null,
      user_agent: 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0',
      ip: '127.0.0.1',
    });
  };
  for (let i = 0; i <= users; i += 50)
    await Promise.all(Array.from({ length: Math.min(50, users + 1 - i) }, (_, k) => one(i + k)));
  await s.profiles.put(
    `u${users}`,
    { ...EMPTY_PROFILE, nickname: 'ada', locale: 'en', zoneinfo: 'Europe/Paris', custom_fields: { n: 1 } },
    t0,
  );
}

/** B4's storage work: one refresh token used and rotated. */
async function useRefresh(s: Storage, digest: string, now: number, next: string) {
  return s.tokens.useRefreshToken(digest, { clientId: 'spa', now, jkt: null, nextDigest: next });
}

/** B5's storage work for user `i` (see the header); `tag` makes the grant and code unique. */
async function signIn(s: Storage, i: number, now: number, tag: string) {
  const session = await s.sessions.findLiveWithUser(h(`s${i}`), now, DAY);
  if (!session?.user) throw new Error(`B5: no live session for u${i}`);
  if (now - session.last_seen_at > 60_000) await s.sessions.touch(session.id_digest, now);
  const consents = await s.userConsents.ofUser(session.user_id);
  const { user_id, id_digest, auth_time, amr } = session;
  const expires_at = now + 30 * DAY;
  const grant = grantRow(`g-${tag}`, user_id, now, { session_id: id_digest, scope: SCOPE, auth_time, amr, expires_at });
  const code = h(`c-${tag}`);
  await s.codes.insertWithGrant(grant, {
    code_digest: code,
    client_id: 'spa',
    user_id,
    session_id: id_digest,
    redirect_uri: 'https://app.example/cb',
    scope: SCOPE,
    nonce: 'n-1',
    code_challenge: h(`p-${tag}`, 'base64url'),
    auth_time,
    amr,
    grant_id: grant.id,
    expires_at: now + 60_000,
    consumed_at: null,
    created_at: now,
    resource: null,
    step_up_action: null,
  });
  const consumed = await s.codes.consume(code, now);
  if (consumed.state !== 'ok') throw new Error(`B5: the code was ${consumed.state}`);
  return { session, consents, consumed };
}

/** The results of the calls on the check user, as plain JSON (a bigint would throw). */
async function check(s: Storage): Promise<unknown> {
  const [r, t] = [h(`r${users}`), t0 + 1000];
  const used = await useRefresh(s, r, t, h('next'));
  const reused = await useRefresh(s, r, t + 1, h('next2'));
  const successor = await s.tokens.findRefreshToken(h('next'));
  const b5 = await signIn(s, users, t, 'check');
  return JSON.parse(JSON.stringify({ used, reused, successor, b5 }));
}

const SCENARIOS: Record<string, (x: Side) => Promise<void>> = {
  'B4 storage': async (x) => {
    const next = h(`r-${++serial}`);
    if (!(await useRefresh(x.storage, x.tokens.shift()!, Date.now(), next)).rotated)
      throw new Error(`${x.name} B4: the token did not rotate`);
    x.tokens.push(next);
  },
  'B5 storage': async (x) => {
    x.user = (x.user + 1) % users;
    await signIn(x.storage, x.user, Date.now(), `${++serial}`);
  },
};

const TICK_US = 1e6 / Number(execFileSync('getconf', ['CLK_TCK']).toString());
/** CPU time (µs) of each PostgreSQL backend of `app`, by pid; null when /proc does not show them (a remote server). */
async function backendCpu(app: string): Promise<Map<number, number> | null> {
  const { rows } = await admin((c) =>
    c.query<{ pid: number }>('select pid from pg_stat_activity where application_name = $1', [app]),
  );
  try {
    return new Map(
      rows.map(({ pid }) => {
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        return [pid, (Number(f[11]) + Number(f[12])) * TICK_US];
      }),
    );
  } catch {
    return null;
  }
}

interface Run {
  rate: number;
  cpuUs: number;
  serverUs: number | null;
}
async function run(x: Side, op: (x: Side) => Promise<void>, secs: number): Promise<Run> {
  const before = await backendCpu(x.app);
  const cpu = process.cpuUsage();
  const start = performance.now();
  let ops = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() - start < secs * 1000) {
        await op(x);
        ops++;
      }
    }),
  );
  const ms = performance.now() - start;
  const { user, system } = process.cpuUsage(cpu);
  const after = await backendCpu(x.app);
  const server = after && before && [...after].reduce((n, [pid, us]) => n + us - (before.get(pid) ?? 0), 0);
  return { rate: (ops * 1000) / ms, cpuUs: (user + system) / ops, serverUs: server === null ? null : server / ops };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
const sides: Side[] = [];
// Bounded: a run that hangs (a lost connection) ends the process, its schemas dropped.
const watchdog = setTimeout(
  () => {
    process.stderr.write('pg-drivers: took too long, stopping\n');
    void Promise.race([dropAll(), new Promise((r) => setTimeout(r, 5000))]).then(() => process.exit(1));
  },
  (120 + drivers.length * rounds * 2 * (seconds + 1) * 2) * 1000,
);
watchdog.unref();
let failed = false;
try {
  let expected: unknown;
  for (const name of drivers) {
    const schema = `ward_pgdrv_${randomBytes(5).toString('hex')}`;
    await admin((c) => c.query(`create schema ${schema}`));
    schemas.push(schema);
    const d = DRIVERS[name]!(schema, schema);
    const storage = createStorage(d);
    sides.push({ name, app: schema, storage, tokens: Array.from({ length: users }, (_, i) => h(`r${i}`)), user: 0 });
    await migrate(d);
    await seed(storage);
    await sql`analyze users, user_profiles, grants, refresh_tokens, sessions, authorization_codes, user_consents`.execute(
      d.db,
    );
    const got = await check(storage);
    if (expected === undefined) expected = got;
    else assert.deepStrictEqual(got, expected, `${name} answers differently from ${drivers[0]}`);
  }
  process.stdout.write(
    `node ${process.version}, load average ${(await import('node:os'))
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}; ` +
      `${users} users, ${concurrency} loops, ${rounds} round(s) x ${seconds} s; the check calls answered the same on every driver\n`,
  );
  for (const [scenario, op] of Object.entries(SCENARIOS)) {
    const runs: Run[][] = sides.map(() => []);
    for (let r = 0; r < rounds; r++)
      for (const [i, x] of sides.entries()) {
        await run(x, op, 0.5);
        runs[i]!.push(await run(x, op, seconds));
      }
    const [w1, w2, w3] = [22, 9, 13];
    process.stdout.write(
      `\n${scenario}\n${'driver'.padEnd(w1)}${'ops/s'.padStart(w2)}${'CPU µs/op'.padStart(w3)}${'PG CPU µs/op'.padStart(w3 + 1)}` +
        `${'rate vs 1st'.padStart(w3)}${'CPU vs 1st'.padStart(w3)}\n`,
    );
    for (const [i, x] of sides.entries()) {
      const mine = runs[i]!;
      const ratio = (f: (r: Run) => number) => median(mine.map((m, k) => f(m) / f(runs[0]![k]!))).toFixed(2);
      const server = mine.every((m) => m.serverUs !== null) ? median(mine.map((m) => m.serverUs!)).toFixed(0) : '-';
      process.stdout.write(
        `${x.name.padEnd(w1)}${median(mine.map((m) => m.rate))
          .toFixed(0)
          .padStart(w2)}` +
          `${median(mine.map((m) => m.cpuUs))
            .toFixed(0)
            .padStart(w3)}${server.padStart(w3 + 1)}` +
          `${`${ratio((m) => m.rate)}x`.padStart(w3)}${`${ratio((m) => m.cpuUs)}x`.padStart(w3)}\n`,
      );
    }
  }
} catch (e) {
  failed = true;
  process.stderr.write(`pg-drivers: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
} finally {
  for (const x of sides) await x.storage.close().catch(() => undefined);
  await dropAll();
}
process.exit(failed ? 1 : 0);
