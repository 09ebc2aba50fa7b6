// The scale part of issue 7's benchmark: the same user-touching scenarios on Ward with 0, 100k, 1M...
// users in the store (`--users`, seed-users.ts) and with one or several Ward processes
// (`--workers`, `cli.js start --workers N`, node:cluster), or under several WARD_TUNING settings
// (`--tuning`), or built from several commits' src/ (`--refs`, before/after a change). Ward only (no peer,
// no ceilings): every figure is a ratio to the baseline variant (fewest users, fewest processes, the
// first tuning and the first commit) taken in the same run,
// rounds alternating over the variants (A B C, B C A, C A B ...), as performance.md asks on a noisy machine.
//
// Each variant has its own store (a fresh SQLite file or PostgreSQL schema): Ward starts once on it
// (migrations, keys), stops, the generated users are inserted, Ward starts again (with N workers if
// asked), and the scenario users are made through the API as in the main run (emails
// @example.com; the generated ones are @users.seed.example). All variants stay up during the
// scenarios; only the one under load gets traffic.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { makeWardUsers } from './flows-ward.js';
import type { RunResult } from './load.js';
import { measureRun, smokeCheck } from './measure.js';
import { onAbort, stopAll, type Child } from './proc.js';
import { SCENARIOS, type Prepared, type Scenario, type WardSide } from './scenarios.js';
import { countLabel, seedUsers, storeSize, type StoreSize } from './seed-users.js';
import { startSink } from './smtp.js';
import { postgresDb, sqliteDb, startWard, type WardDb } from './ward.js';

export interface ScaleOptions {
  /** The Wards to run, each built from a src/ (`--refs`: one per commit, ward.ts's buildWard); one without --refs. */
  builds: Array<{ ref: string; cli: string }>;
  engines: string[];
  users: number[];
  workers: number[];
  /** WARD_TUNING variants (`--tuning`, ward.ts's tuningEnv): `on`, `off`, `no:<speed-up>`. */
  tunings: string[];
  only: string[];
  rounds: number;
  seconds: number;
  warm: number;
  connections: number;
  scenarioUsers: number;
  experiment?: string;
  json?: string; // file to write
  header: string;
  log(s: string): void;
}

interface Variant {
  users: number;
  workers: number;
  tuning: string;
  /** The commit whose src/ this Ward runs (`--refs`), or what `--ref` / the work tree gave. */
  ref: string;
  cli: string;
  label: string;
  db: WardDb;
  ward?: Child;
  side?: WardSide;
  size?: StoreSize;
  seedMs?: number;
  coldStartMs?: number;
}

interface ScaleRow {
  engine: string;
  scenario: Pick<Scenario, 'id' | 'title' | 'unit'>;
  runs: RunResult[][] /* [variant][round] */;
}
type VariantShape = Pick<Variant, 'users' | 'workers'> & { tuning?: string; ref?: string };

/** The median (the mean of the middle two for an even count: with 2 rounds, their mean). */
const median = (xs: number[]) => {
  const s = xs.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  if (!s.length) return NaN;
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

const f = (x: number, d = 0) => (Number.isFinite(x) ? x.toFixed(d) : '-');
const mib = (b: number) => `${(b / 2 ** 20).toFixed(0)} MiB`;
/** What the CPU and RSS columns summed: the process count the hook reported (primary + workers). */
const procsLabel = (w: number, runs: RunResult[]) => {
  const p = Math.min(...runs.map((x) => x.procs));
  return w > 1 ? `--workers ${w} (${p} processes summed${p !== w + 1 ? ` of ${w + 1}!` : ''})` : '1 (no cluster)';
};

function scaleTable(rows: ScaleRow[], variants: Map<string, VariantShape[]>): string {
  const head =
    '| engine | id | scenario | src | generated users | Ward processes | tuning | rate | p50 ms | p99 ms | CPU ms/unit (hook) | CPU ms/unit (/proc) | peak RSS MB | loop busy | other load | rate vs baseline | CPU/unit vs baseline | failures |';
  const lines = [head, `|${'---|'.repeat(18)}`];
  for (const r of rows) {
    const vs = variants.get(r.engine)!;
    const base = r.runs[0]!;
    r.runs.forEach((runs, i) => {
      const v = vs[i]!;
      const m = (k: (x: RunResult) => number) => median(runs.map(k));
      const rateRatio = median(runs.map((x, j) => x.rate / (base[j]?.rate || NaN)));
      const cpuRatio = median(runs.map((x, j) => x.cpuMsPerUnit / (base[j]?.cpuMsPerUnit || NaN)));
      const fails: Record<string, number> = {};
      for (const x of runs) for (const [k, n] of Object.entries(x.failures)) fails[k] = (fails[k] ?? 0) + n;
      const good = runs.reduce((a, x) => a + x.good, 0);
      const failText = Object.keys(fails).length
        ? `${Object.entries(fails)
            .map(([k, n]) => `${k}×${n}`)
            .join(' ')} (${good} ok)`
        : '';
      lines.push(
        `| ${r.engine} | ${r.scenario.id} | ${r.scenario.title} | ${v.ref ?? ''} | ${countLabel(v.users)} | ${procsLabel(v.workers, runs)} | ${v.tuning ?? 'on'} | ${f(m((x) => x.rate))} ${r.scenario.unit} | ` +
          `${f(
            m((x) => x.p50),
            1,
          )} | ${f(
            m((x) => x.p99),
            1,
          )} | ${f(
            m((x) => x.cpuMsPerUnit),
            3,
          )} | ${f(
            m((x) => x.kernelCpuMsPerUnit ?? NaN),
            3,
          )} | ` +
          `${f(Math.max(...runs.map((x) => x.peakRssMB)))} | ${f(100 * m((x) => x.elu))}% | ${f(
            m((x) => x.otherCores),
            1,
          )} | ` +
          `${i === 0 ? 'baseline' : `${f(rateRatio, 2)}x`} | ${i === 0 ? 'baseline' : `${f(cpuRatio, 2)}x`} | ${failText} |`,
      );
    });
  }
  return lines.join('\n');
}

function render(
  header: string,
  byEngine: Map<string, Array<VariantShape & Partial<Variant>>>,
  rows: ScaleRow[],
): string {
  const notes = [...byEngine.entries()]
    .map(
      ([engine, vs]) =>
        `- ${engine}: ` +
        vs
          .map(
            (v) =>
              `${v.ref ? `${v.ref}, ` : ''}${countLabel(v.users)} users / ${v.workers} process(es): ${v.size ? `${v.size.users} users before the scenario users, ${v.size.what} ${mib(v.size.bytes)}` : '?'}` +
              `${v.seedMs ? `, generated in ${(v.seedMs / 1000).toFixed(1)} s` : ''}, Ward up in ${f(v.coldStartMs ?? NaN)} ms`,
          )
          .join('; '),
    )
    .join('\n');
  return [
    header,
    '',
    `Stores (before the scenario users were added; sizes at that point):`,
    notes,
    '',
    'CPU ms/unit (hook): process.cpuUsage (all threads) of every Ward process, summed (with --workers: the primary and each worker, through hook.mjs); ' +
      "CPU ms/unit (/proc): utime+stime of the Ward process and its child processes from /proc, as a cross-check; peak RSS: the sum of the processes' RSS (shared pages counted in each); " +
      "loop busy: the workers' main threads together (the primary only hands out connections); ratios: median of the per-round ratios to the first variant (with 2 rounds: their mean).",
    '',
    scaleTable(rows, byEngine),
  ].join('\n');
}

export async function runScale(o: ScaleOptions): Promise<string> {
  const log = o.log;
  const scenarios = SCENARIOS.filter((s) => o.only.includes(s.id));
  const sink = await startSink();
  const rows: ScaleRow[] = [];
  const byEngine = new Map<string, Variant[]>();
  const all: Variant[] = [];
  try {
    for (const engine of o.engines) {
      const variants: Variant[] = [];
      let reachable = true;
      eachUserCount: for (const users of o.users) {
        for (const workers of o.workers) {
          for (const tuning of o.tunings) {
            for (const { ref, cli } of o.builds) {
              const db = engine === 'postgres' ? await postgresDb() : await sqliteDb();
              if (!db) {
                reachable = false;
                break eachUserCount;
              }
              if (engine !== 'postgres') onAbort(db.drop); // big SQLite files go on Ctrl-C too
              const v: Variant = {
                users,
                workers,
                tuning,
                ref,
                cli,
                label: `${engine}${ref ? ` src ${ref}` : ''} ${countLabel(users)} users, ${workers} process(es), tuning ${tuning}`,
                db,
              };
              variants.push(v);
              all.push(v);
            }
          }
        }
      }
      if (!reachable) {
        log('PostgreSQL unreachable (WARD_BENCH_DATABASE_URL or postgres://postgres@127.0.0.1:5432/test): skipped');
        for (const v of variants) await v.db.drop();
        continue;
      }
      byEngine.set(engine, variants);
      log(`\n${engine}: ${variants.length} variant(s)`);
      for (const v of variants) {
        const first = await startWard(v.cli, v.db, sink.url, o.experiment, 1, [], v.tuning); // migrations and keys
        await first.stop();
        if (v.users) {
          const r = await seedUsers(v.db.target, v.users, 0, (s) => log(`  ${v.label}: ${s.trim()}`));
          v.seedMs = r.ms;
          log(
            `  ${v.label}: ${v.users} users generated in ${(r.ms / 1000).toFixed(1)} s (${r.perSecond.toFixed(0)} rows/s)`,
          );
        }
        v.size = await storeSize(v.db.target);
        v.ward = await startWard(v.cli, v.db, sink.url, o.experiment, v.workers, [], v.tuning);
        v.coldStartMs = v.ward.coldStartMs;
        const t = performance.now();
        const tag = `${engine}-${countLabel(v.users)}-w${v.workers}-${v.tuning.replace(/\W/g, '')}-${v.ref.replace(/\W/g, '')}-${Date.now()}`;
        v.side = {
          kind: 'ward',
          url: v.ward.url,
          users: await makeWardUsers(v.ward.url, sink, o.scenarioUsers, tag),
          sink,
        };
        log(
          `  ${v.label}: started in ${v.coldStartMs.toFixed(0)} ms; ${o.scenarioUsers} scenario users made in ${((performance.now() - t) / 1000).toFixed(1)} s; ` +
            `${v.size.users} users before them; ${v.size.what}: ${mib(v.size.bytes)}`,
        );
      }
      for (const sc of scenarios) {
        const need = { runs: o.rounds + 1, connections: o.connections };
        const prepared: Prepared[] = [];
        for (const v of variants) prepared.push(await sc.prepare(v.side!, need));
        for (const [i, v] of variants.entries()) await smokeCheck(v.side!.url, prepared[i]!);
        for (const [i, v] of variants.entries())
          await measureRun(v.ward!, prepared[i]!, { seconds: o.warm, connections: o.connections });
        const row: ScaleRow = { engine, scenario: sc, runs: variants.map(() => []) };
        for (let r = 0; r < o.rounds; r++) {
          // Each round starts one variant further (A B C, B C A, C A B...): no variant always runs first or
          // right after the same one (an A/A run of B8 read 1.11x for the second of two identical Wards).
          for (let k = 0; k < variants.length; k++) {
            const i = (k + r) % variants.length;
            row.runs[i]!.push(
              await measureRun(variants[i]!.ward!, prepared[i]!, { seconds: o.seconds, connections: o.connections }),
            );
          }
        }
        rows.push(row);
        log(scaleTable([row], byEngine).split('\n').slice(2).join('\n'));
      }
      for (const v of variants) await v.ward?.stop();
      for (const v of variants) await v.db.drop();
    }
  } finally {
    await stopAll();
    await sink.close();
    for (const v of all) await v.db.drop().catch(() => undefined);
  }
  const out = render(o.header, byEngine, rows);
  if (o.json) {
    mkdirSync(o.json.replace(/\/[^/]+$/, ''), { recursive: true });
    writeFileSync(
      o.json,
      JSON.stringify(
        {
          header: o.header,
          variants: [...byEngine.entries()].map(([engine, vs]) => ({
            engine,
            variants: vs.map((v) => ({
              users: v.users,
              workers: v.workers,
              tuning: v.tuning,
              ref: v.ref,
              size: v.size,
              seedMs: v.seedMs,
              coldStartMs: v.coldStartMs,
            })),
          })),
          results: rows.map((r) => ({
            engine: r.engine,
            scenario: r.scenario.id,
            title: r.scenario.title,
            runs: r.runs,
          })),
          table: out,
        },
        null,
        2,
      ),
    );
    log(`\nwritten: ${o.json}`);
  }
  return out;
}

/** `node --import tsx bench/scale.ts bench/results/<date>-scale.json`: prints the table of a scale run again from its JSON. */
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const j = JSON.parse(readFileSync(process.argv[2]!, 'utf8')) as {
    header?: string;
    table: string;
    variants: Array<{ engine: string; variants: Array<VariantShape & Partial<Variant>> }>;
    results: Array<{ engine: string; scenario: string; title: string; runs: RunResult[][] }>;
  };
  const byEngine = new Map(j.variants.map((e) => [e.engine, e.variants]));
  const rows: ScaleRow[] = j.results.map((r) => ({
    engine: r.engine,
    scenario: { id: r.scenario, title: r.title, unit: SCENARIOS.find((s) => s.id === r.scenario)?.unit ?? 'req/s' },
    runs: r.runs,
  }));
  process.stdout.write(`${render(j.header ?? j.table.split('\n').slice(0, 3).join('\n'), byEngine, rows)}\n`);
}
