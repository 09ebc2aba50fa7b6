// `node --import tsx bench/cold-start.ts [--tuning on,no:lazy_validation] [--builds bundle,bundle-esm,files]
// [--starts 5] [--first] [--generated-admin] [--engine sqlite|postgres] [--refs A,B]`: Ward's restart time (process
// start to the first answered request, bench/proc.ts) per variant, the variants' starts interleaved
// (A B A B ...) on one migrated store each (an SQLite file, or a PostgreSQL schema of the local test
// database); with `--first`, the first start instead (a new empty store each time: migrations, keys,
// the administrator). A variant is a commit's src/ (`--refs`; default the working tree), a
// WARD_TUNING setting and a build (bench/ward.ts `WardBuild`: `bundle`, the one `npm run build`
// makes, `bundle-esm` or `files`); with several lists given, every combination. Prints the median per
// variant and its ratio to the first. For the start-up's work.
import { buildWard, postgresDb, sqliteDb, startWard, tuningEnv, WARD_BUILDS, type WardBuild } from './ward.js';
import { stopAll } from './proc.js';

const argv = process.argv.slice(2);
const opt = (name: string) => argv[argv.indexOf(`--${name}`) + 1];
const tunings = (argv.includes('--tuning') ? opt('tuning')! : 'on,no:lazy_validation').split(',');
const builds = (argv.includes('--builds') ? opt('builds')! : 'bundle').split(',') as WardBuild[];
const starts = Number(argv.includes('--starts') ? opt('starts') : 5);
const first = argv.includes('--first');
// As a new user's first start: no WARD_ADMIN_PASSWORD, so Ward generates the administrator's (and checks
// no password: the password-strength thread is not started).
const env = argv.includes('--generated-admin') ? { WARD_ADMIN_PASSWORD: undefined } : {};
const engine = argv.includes('--engine') ? opt('engine') : 'sqlite';
if (engine !== 'sqlite' && engine !== 'postgres') throw new Error(`--engine: sqlite or postgres, got ${engine}`);
const store = async () => {
  if (engine === 'sqlite') return sqliteDb();
  const db = await postgresDb();
  if (!db) throw new Error('--engine postgres: no PostgreSQL at WARD_BENCH_DATABASE_URL or the local test database');
  return db;
};
for (const v of tunings) tuningEnv(v);
for (const b of builds) if (!WARD_BUILDS.includes(b)) throw new Error(`--builds: ${WARD_BUILDS.join(', ')}; got ${b}`);

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
const refs: Array<string | undefined> = argv.includes('--refs') ? opt('refs')!.split(',') : [undefined];
const variants: Array<{ ref: string | undefined; build: WardBuild; tuning: string; cli: string }> = [];
for (const ref of refs)
  for (const build of builds) {
    const cli = await buildWard(ref, build);
    for (const tuning of tunings) variants.push({ ref, build, tuning, cli });
  }
const name = (v: (typeof variants)[number]) =>
  [refs.length > 1 ? v.ref : '', builds.length > 1 ? v.build : '', v.tuning].filter(Boolean).join(' ');
// A migrated store per variant for the restarts; `--first` makes a new one for each start instead.
const dbs = first ? [] : await Promise.all(variants.map(() => store()));
const times: number[][] = variants.map(() => []);
try {
  if (!first)
    for (const [i, v] of variants.entries())
      await (await startWard(v.cli, dbs[i]!, 'smtp://127.0.0.1:9', '', 1, [], v.tuning, env)).stop();
  for (let s = 0; s < starts; s++)
    for (const [i, v] of variants.entries()) {
      const db = first ? await store() : dbs[i]!;
      const ward = await startWard(v.cli, db, 'smtp://127.0.0.1:9', '', 1, [], v.tuning, env);
      times[i]!.push(ward.coldStartMs);
      await ward.stop();
      if (first) await db.drop();
    }
} finally {
  await stopAll();
  for (const db of dbs) await db.drop();
}
const base = median(times[0]!);
for (const [i, v] of variants.entries())
  process.stdout.write(
    `${name(v)}: median ${median(times[i]!).toFixed(0)} ms (${times[i]!.map((t) => t.toFixed(0)).join(', ')}), ` +
      `${(median(times[i]!) / base).toFixed(2)}x the first\n`,
  );
process.exit(0);
