// Preloaded (`node --import bench/hook.mjs`) into every server the benchmark starts (Ward, the peer,
// the ceiling server). It is the harness's "stats endpoint": over the IPC channel it answers CPU time
// (process.cpuUsage, all threads), RSS and event-loop utilisation, and starts or stops a CPU profile
// (node:inspector) written where the harness asks, and counts SQL statements on demand (wrapping
// better-sqlite3's prepare and pg's Client#query, as Kysely calls them once per statement; and
// better-sqlite3's exec, which runs the begin/commit of Ward's group commit, as `exec: <text>`).
// It changes nothing else in the process, unless BENCH_EXPERIMENT (`--experiment`) asks for a
// what-if: `stmt-cache` reuses better-sqlite3 statements by SQL text, `smtp-pool` makes nodemailer
// keep its SMTP connections (pool: true). Those measure a suggested fix; they never touch src/.
// (`postgres-js`, Ward's queries on postgres.js, is applied when Ward is built, bench/ward.ts; not here.)
// `ward start --workers N` (node:cluster): the workers inherit this hook (cluster.fork passes the
// primary's execArgv), and the primary's hook, the one the harness talks to, relays `stats`,
// `sql-start` and `sql-stop` to every live worker and sums: CPU = primary + workers (each
// process.cpuUsage, all threads), RSS = the sum of each process's RSS (pages shared between them
// counted once per process), event-loop utilisation = the workers' main threads together (the
// primary only hands out connections), `procs` = how many processes were summed.
import cluster from 'node:cluster';
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Session } from 'node:inspector/promises';
import { performance } from 'node:perf_hooks';

// SQL text -> [runs, ns spent in the native call (SQLite only: synchronous, so the time is the statement's)].
let counting = null;
const count = (text, n = 1, ns = 0) => {
  if (!counting || typeof text !== 'string') return;
  const c = counting.get(text);
  if (c) {
    c[0] += n;
    c[1] += ns;
  } else counting.set(text, [n, ns]);
};
const req = createRequire(`${process.cwd()}/`);
// The drivers are loaded (and counted) only in a server that uses them: Ward (WARD_DATA_DIR), on
// PostgreSQL only when it has a WARD_DATABASE_URL. Loading pg into Ward on SQLite, which never loads
// it, or either into the peer, would add its load time to that server's cold start.
const isWard = process.env.WARD_DATA_DIR !== undefined;
const onPostgres = process.env.WARD_DATABASE_URL !== undefined;
const experiments = new Set((process.env.BENCH_EXPERIMENT ?? '').split(',').filter(Boolean));
if (isWard)
  try {
    const Database = req('better-sqlite3');
    const prepare = Database.prototype.prepare;
    const caches = new WeakMap();
    // Statements are counted when they run (Ward reuses prepared statements, so prepare calls say
    // nothing): run/all/get/iterate of better-sqlite3's Statement, patched on the first prepare.
    let patched = false;
    const countRuns = (stmt) => {
      if (patched || !stmt) return stmt;
      patched = true;
      const proto = Object.getPrototypeOf(stmt);
      for (const m of ['run', 'all', 'get', 'iterate']) {
        const f = proto[m];
        proto[m] = function (...a) {
          if (!counting) return f.apply(this, a);
          const t0 = process.hrtime.bigint();
          try {
            return f.apply(this, a);
          } finally {
            count(this.source, 1, Number(process.hrtime.bigint() - t0));
          }
        };
      }
      return stmt;
    };
    // exec (begin/commit of Ward's group commit, `storage/sqlite-batch.ts`) is counted as `exec: <text>`.
    const exec = Database.prototype.exec;
    Database.prototype.exec = function (text) {
      if (!counting) return exec.call(this, text);
      const t0 = process.hrtime.bigint();
      try {
        return exec.call(this, text);
      } finally {
        count(`exec: ${text}`, 1, Number(process.hrtime.bigint() - t0));
      }
    };
    Database.prototype.prepare = function (text, ...rest) {
      if (!experiments.has('stmt-cache') || rest.length) return countRuns(prepare.call(this, text, ...rest));
      let cache = caches.get(this);
      if (!cache) caches.set(this, (cache = new Map()));
      let stmt = cache.get(text);
      if (!stmt) cache.set(text, (stmt = prepare.call(this, text)));
      return stmt;
    };
  } catch {
    /* not installed here */
  }
if (experiments.has('smtp-pool')) {
  try {
    const nodemailer = req('nodemailer');
    const create = nodemailer.createTransport;
    nodemailer.createTransport = (opts, defaults) =>
      create.call(nodemailer, typeof opts === 'object' ? { ...opts, pool: true, maxConnections: 10 } : opts, defaults);
  } catch {
    /* not installed here */
  }
}
if (onPostgres)
  try {
    const pg = req('pg');
    const query = pg.Client.prototype.query;
    pg.Client.prototype.query = function (q, ...rest) {
      count(typeof q === 'string' ? q : q?.text);
      return query.call(this, q, ...rest);
    };
  } catch {
    /* not installed here */
  }

const inWorker = !cluster.isPrimary;
const liveWorkers = () => (inWorker ? [] : Object.values(cluster.workers ?? {}).filter((w) => w?.isConnected()));
let wseq = 0;
const wpending = new Map();
if (!inWorker) {
  cluster.on('message', (_w, m) => {
    if (!m?.benchHook || !m.fromWorker) return;
    wpending.get(m.id)?.(m);
    wpending.delete(m.id);
  });
}
/** The same command to every live worker: their answers (a worker that does not answer within 5 s is left out). */
const askWorkers = (cmd) =>
  Promise.all(
    liveWorkers().map(
      (w) =>
        new Promise((resolve) => {
          const id = ++wseq;
          const timer = setTimeout(() => {
            wpending.delete(id);
            resolve(null);
          }, 5000);
          wpending.set(id, (m) => {
            clearTimeout(timer);
            resolve(m);
          });
          try {
            w.send({ benchHook: true, id, cmd });
          } catch {
            clearTimeout(timer);
            wpending.delete(id);
            resolve(null);
          }
        }),
    ),
  ).then((xs) => xs.filter(Boolean));

if (process.send) {
  // A cluster worker's channel is its link to the primary (cluster keeps it); only a harness child unrefs.
  if (!inWorker) process.channel?.unref();
  let session = null;
  process.on('message', async (m) => {
    if (!m || typeof m !== 'object' || !m.benchHook) return;
    let out = {};
    try {
      if (m.cmd === 'stats') {
        const e = performance.eventLoopUtilization();
        out = {
          cpu: process.cpuUsage(),
          rss: process.memoryUsage.rss(),
          elu: { idle: e.idle, active: e.active },
          procs: 1,
          pid: process.pid,
        };
        const ws = await askWorkers('stats');
        if (ws.length) {
          out.cpu = {
            user: out.cpu.user + ws.reduce((a, w) => a + w.cpu.user, 0),
            system: out.cpu.system + ws.reduce((a, w) => a + w.cpu.system, 0),
          };
          out.rss += ws.reduce((a, w) => a + w.rss, 0);
          out.elu = { idle: ws.reduce((a, w) => a + w.elu.idle, 0), active: ws.reduce((a, w) => a + w.elu.active, 0) };
          out.procs = 1 + ws.length;
          out.workerPids = ws.map((w) => w.pid);
        }
      } else if (m.cmd === 'sql-start') {
        counting = new Map();
        await askWorkers('sql-start');
      } else if (m.cmd === 'sql-stop') {
        for (const w of await askWorkers('sql-stop')) for (const [t, n, ns] of w.sql ?? []) count(t, n, ns);
        out = {
          sql: [...(counting ?? new Map()).entries()].map(([t, [n, ns]]) => [t, n, ns]).sort((a, b) => b[1] - a[1]),
        };
        counting = null;
      } else if (m.cmd === 'profile-start') {
        session = new Session();
        session.connect();
        await session.post('Profiler.enable');
        await session.post('Profiler.setSamplingInterval', { interval: 500 });
        await session.post('Profiler.start');
      } else if (m.cmd === 'profile-stop' && session) {
        const { profile } = await session.post('Profiler.stop');
        writeFileSync(m.file, JSON.stringify(profile));
        session.disconnect();
        session = null;
      }
    } catch (e) {
      out = { error: String(e) };
    }
    process.send({ benchHook: true, id: m.id, ...(inWorker ? { fromWorker: true } : {}), ...out });
  });
}
