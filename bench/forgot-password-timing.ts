// `node --import tsx bench/forgot-password-timing.ts [--pairs 200] [--engines sqlite,postgres]
//   [--refs <before>,<after>] [--paths forgot-password,account-recovery] [--gap 15]`
//
// Whether forgot-password and account-recovery tell by their time that an account exists (issue 33,
// item 10): N pairs of requests on loopback against a real Ward (production mode, plain HTTP on
// 127.0.0.1, codes by SMTP to the harness's sink), one for an address that has an account and one
// for an address that has none, in a random order within each pair. Prints, per engine, commit and
// path, the median and quantiles of each side, the share of pairs where the known address was the
// slower, and the two-sample Kolmogorov-Smirnov distance with its asymptotic p-value. It only
// measures: nothing in it is a test (a timed test would be flaky on a shared machine).
//
// Each request is timed from the call to the end of the body, on one keep-alive connection. After
// each pair the harness waits for the known address's message to reach the sink and then `--gap` ms,
// so the work one request leaves behind (lookup, code, SMTP) does not land in the next one's time.
// `--refs a,b` starts one Ward per commit (their src/ read with `git archive`, bench/ward.ts) and
// alternates the pairs over them, so before and after are measured in the same minutes.
import { randomBytes } from 'node:crypto';
import { SPA, SCOPE, PASSWORD } from './flows-ward.js';
import { send } from './http.js';
import { stopAll, type Child } from './proc.js';
import { startSink, type Sink } from './smtp.js';
import { buildWard, postgresDb, sqliteDb, startWard, wardConfig, type WardDb } from './ward.js';

const argv = process.argv.slice(2);
const opt = (name: string, dflt: string) => (argv.includes(`--${name}`) ? argv[argv.indexOf(`--${name}`) + 1]! : dflt);
const pairs = Number(opt('pairs', '200'));
const gapMs = Number(opt('gap', '15'));
const engines = opt('engines', 'sqlite,postgres').split(',');
const refs = opt('refs', '').split(',').filter(Boolean);
const paths = opt('paths', 'forgot-password,account-recovery').split(',');
const WARM_UP = 20;
const JSONH = { 'content-type': 'application/json' };

interface Target {
  label: string;
  ward: Child;
  known: string;
  unknown: string;
  /** [path] -> { known: ms[], unknown: ms[], knownSlower: pairs } */
  times: Map<string, { known: number[]; unknown: number[]; knownSlower: number }>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function timed(url: string, path: string, email: string): Promise<number> {
  const body = JSON.stringify({ client_id: SPA, email });
  const t0 = performance.now();
  const res = await send(url, { method: 'POST', path: `/identity/v1/${path}`, headers: JSONH, body });
  const ms = performance.now() - t0;
  if (res.status !== 204) throw new Error(`${path} ${res.status} ${res.body}`);
  return ms;
}

async function signup(url: string, email: string): Promise<void> {
  const s = await send(url, {
    method: 'POST',
    path: '/identity/v1/signup',
    headers: JSONH,
    body: JSON.stringify({ client_id: SPA, scope: SCOPE, data: { email, password: PASSWORD } }),
  });
  if (s.status !== 200) throw new Error(`signup ${s.status} ${s.body}`);
}

/** Waits (bounded) until the sink has more than `n` messages. */
async function sinkPast(sink: Sink, n: number): Promise<void> {
  const deadline = performance.now() + 5000;
  while (sink.received() <= n && performance.now() < deadline) await sleep(1);
}

/** One pair on one target: known and unknown in a random order; returns [known ms, unknown ms]. */
async function pair(t: Target, sink: Sink, path: string): Promise<[number, number]> {
  const before = sink.received();
  const knownFirst = Math.random() < 0.5;
  let known: number;
  let unknown: number;
  if (knownFirst) {
    known = await timed(t.ward.url, path, t.known);
    await sinkPast(sink, before);
    await sleep(gapMs);
    unknown = await timed(t.ward.url, path, t.unknown);
  } else {
    unknown = await timed(t.ward.url, path, t.unknown);
    await sleep(gapMs);
    known = await timed(t.ward.url, path, t.known);
    await sinkPast(sink, before);
  }
  await sleep(gapMs);
  return [known, unknown];
}

const q = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(p * s.length))]!;
};

/** Two-sample Kolmogorov-Smirnov: the largest gap between the two empirical CDFs, and its asymptotic p-value. */
function ks(a: number[], b: number[]): { d: number; p: number } {
  const xs = [...new Set([...a, ...b])].sort((x, y) => x - y);
  const cdf = (s: number[], x: number) => s.filter((v) => v <= x).length / s.length;
  let d = 0;
  for (const x of xs) d = Math.max(d, Math.abs(cdf(a, x) - cdf(b, x)));
  const n = (a.length * b.length) / (a.length + b.length);
  const lambda = (Math.sqrt(n) + 0.12 + 0.11 / Math.sqrt(n)) * d;
  let p = 0;
  for (let j = 1; j <= 100; j++) p += 2 * (-1) ** (j - 1) * Math.exp(-2 * j * j * lambda * lambda);
  return { d, p: Math.min(1, Math.max(0, p)) };
}

function report(t: Target, path: string): string {
  const r = t.times.get(path)!;
  const f = (x: number) => x.toFixed(2).padStart(6);
  const row = (name: string, xs: number[]) =>
    `    ${name.padEnd(8)} p10 ${f(q(xs, 0.1))}  p25 ${f(q(xs, 0.25))}  median ${f(q(xs, 0.5))}  p75 ${f(q(xs, 0.75))}  p90 ${f(q(xs, 0.9))} ms`;
  const { d, p } = ks(r.known, r.unknown);
  const diff = q(r.known, 0.5) - q(r.unknown, 0.5);
  return [
    `  ${t.label} ${path} (${r.known.length} pairs)`,
    row('known', r.known),
    row('unknown', r.unknown),
    `    median known - unknown ${diff >= 0 ? '+' : ''}${diff.toFixed(2)} ms; known slower in ` +
      `${((100 * r.knownSlower) / r.known.length).toFixed(0)}% of pairs; KS D ${d.toFixed(3)} (p ${p < 0.0001 ? '<0.0001' : p.toFixed(4)})`,
  ].join('\n');
}

// Each address asks many times: its limit (requests_per_address) as high as the settings allow.
(wardConfig.account as Record<string, unknown>).self_service = {
  requests_per_address: { limit: 1000, window_seconds: 1 },
};

const sink = await startSink();
const builds: Array<{ label: string; cli: string }> = [];
if (refs.length) for (const ref of refs) builds.push({ label: ref, cli: await buildWard(ref) });
else builds.push({ label: 'work tree', cli: await buildWard() });

const dbs: WardDb[] = [];
try {
  for (const engine of engines) {
    const targets: Target[] = [];
    for (const b of builds) {
      const db = engine === 'postgres' ? await postgresDb() : await sqliteDb();
      if (!db) {
        process.stdout.write('PostgreSQL unreachable: skipped\n');
        break;
      }
      dbs.push(db);
      // Twice, as bench/run.ts does: the first start migrates and makes keys, the second is measured.
      await (await startWard(b.cli, db, sink.url)).stop();
      const ward = await startWard(b.cli, db, sink.url);
      const tag = randomBytes(4).toString('hex');
      const known = `known-${tag}@example.com`;
      await signup(ward.url, known);
      targets.push({
        label: `${engine} ${b.label}`,
        ward,
        known,
        unknown: `unknown-${tag}@example.com`,
        times: new Map(paths.map((p) => [p, { known: [], unknown: [], knownSlower: 0 }])),
      });
    }
    if (!targets.length) continue;
    for (const path of paths) {
      for (let i = 0; i < WARM_UP; i++) for (const t of targets) await pair(t, sink, path);
      for (let i = 0; i < pairs; i++)
        for (const t of i % 2 ? [...targets].reverse() : targets) {
          const [known, unknown] = await pair(t, sink, path);
          const r = t.times.get(path)!;
          r.known.push(known);
          r.unknown.push(unknown);
          if (known > unknown) r.knownSlower++;
        }
    }
    process.stdout.write(`${engine}:\n`);
    for (const path of paths) for (const t of targets) process.stdout.write(`${report(t, path)}\n`);
    for (const t of targets) await t.ward.stop();
  }
} finally {
  await stopAll();
  await sink.close();
  for (const db of dbs) await db.drop();
}
process.exit(0);
