// Starting Ward for the benchmark: src/ built as `npm run build` builds it (scripts/build.mjs: one
// bundled module) into bench/.build/ward, then `node cli.js start` as a child: plain HTTP on 127.0.0.1 (WARD_TLS=off,
// as behind a TLS proxy), WARD_MODE=production, WARD_LOG_LEVEL=warn, codes by SMTP to the sink,
// rate limits off, a temp data dir (SQLite) or a dedicated PostgreSQL schema dropped afterwards.
import { execFileSync, execSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Plugin } from 'esbuild';
import pg from 'pg';
import { freePort, onAbort, startChild, type Child } from './proc.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const MGMT_SECRET = 'bench-management-secret-0123456789abcdef';
/** The password-strength thread's idle period in the measured Ward (seconds; Ward's default is 60). */
export const STRENGTH_IDLE_S = 5;
/** bench-admin: creates B4e's ES256 client through the management API. */
export const ADMIN_SECRET = 'bench-admin-secret-0123456789abcdef-0123';
/** bench-users: imports and exports users (I1, bench/import-export.ts). */
export const USERS_SECRET = 'bench-users-secret-0123456789abcdef-01234';

/**
 * The what-ifs of `--experiment` (a comma list; run.ts refuses any other name): `stmt-cache` and
 * `smtp-pool` are applied by hook.mjs as Ward runs, `postgres-js` when Ward is built (buildWard).
 */
export const EXPERIMENTS = ['stmt-cache', 'smtp-pool', 'postgres-js'];
const CONNECT_LINE = 'new OwnSchemaPostgresDialect({ pool })';

/**
 * `--experiment postgres-js`: the build's src/storage/connect.ts with the PostgreSQL dialect of its
 * Kysely (`new OwnSchemaPostgresDialect({ pool })`, in the line that makes the Kysely) replaced by
 * bench/experiments/postgres-js-dialect.ts's postgresJsDialect(opts, OwnSchemaPostgresDialect):
 * Ward's queries on postgres.js (kysely-postgres-js, prepared and pipelined), the pg pool kept for
 * the rest. The build fails if that line is not there once, so no run measures plain Ward instead.
 */
function postgresJsSwap(src: string): { plugin: Plugin; check(): void } {
  const file = join(src, 'storage/connect.ts');
  const real = existsSync(file) ? realpathSync(file) : file;
  const module = join(ROOT, 'bench/experiments/postgres-js-dialect.ts');
  let swapped = false;
  const plugin: Plugin = {
    name: 'bench-postgres-js',
    setup(b) {
      b.onLoad({ filter: /[\\/]storage[\\/]connect\.ts$/ }, (args) => {
        if (args.path !== file && args.path !== real) return undefined;
        const text = readFileSync(file, 'utf8');
        const lines = text.split('\n').filter((l) => l.includes(CONNECT_LINE));
        if (lines.length !== 1 || !lines[0]!.includes('new Kysely<Database>(') || text.split(CONNECT_LINE).length !== 2)
          throw new Error(
            `postgres-js experiment: ${file} must make its Kysely with \`${CONNECT_LINE}\` in one line, once; found ${lines.length} line(s)`,
          );
        swapped = true;
        return {
          // The import goes last (imports are hoisted): the file's lines keep their numbers.
          contents: `${text.replace(CONNECT_LINE, '__benchPostgresJsDialect(opts, OwnSchemaPostgresDialect)')}\nimport { postgresJsDialect as __benchPostgresJsDialect } from ${JSON.stringify(module)};\n`,
          loader: 'ts',
          resolveDir: dirname(file),
        };
      });
    },
  };
  return {
    plugin,
    check() {
      if (!swapped) throw new Error(`postgres-js experiment: ${file} was not in the build`);
    },
  };
}

/**
 * Builds src/ with `npm run build`'s recipe so the bench never depends on a stale dist/, into
 * bench/.build/ward (`files`: one file per module, the plain build, into bench/.build/ward-files). With a git ref (`--ref HEAD`, each of `--refs`), the src/ of that commit (read
 * with `git archive`), not the work tree, into bench/.build/refs/<commit>/{src,ward}: one build per
 * commit, so Wards of several commits run side by side. `experiment` (`--experiment`, a comma list):
 * with `postgres-js`, Ward on postgres.js (postgresJsSwap above), into ward-postgres-js beside ward.
 * Returns the built cli.js.
 */
/**
 * How Ward is built: `bundle` is `npm run build`'s; `bundle-esm` the same bundle with only the ESM
 * packages taken in (the CommonJS ones imported from node_modules, as before 2026-11-29); `files`
 * one file per module.
 */
export type WardBuild = 'bundle' | 'bundle-esm' | 'files';
export const WARD_BUILDS: readonly WardBuild[] = ['bundle', 'bundle-esm', 'files'];

export async function buildWard(ref?: string, how: WardBuild = 'bundle', experiment = ''): Promise<string> {
  const { build } = await import('esbuild');
  const postgresJs = experiment.split(',').includes('postgres-js');
  if (postgresJs && how === 'files')
    throw new Error('--experiment postgres-js: with the bundle build only, not --build files');
  let src = join(ROOT, 'src');
  let base = join(ROOT, 'bench/.build');
  if (ref) {
    const commit = execFileSync('git', ['rev-parse', '--verify', `${ref}^{commit}`], { cwd: ROOT, encoding: 'utf8' });
    base = join(ROOT, 'bench/.build/refs', commit.trim());
    // Only its src/: the commit's other builds of this run (`--builds a,b`) stay beside it.
    rmSync(join(base, 'src'), { recursive: true, force: true });
    mkdirSync(base, { recursive: true });
    execSync(`git archive --format=tar ${JSON.stringify(ref)} src | tar -x -C ${JSON.stringify(base)}`, {
      cwd: ROOT,
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    src = join(base, 'src');
  }
  const out = join(base, how === 'bundle' ? (postgresJs ? 'ward-postgres-js' : 'ward') : `ward-${how}`);
  const swap = postgresJs ? postgresJsSwap(src) : undefined;
  // `npm run build`'s own recipe (scripts/build.mjs): what an operator runs is what is measured.
  const recipe = (await import(pathToFileURL(join(ROOT, 'scripts/build.mjs')).href)) as {
    FOR_NODE: Record<string, string>;
    INLINE_ESM: string[];
    buildWard(o: { src: string; out: string; files: boolean; plugins?: Plugin[]; inline?: string[] }): Promise<string>;
  };
  const cli = await recipe.buildWard({
    src,
    out,
    files: how === 'files',
    plugins: swap ? [swap.plugin] : [],
    ...(how === 'bundle-esm' ? { inline: recipe.INLINE_ESM } : {}),
  });
  swap?.check();
  // What the harness reads of the build (the settings' defaults, the server's node flags), on their own.
  if (how !== 'files')
    for (const f of ['config/defaults', 'lib/tuning/heap-flags', 'lib/server-node-flags'])
      if (existsSync(join(src, `${f}.ts`)))
        await build({
          ...recipe.FOR_NODE,
          entryPoints: [join(src, `${f}.ts`)],
          outfile: join(out, `${f}.js`),
          bundle: true,
          packages: 'external',
        });
  // Older commits found them at ../../src/ from their own place: the same src (a ref's is there already).
  if (!ref) {
    const link = join(base, 'src');
    rmSync(link, { recursive: true, force: true });
    symlinkSync(src, link, 'dir');
  }
  return cli;
}

/** The peer's script (bench/peer.ts) transpiled the same way, so neither server pays tsx at start. */
export async function buildPeer(): Promise<string> {
  const { build } = await import('esbuild');
  const out = join(ROOT, 'bench/.build/peer.js');
  await build({
    entryPoints: [join(ROOT, 'bench/peer.ts')],
    outfile: out,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    bundle: false,
    logLevel: 'error',
  });
  return out;
}

export const wardConfig = {
  account: {
    // Every per-IP limit off (login, signup, token, and any other the built src/ defines: see below).
    rate_limits: { login: { limit: null }, signup: { limit: null }, token: { limit: null } } as Record<
      string,
      { limit: null }
    >,
    // B8 spreads wrong codes over users; a 1 s failure window keeps every answer on the full
    // wrong-code path (count, compare, count the failure) instead of the cheaper 429 lockout.
    verification_failures_per_user: { limit: 100, window_seconds: 1 },
    // B9 sends one code per flow: the per-user code budget is raised (the per-step-up one is not).
    verification_requests_per_user: { limit: 10_000, window_seconds: 60 },
    verification_code_ttl: 600,
    step_up_ttl: 1800,
    // B10's webhook receiver and hook are on loopback, in the bench process.
    allow_private_webhook_targets: true,
  },
  clients: [
    {
      client_id: 'bench-spa',
      name: 'Bench SPA',
      type: 'public',
      jwt_algorithm: 'RS256',
      allowed_callback_urls: ['https://app.example/cb'],
      allowed_origins: ['https://app.example'],
      sso: true,
    },
    {
      client_id: 'bench-conf',
      name: 'Bench backend',
      type: 'confidential',
      client_secret: 'bench-confidential-secret-0123456789abcdef',
      jwt_algorithm: 'RS256',
      allowed_callback_urls: ['https://api.example/cb'],
    },
    {
      client_id: 'bench-mgmt',
      name: 'Bench management',
      type: 'confidential',
      client_secret: MGMT_SECRET,
      grant_types: ['client_credentials'],
      management_scopes: ['read:clients', 'read:settings'],
    },
    {
      client_id: 'bench-admin',
      name: 'Bench setup',
      type: 'confidential',
      client_secret: ADMIN_SECRET,
      grant_types: ['client_credentials'],
      management_scopes: ['manage:clients', 'manage:webhooks'],
    },
    {
      client_id: 'bench-users',
      name: 'Bench import and export',
      type: 'confidential',
      client_secret: USERS_SECRET,
      grant_types: ['client_credentials'],
      management_scopes: ['read:users', 'manage:users'],
    },
  ],
};

export interface WardDb {
  env: Record<string, string>;
  label: string;
  /** What seed-users.ts needs: the SQLite file Ward uses, or the PostgreSQL URL and schema. */
  target: { engine: 'sqlite'; file: string } | { engine: 'postgres'; url: string; schema: string };
  drop(): Promise<void>;
}

export async function sqliteDb(): Promise<WardDb> {
  const dir = mkdtempSync(join(tmpdir(), 'ward-bench-'));
  return {
    env: { WARD_DATA_DIR: dir },
    label: 'SQLite',
    target: { engine: 'sqlite', file: join(dir, 'ward.db') },
    drop: async () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** A dedicated schema on WARD_BENCH_DATABASE_URL or the local test database; null when unreachable. */
export async function postgresDb(): Promise<WardDb | null> {
  const base = process.env.WARD_BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  const schema = `ward_bench_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base, connectionTimeoutMillis: 2000 });
  try {
    await admin.connect();
    await admin.query(`create schema ${schema}`);
  } catch {
    return null;
  } finally {
    await admin.end().catch(() => undefined);
  }
  const u = new URL(base);
  u.searchParams.set('options', `-c search_path=${schema}`);
  const dir = mkdtempSync(join(tmpdir(), 'ward-bench-pg-'));
  let dropped = false;
  const drop = async () => {
    if (dropped) return;
    dropped = true;
    const c = new pg.Client({ connectionString: base });
    await c.connect();
    await c.query(`drop schema if exists ${schema} cascade`);
    await c.end();
    rmSync(dir, { recursive: true, force: true });
  };
  onAbort(drop);
  return {
    env: { WARD_DATABASE_URL: u.toString(), WARD_DATA_DIR: dir },
    label: `PostgreSQL (schema ${schema})`,
    target: { engine: 'postgres', url: base, schema },
    drop,
  };
}

/**
 * The node flags and environment `npm start` gives this build's server (the variables this process
 * does not set already), from its heap-flags module; none for a build from before they existed.
 */
async function serverStart(out: string): Promise<{ flags: readonly string[]; env: Record<string, string> }> {
  const file = ['lib/tuning/heap-flags.js', 'lib/server-node-flags.js'].map((f) => join(out, f)).find(existsSync);
  if (!file) return { flags: [], env: {} };
  const m = (await import(pathToFileURL(file).href)) as {
    SERVER_NODE_FLAGS: readonly string[];
    missingServerEnv?: () => Record<string, string>;
  };
  return { flags: m.SERVER_NODE_FLAGS, env: m.missingServerEnv?.() ?? {} };
}

/**
 * A `--tuning` variant as Ward's environment: `on`, `off`, or `no:<speed-up>+<speed-up>` (on, but
 * for those: WARD_TUNING_OFF, see src/config/tuning.ts).
 */
export function tuningEnv(variant: string): Record<string, string> {
  if (variant === 'on' || variant === 'off') return { WARD_TUNING: variant };
  const m = /^no:([a-z_]+(\+[a-z_]+)*)$/.exec(variant);
  if (!m) throw new Error(`--tuning: on, off or no:<speed-up>[+<speed-up>...], got ${variant}`);
  return { WARD_TUNING: 'on', WARD_TUNING_OFF: m[1]!.split('+').join(',') };
}

/**
 * `cli.js start` (with the node flags and environment of `npm start`, unless the tuning turns `heap_flags` off), or `cli.js start --workers N` (node:cluster) when workers > 1: then the child is the
 * cluster's primary and this waits (bounded) until all N workers listen, as the primary's banner says.
 */
export async function startWard(
  cli: string,
  db: WardDb,
  smtpUrl: string,
  experiment = '',
  workers = 1,
  nodeArgs: string[] = [],
  tuning = 'on',
  /** Over the environment below; a variable set to undefined is left out (cold-start.ts `--generated-admin`). */
  env: Record<string, string | undefined> = {},
): Promise<Child> {
  const tuned = tuningEnv(tuning);
  const heapFlags = tuned.WARD_TUNING === 'on' && !tuned.WARD_TUNING_OFF?.split(',').includes('heap_flags');
  const port = await freePort();
  const config = join(db.env.WARD_DATA_DIR!, 'bench-config.json');
  // The settings this src/ knows (others would be refused at start), and all of its rate limits off.
  const out = dirname(cli);
  const { DEFAULT_ACCOUNT } = (await import(pathToFileURL(join(out, 'config/defaults.js')).href)) as {
    DEFAULT_ACCOUNT: Record<string, unknown>;
  };
  const limits = Object.keys((DEFAULT_ACCOUNT.rate_limits ?? {}) as object);
  const account = Object.fromEntries(Object.entries(wardConfig.account).filter(([k]) => k in DEFAULT_ACCOUNT));
  account.rate_limits = Object.fromEntries(limits.map((k) => [k, { limit: null }]));
  // The node flags and environment of `npm start`, as the build's own heap-flags module gives them.
  const server = heapFlags ? await serverStart(out) : { flags: [], env: {} };
  writeFileSync(config, JSON.stringify({ ...wardConfig, account }, null, 2));
  const child = await startChild({
    name: workers > 1 ? `ward (${workers} workers)` : 'ward',
    port,
    probePath: '/.well-known/openid-configuration',
    args: [...server.flags, ...nodeArgs, cli, 'start', ...(workers > 1 ? ['--workers', String(workers)] : [])],
    env: {
      ...db.env,
      WARD_CONFIG: config,
      WARD_PORT: String(port),
      WARD_HOST: '127.0.0.1',
      WARD_TLS: 'off',
      WARD_ISSUER: `http://127.0.0.1:${port}`,
      WARD_MODE: 'production',
      WARD_LOG_LEVEL: 'warn',
      WARD_SMTP_URL: smtpUrl,
      WARD_DEMO_CLIENTS: 'off',
      WARD_ADMIN_PASSWORD: 'bench-operator-password-0123',
      WARD_MASTER_KEY: Buffer.alloc(32, 9).toString('base64'),
      ...server.env,
      BENCH_EXPERIMENT: experiment,
      // The setup's signups start the password-strength thread: stopped 5 s after them (run.ts waits),
      // so B1-B5, which check no password, measure their own memory rather than the setup's thread.
      WARD_PASSWORD_STRENGTH_IDLE: process.env.WARD_PASSWORD_STRENGTH_IDLE ?? String(STRENGTH_IDLE_S),
      ...tuned,
      ...env,
    },
  });
  if (workers > 1) {
    const deadline = performance.now() + 60_000;
    while (!child.output().includes(`(${workers} workers)`)) {
      if (performance.now() > deadline || child.proc.exitCode !== null) {
        await child.stop();
        throw new Error(`ward --workers ${workers}: not all workers listening within 60 s:\n${child.output()}`);
      }
      await new Promise((r) => setTimeout(r, 20));
    }
  }
  return child;
}
