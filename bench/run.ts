// `npm run bench [-- --quick] [--json] [--profile] [--only B1,B4] [--engines sqlite,postgres] [--ref HEAD]
//   [--rounds N] [--seconds S] [--connections C] [--experiment stmt-cache,smtp-pool,postgres-js] [--build files]
//   [--users 0,100k,1m] [--workers 1,2] [--tuning on,off,no:group_commit] [--refs 7b95211,HEAD]` (the last
//   four: the variant run of scale.ts instead: Ward only, rounds interleaved over the variants, each a ratio to
//   the first; --refs: one Ward per commit, built from its src/); --build files: Ward built one file per
//   module (scripts/build.mjs --files) instead of `npm run build`'s one module`
// Issue 7's benchmark: records the environment, measures the ceilings L1-L4, starts Ward (SQLite,
// then PostgreSQL when reachable) and the peer oidc-provider 8.8.1 as children on 127.0.0.1, runs
// B1-B9 alternately on both (Ward, peer, Ward, peer...), prints one table, optionally writes
// bench/results/<date>.json and CPU profiles of Ward (bench/profiles/). See bench/README.md.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { measureCeilings, type Ceilings } from './ceilings.js';
import { makeWardUsers } from './flows-ward.js';
import { measureRun, smokeCheck } from './measure.js';
import { PASSWORD } from './flows-ward.js';
import { freePort, probe, running, startChild, stopAll } from './proc.js';
import { runImportExport } from './import-export.js';
import { formatHotSpots, hotSpots, type HotSpots } from './profile.js';
import { ceilingsTable, table, type ScenarioResult } from './report.js';
import { SCENARIOS, type PeerSide, type WardSide } from './scenarios.js';
import { runScale } from './scale.js';
import { parseCount } from './seed-users.js';
import { startSink } from './smtp.js';
import { formatPerUnit, traceSyscalls } from './syscalls.js';
import { formatPerf, recordPerf, type PerfSummary } from './perf.js';
import {
  buildPeer,
  buildWard,
  EXPERIMENTS,
  MGMT_SECRET,
  postgresDb,
  sqliteDb,
  startWard,
  STRENGTH_IDLE_S,
  tuningEnv,
  type WardDb,
} from './ward.js';

const argv = process.argv.slice(2);
const flag = (name: string) => argv.includes(`--${name}`);
const opt = (name: string) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1] : argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1];
};
const quick = flag('quick');
/** How Ward is built: `npm run build`'s one module, or one file per module (`--build files`). */
const how = opt('build') === 'files' ? 'files' : 'bundle';
const cfg = {
  rounds: Number(opt('rounds') ?? (quick ? 1 : 3)),
  seconds: Number(opt('seconds') ?? (quick ? 2 : 10)),
  warm: quick ? 0.5 : 2,
  connections: Number(opt('connections') ?? 50),
  ceilingScale: quick ? 0.3 : 1,
  users: 150,
  peerUsers: 60,
  profileSeconds: quick ? 2 : 5,
};
const only = opt('only')?.split(',');
const engines = (opt('engines') ?? (quick ? 'sqlite' : 'sqlite,postgres')).split(',');
/** `--experiment`: what-ifs (ward.ts's EXPERIMENTS); a misspelt one would measure plain Ward, so it is refused. */
const experiment = opt('experiment');
for (const x of experiment?.split(',') ?? [])
  if (!EXPERIMENTS.includes(x)) throw new Error(`--experiment: ${x} is none of ${EXPERIMENTS.join(', ')}`);
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const log = (s: string) => process.stdout.write(`${s}\n`);
const git = (...a: string[]) => {
  try {
    return execFileSync('git', a, { cwd: ROOT, encoding: 'utf8' }).trim();
  } catch {
    return 'unknown';
  }
};

const environment = {
  date: new Date().toISOString(),
  node: process.version,
  cpus: os.cpus().length,
  cpuModel: os.cpus()[0]?.model ?? '?',
  memoryGB: +(os.totalmem() / 2 ** 30).toFixed(1),
  os: `${os.type()} ${os.release()} ${os.arch()}`,
  load: os
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(' '),
  commit: (opt('refs') ?? opt('ref') ?? 'HEAD')
    .split(',')
    .map((r) => git('rev-parse', '--short', r))
    .join(' vs '),
  srcChanged:
    opt('ref') || opt('refs') ? 0 : git('status', '--porcelain', '--', 'src').split('\n').filter(Boolean).length,
  command: `npm run bench -- ${argv.join(' ')}`.trim(),
  config: cfg,
  experiment: experiment ?? null,
};

/**
 * `--users 0,100k,1m` and/or `--workers 1,2`: the scale run of scale.ts instead of the main run
 * (Ward only, no peer, no ceilings; default scenarios B4,B5,B7,B9; every variant against the first).
 */
async function scaleMain() {
  const users = (opt('users') ?? '0').split(',').map(parseCount);
  if (!users.includes(0)) users.unshift(0); // the baseline: no generated users
  const workers = (opt('workers') ?? '1').split(',').map(Number);
  const tunings = (opt('tuning') ?? 'on').split(',');
  for (const t of tunings) tuningEnv(t); // refuses a bad variant before anything starts
  if (workers.some((w) => !Number.isInteger(w) || w < 1 || w > 8))
    throw new Error('--workers: process counts from 1 to 8, e.g. 1,2');
  const refs = opt('refs')?.split(',');
  if (refs && opt('ref')) throw new Error('--ref or --refs, not both');
  if (refs && new Set(refs).size !== refs.length) throw new Error(`--refs: twice the same commit, ${refs.join(',')}`);
  const e = { ...environment, engines: engines.join(','), users, workers, tunings, refs };
  log(`Ward benchmark, scale run: ${JSON.stringify(e)}`);
  // One build per commit of --refs (the first is the baseline), else the one of --ref or the work tree.
  const builds = [];
  for (const ref of refs ?? [opt('ref')]) builds.push({ ref: ref ?? '', cli: await buildWard(ref, how, experiment) });
  const header =
    `## Scale run of ${environment.date} (${environment.command})\n\n` +
    `node ${environment.node}, ${environment.cpus} CPUs (${environment.cpuModel}), ${environment.os}, commit ${environment.commit}` +
    `${environment.srcChanged ? ` + ${environment.srcChanged} uncommitted file(s) in src/` : ''}, load average at start ${environment.load}; ` +
    `${experiment ? `WHAT-IF experiment ${experiment} (not Ward as committed); ` : ''}` +
    `${cfg.rounds} round(s) x ${cfg.seconds} s per variant, alternating, ${cfg.connections} connections, ${cfg.users} scenario users per variant`;
  const out = await runScale({
    builds,
    engines,
    users: [...new Set(users)].sort((a, b) => a - b),
    workers: [...new Set(workers)].sort((a, b) => a - b),
    tunings: [...new Set(tunings)],
    only: only ?? ['B4', 'B5', 'B7', 'B9'],
    rounds: cfg.rounds,
    seconds: cfg.seconds,
    warm: cfg.warm,
    connections: cfg.connections,
    scenarioUsers: cfg.users,
    experiment,
    header,
    log,
    json: flag('json') ? `${ROOT}bench/results/${environment.date.replace(/[:.]/g, '-')}-scale.json` : undefined,
  });
  log(`\n${out}`);
}

async function main() {
  // I1 (bench/import-export.ts): the bulk import and export, Ward only; `--tuning` gives its variants.
  if (only?.includes('I1')) {
    const out = await runImportExport({
      engines,
      count: parseCount(opt('import-users') ?? '100k'),
      tunings: (opt('tuning') ?? 'on').split(','),
      ref: opt('ref'),
      log,
    });
    log(`\n${out}`);
    if (only.every((id) => id === 'I1')) return;
  }
  if (['users', 'workers', 'tuning', 'refs'].some((o) => opt(o) !== undefined)) return scaleMain();
  log(`Ward benchmark (${quick ? 'quick' : 'full'}): ${JSON.stringify(environment)}`);
  log('Ceilings:');
  const ceilingRuns = [await measureCeilings(cfg.ceilingScale, cfg.connections, log)];
  // The models use the best of the measurements (start, and end in a full run): conservative for Ward.
  let ceilings = ceilingRuns[0]!;
  const sink = await startSink();
  // The build itself is a what-if when the experiment is one made at build time (`postgres-js`).
  const cli = await buildWard(opt('ref'), how, experiment);
  const emails = Array.from({ length: cfg.peerUsers }, (_, i) => `peer-${i}@example.com`);
  const peerPort = await freePort();
  const peer = await startChild({
    name: 'peer',
    port: peerPort,
    probePath: '/.well-known/openid-configuration',
    args: [await buildPeer()],
    env: {
      PORT: String(peerPort),
      BENCH_PEER_USERS: JSON.stringify(emails.map((email) => ({ email, password: PASSWORD }))),
      BENCH_MGMT_SECRET: MGMT_SECRET,
    },
  });
  while ((await probe(`${peer.url}/__bench_ready`)) !== 200) await new Promise((r) => setTimeout(r, 50));
  const peerSide: PeerSide = { kind: 'peer', url: peer.url, emails, users: [] };
  const results: ScenarioResult[] = [];
  const cold: Record<string, number> = { peer: peer.coldStartMs };
  const profiles: Record<
    string,
    Partial<HotSpots> & {
      sqlPerUnit?: number;
      sqlUsPerUnit?: number;
      sql?: Array<[string, number, number]>;
      syscallsPerUnit?: Record<string, number>;
      perf?: PerfSummary;
    }
  > = {};
  const dbs: WardDb[] = [];
  try {
    for (const engine of engines) {
      const db = engine === 'postgres' ? await postgresDb() : await sqliteDb();
      if (!db) {
        log(`PostgreSQL unreachable (WARD_BENCH_DATABASE_URL or postgres://postgres@127.0.0.1:5432/test): skipped`);
        continue;
      }
      dbs.push(db);
      const first = await startWard(cli, db, sink.url, experiment);
      cold[`ward ${engine} first start`] = first.coldStartMs;
      await first.stop();
      const ward = await startWard(cli, db, sink.url, experiment, 1, flag('perf') ? ['--perf-basic-prof'] : []);
      cold[`ward ${engine} restart`] = ward.coldStartMs;
      log(
        `\n${db.label}: Ward cold start ${first.coldStartMs.toFixed(0)} ms (empty data), ${ward.coldStartMs.toFixed(0)} ms (restart); peer ${peer.coldStartMs.toFixed(0)} ms`,
      );
      const t = performance.now();
      const wardSide: WardSide = {
        kind: 'ward',
        url: ward.url,
        users: await makeWardUsers(ward.url, sink, cfg.users, `${engine}-${Date.now()}`),
        sink,
      };
      log(`  ${cfg.users} users with a verified email factor made in ${((performance.now() - t) / 1000).toFixed(1)} s`);
      // Their signups started the password-strength thread; it stops once idle (bench/ward.ts).
      await new Promise((done) => setTimeout(done, (STRENGTH_IDLE_S + 1) * 1000));
      for (const sc of SCENARIOS.filter((s) => !only || only.includes(s.id))) {
        const res: ScenarioResult = { engine, scenario: sc, ward: [], peer: [] };
        const need = { runs: cfg.rounds + 1, connections: cfg.connections };
        const pw = await sc.prepare(wardSide, need);
        const pp = sc.peer ? await sc.prepare(peerSide, need) : null;
        await smokeCheck(wardSide.url, pw);
        if (pp) await smokeCheck(peerSide.url, pp);
        await measureRun(ward, pw, { seconds: cfg.warm, connections: cfg.connections });
        if (pp) await measureRun(peer, pp, { seconds: cfg.warm, connections: cfg.connections });
        for (let r = 0; r < cfg.rounds; r++) {
          res.ward.push(await measureRun(ward, pw, { seconds: cfg.seconds, connections: cfg.connections }));
          if (pp) res.peer.push(await measureRun(peer, pp, { seconds: cfg.seconds, connections: cfg.connections }));
        }
        results.push(res);
        log(table([res], ceilings).split('\n').slice(2).join('\n'));
        if (flag('profile')) {
          mkdirSync(`${ROOT}bench/profiles`, { recursive: true });
          const file = `${ROOT}bench/profiles/${engine}-${sc.id}.cpuprofile`;
          const pr = await measureRun(ward, pw, {
            seconds: cfg.profileSeconds,
            connections: cfg.connections,
            profileFile: file,
          });
          const hs = hotSpots(file);
          profiles[`${engine} ${sc.id}`] = {
            ...hs,
            sqlPerUnit: pr.sqlPerUnit,
            sqlUsPerUnit: pr.sqlUsPerUnit,
            sql: pr.sql,
          };
          log(formatHotSpots(`  profile ${engine} ${sc.id} (${file.slice(ROOT.length)})`, hs));
          log(
            `  log bytes per unit: ${pr.logBytesPerUnit.toFixed(0)}; SQL statements per ${sc.unit === 'flows/s' ? 'flow' : 'request'}: ${(pr.sqlPerUnit ?? 0).toFixed(1)}` +
              `${engine === 'sqlite' ? `, ${(pr.sqlUsPerUnit ?? 0).toFixed(0)} µs in SQLite` : ''}: ` +
              [...(pr.sql ?? [])]
                .sort((a, b) => (engine === 'sqlite' ? b[2] - a[2] : b[1] - a[1]))
                .slice(0, 8)
                .map(
                  ([t, n, us]) =>
                    `${n}x${engine === 'sqlite' ? ` ${us} µs` : ''} ${t.replace(/\s+/g, ' ').slice(0, 70)}`,
                )
                .join(' | '),
          );
        }
        // One more unmeasured run with a tracer attached to Ward (strace, perf): what it saw, and the good units meanwhile.
        const traced = async <T>(attach: (pid: number) => Promise<{ stop(): Promise<T> }>) => {
          const tracer = await attach(ward.proc.pid!);
          const { good } = await measureRun(ward, pw, { seconds: cfg.profileSeconds, connections: cfg.connections });
          return { seen: await tracer.stop(), good };
        };
        if (flag('perf') && ward.proc.pid) {
          const { seen, good } = await traced(recordPerf);
          (profiles[`${engine} ${sc.id}`] ??= {}).perf = seen;
          log(formatPerf(`  perf ${engine} ${sc.id} (${good} units)`, seen));
        }
        if (flag('syscalls') && ward.proc.pid) {
          const { seen, good } = await traced(traceSyscalls);
          (profiles[`${engine} ${sc.id}`] ??= {}).syscallsPerUnit = Object.fromEntries(
            [...seen].map(([k, n]) => [k, n / Math.max(1, good)]),
          );
          log(
            `  system calls per ${sc.unit === 'flows/s' ? 'flow' : 'request'} (strace -c, ${good} units): ${formatPerUnit(seen, good)}`,
          );
        }
      }
      await ward.stop();
      await db.drop();
    }
  } finally {
    await stopAll();
    await sink.close();
    for (const db of dbs) await db.drop().catch(() => undefined);
  }
  if (!quick) {
    log('Ceilings again, at the end:');
    ceilingRuns.push(await measureCeilings(cfg.ceilingScale, cfg.connections, log));
    ceilings = Object.fromEntries(
      Object.keys(ceilings).map((k) => [k, Math.max(...ceilingRuns.map((c) => c[k as keyof Ceilings]))]),
    ) as unknown as Ceilings;
  }
  const out = [
    `## Run of ${environment.date} (${environment.command})`,
    '',
    `node ${environment.node}, ${environment.cpus} CPUs (${environment.cpuModel}), ${environment.memoryGB} GB, ${environment.os}, commit ${environment.commit}` +
      `${environment.srcChanged ? ` + ${environment.srcChanged} uncommitted file(s) in src/` : ''}, load average at start ${environment.load}; ` +
      `${environment.experiment ? `WHAT-IF experiment ${environment.experiment} (not Ward as committed); ` : ''}` +
      `${cfg.rounds} round(s) x ${cfg.seconds} s, ${cfg.connections} connections, ${sink.received()} emails through the SMTP sink`,
    '',
    ceilingsTable(ceilings) +
      (ceilingRuns.length > 1 ? '\n\n(the best of the two measurements, at the start and at the end of the run)' : ''),
    '',
    `Cold start to the first answered request: ${Object.entries(cold)
      .map(([k, v]) => `${k} ${v.toFixed(0)} ms`)
      .join('; ')}`,
    '',
    table(results, ceilings),
  ].join('\n');
  log(`\n${out}`);
  if (flag('json')) {
    mkdirSync(`${ROOT}bench/results`, { recursive: true });
    const file = `${ROOT}bench/results/${environment.date.replace(/[:.]/g, '-')}.json`;
    writeFileSync(
      file,
      JSON.stringify(
        {
          environment,
          ceilings,
          ceilingRuns,
          cold,
          profiles,
          results: results.map((r) => ({ ...r, scenario: r.scenario.id, title: r.scenario.title })),
          table: out,
        },
        null,
        2,
      ),
    );
    log(`\nwritten: ${file.slice(ROOT.length)}`);
  }
}

main().then(
  () => process.exit(0),
  async (e: unknown) => {
    process.stderr.write(`bench: ${(e as Error).stack ?? String(e)}\n`);
    for (const c of running()) process.stderr.write(`--- last output of ${c.name}:\n${c.output().slice(-3000)}\n`);
    await stopAll();
    process.exit(1);
  },
);
