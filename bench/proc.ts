// Child processes of the benchmark: every server runs in its own process on 127.0.0.1 with the
// harness hook preloaded (bench/hook.mjs: CPU, RSS, event-loop utilisation and CPU profiles over
// IPC). Cold start = spawn to the first answered HTTP request. Every child started here is stopped
// by stopAll(), also on SIGINT/SIGTERM of the harness.
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import http from 'node:http';
import { fileURLToPath } from 'node:url';

const HOOK = fileURLToPath(new URL('./hook.mjs', import.meta.url));
const started = new Set<Child>();
const cleanups: Array<() => Promise<void>> = [];

/** Work to do when the harness is interrupted (e.g. drop a PostgreSQL schema). */
export function onAbort(fn: () => Promise<void>): void {
  cleanups.push(fn);
}

/** CPU and RSS are summed over a cluster's primary and workers (hook.mjs relays); procs = processes summed. */
export interface Stats {
  cpuUs: number;
  rss: number;
  eluActive: number;
  eluIdle: number;
  procs: number;
}

export interface Child {
  name: string;
  url: string;
  proc: ChildProcess;
  coldStartMs: number;
  output(): string;
  /** Bytes the child wrote to stdout and stderr so far (its log lines). */
  outputBytes(): number;
  stats(): Promise<Stats>;
  profileStart(): Promise<void>;
  profileStop(file: string): Promise<void>;
  sqlStart(): Promise<void>;
  /** SQL texts run since sqlStart, with their counts, most frequent first. */
  /** [SQL text, runs, ns in the native call (SQLite; 0 on PostgreSQL)], most frequent first. */
  sqlStop(): Promise<Array<[string, number, number]>>;
  stop(): Promise<void>;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

/** One GET with no keep-alive: the status, or 0 when nothing answers yet. */
export function probe(url: string): Promise<number> {
  return new Promise((resolve) => {
    const req = http.get(url, { agent: false, timeout: 1000 }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', () => resolve(0));
    req.on('timeout', () => req.destroy());
  });
}

export interface StartOptions {
  name: string;
  /** node arguments after the hook (script and its arguments, or --cpu-prof etc.). */
  args: string[];
  env: Record<string, string | undefined>;
  port: number;
  probePath: string;
  limitMs?: number;
}

export async function startChild(o: StartOptions): Promise<Child> {
  const url = `http://127.0.0.1:${o.port}`;
  const t0 = performance.now();
  const proc = spawn(process.execPath, ['--import', HOOK, ...o.args], {
    env: { ...process.env, ...o.env },
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    cwd: fileURLToPath(new URL('..', import.meta.url)),
  });
  let out = '';
  let bytes = 0;
  const keep = (d: Buffer) => {
    bytes += d.length;
    out = (out + String(d)).slice(-20_000);
  };
  proc.stdout!.on('data', keep);
  proc.stderr!.on('data', keep);
  let seq = 0;
  const pending = new Map<number, (m: Record<string, unknown>) => void>();
  proc.on('message', (m: Record<string, unknown>) => {
    if (!m?.benchHook || typeof m.id !== 'number') return;
    pending.get(m.id)?.(m);
    pending.delete(m.id);
  });
  const ask = (cmd: string, extra: Record<string, unknown> = {}) =>
    new Promise<Record<string, unknown>>((resolve, reject) => {
      if (!proc.connected) return reject(new Error(`${o.name} has no IPC channel (exited?)`));
      const id = ++seq;
      const timer = setTimeout(() => {
        pending.delete(id);
        reject(new Error(`${o.name}: no answer to ${cmd}`));
      }, 15_000);
      pending.set(id, (m) => {
        clearTimeout(timer);
        resolve(m);
      });
      proc.send({ benchHook: true, id, cmd, ...extra });
    });
  const child: Child = {
    name: o.name,
    url,
    proc,
    coldStartMs: 0,
    output: () => out,
    outputBytes: () => bytes,
    async stats() {
      const m = (await ask('stats')) as {
        cpu: { user: number; system: number };
        rss: number;
        elu: { idle: number; active: number };
        procs?: number;
      };
      return {
        cpuUs: m.cpu.user + m.cpu.system,
        rss: m.rss,
        eluActive: m.elu.active,
        eluIdle: m.elu.idle,
        procs: m.procs ?? 1,
      };
    },
    async profileStart() {
      await ask('profile-start');
    },
    async profileStop(file) {
      await ask('profile-stop', { file });
    },
    async sqlStart() {
      await ask('sql-start');
    },
    async sqlStop() {
      return ((await ask('sql-stop')).sql ?? []) as Array<[string, number, number]>;
    },
    stop: () =>
      new Promise<void>((resolve) => {
        started.delete(child);
        if (proc.exitCode !== null || proc.signalCode !== null) return resolve();
        const kill = setTimeout(() => proc.kill('SIGKILL'), 10_000);
        proc.once('exit', () => {
          clearTimeout(kill);
          resolve();
        });
        proc.kill('SIGTERM');
      }),
  };
  started.add(child);
  const deadline = t0 + (o.limitMs ?? 60_000);
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`${o.name} exited (${proc.exitCode}) before answering:\n${out}`);
    if ((await probe(url + o.probePath)) === 200) break;
    if (performance.now() > deadline) {
      await child.stop();
      throw new Error(`${o.name} did not answer within ${o.limitMs ?? 60_000} ms:\n${out}`);
    }
    await new Promise((r) => setTimeout(r, 5));
  }
  child.coldStartMs = performance.now() - t0;
  return child;
}

export const running = (): Child[] => [...started];

const TICK_US = 1e6 / 100; // USER_HZ: 100 on Linux (getconf CLK_TCK)

/**
 * A cross-check of the hook's sums, from the kernel: CPU time (utime + stime, all threads) of `pid`
 * and of its live child processes (a cluster's workers), in microseconds, and how many processes
 * were counted; null off Linux. 10 ms resolution per process.
 */
export function treeCpuUs(pid: number): { us: number; procs: number } | null {
  const stat = (p: string) => {
    try {
      const f = readFileSync(`/proc/${p}/stat`, 'utf8');
      const rest = f.slice(f.lastIndexOf(')') + 2).split(' '); // fields from 3 (state) on
      return { ppid: Number(rest[1]), ticks: Number(rest[11]) + Number(rest[12]) };
    } catch {
      return null;
    }
  };
  const own = stat(String(pid));
  if (!own) return null;
  let ticks = own.ticks;
  let procs = 1;
  for (const p of readdirSync('/proc')) {
    if (!/^\d+$/.test(p) || p === String(pid)) continue;
    const s = stat(p);
    if (s && s.ppid === pid) {
      ticks += s.ticks;
      procs++;
    }
  }
  return { us: ticks * TICK_US, procs };
}

export async function stopAll(): Promise<void> {
  await Promise.all([...started].map((c) => c.stop()));
}

for (const sig of ['SIGINT', 'SIGTERM'] as const) {
  process.once(sig, () => {
    for (const c of started) c.proc.kill('SIGKILL');
    const timeout = new Promise((r) => setTimeout(r, 5000));
    void Promise.race([Promise.allSettled(cleanups.map((f) => f())), timeout]).then(() => process.exit(130));
  });
}

/** Stops an attached tracer (strace, perf) as Ctrl-C would, so it writes its output; SIGKILL after 10 s. */
export async function interruptTracer(proc: ChildProcess, exited: Promise<unknown>): Promise<void> {
  proc.kill('SIGINT');
  const kill = setTimeout(() => proc.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(kill);
}
