// One measured run: autocannon against one server child (bounded in time and connections,
// loopback only), with the child's CPU time, peak RSS and event-loop utilisation read through the
// hook before, during (every 200 ms) and after. A plan is either one fixed request or a scripted flow.
import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';
import { newStats, toAutocannon, type Flow, type FlowStats } from './flow.js';
import type { Req } from './http.js';
import { treeCpuUs, type Child } from './proc.js';

export type Plan = { kind: 'fixed'; req: Req; expect: number } | { kind: 'flow'; flow: Flow };

export interface RunResult {
  rate: number; // good requests (fixed) or good flows per second
  p50: number;
  p99: number; // ms, per request (fixed) or per flow
  cpuMsPerUnit: number; // server CPU (all threads) per good request/flow
  perCoreSecond: number; // good units per server CPU-second
  peakRssMB: number;
  elu: number; // event-loop utilisation of the server's main thread, 0..1
  logBytesPerUnit: number; // what the server wrote to stdout/stderr (log lines) per good unit
  otherCores: number; // CPU used meanwhile by processes other than this server and the harness (cores)
  /** Processes whose CPU and RSS were summed (a cluster: primary + workers). */
  procs: number;
  /** The same CPU per unit read from /proc (the server's process and its children), as a cross-check. */
  kernelCpuMsPerUnit?: number;
  good: number;
  requests: number; // HTTP requests answered
  failures: Record<string, number>;
  seconds: number;
  /** With a profile: SQL statements per good unit, and the most frequent ones (runs and µs of the native call per unit). */
  sqlPerUnit?: number;
  sqlUsPerUnit?: number;
  sql?: Array<[string, number, number]>;
}

export function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

export const median = (xs: number[]) =>
  xs.length
    ? percentile(
        [...xs].sort((a, b) => a - b),
        50,
      )
    : 0;

/** Busy CPU seconds of the whole machine so far (/proc/stat), or NaN off Linux. */
function machineBusy(): number {
  try {
    const f = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
    const idle = f[3]! + (f[4] ?? 0);
    return (f.reduce((a, b) => a + b, 0) - idle) / 100;
  } catch {
    return NaN;
  }
}

/** Waits (bounded) until the server stops working off what the previous load left queued. */
export async function drain(child: Child, limitMs = 15_000): Promise<void> {
  const end = performance.now() + limitMs;
  let prev = await child.stats();
  while (performance.now() < end) {
    await new Promise((r) => setTimeout(r, 200));
    const cur = await child.stats();
    if (cur.cpuUs - prev.cpuUs < 10_000) return;
    prev = cur;
  }
}

function autocannonRun(opts: object): Promise<Record<string, any>> {
  return new Promise((resolve, reject) => {
    autocannon(opts, (err: Error | null, result: Record<string, any>) => (err ? reject(err) : resolve(result)));
  });
}

export async function run(
  child: Child,
  plan: Plan,
  o: { seconds: number; connections: number; profileFile?: string },
): Promise<RunResult> {
  const url = new URL(child.url);
  const base = {
    url: child.url,
    hostname: url.hostname,
    connections: o.connections,
    duration: o.seconds,
    timeout: 10,
    pipelining: 1,
  };
  let stats: FlowStats = newStats();
  const opts =
    plan.kind === 'fixed'
      ? {
          ...base,
          url: child.url + plan.req.path,
          method: plan.req.method,
          headers: plan.req.headers,
          body: plan.req.body,
        }
      : { ...base, requests: toAutocannon(plan.flow, (stats = newStats())) };
  let peak = 0;
  const s0 = await child.stats();
  peak = s0.rss;
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      await new Promise((r) => setTimeout(r, 200));
      if (sampling) peak = Math.max(peak, (await child.stats().catch(() => s0)).rss);
    }
  })();
  if (o.profileFile) await child.profileStart();
  if (o.profileFile) await child.sqlStart();
  const m0 = machineBusy();
  const b0 = child.outputBytes();
  const h0 = process.cpuUsage();
  const k0 = child.proc.pid ? treeCpuUs(child.proc.pid) : null;
  const t0 = performance.now();
  const result = await autocannonRun(opts);
  const seconds = (performance.now() - t0) / 1000;
  const h1 = process.cpuUsage(h0);
  const k1 = child.proc.pid ? treeCpuUs(child.proc.pid) : null;
  const m1 = machineBusy();
  sampling = false;
  await sampler;
  const sql = o.profileFile ? await child.sqlStop() : undefined;
  if (o.profileFile) await child.profileStop(o.profileFile);
  const s1 = await child.stats();
  peak = Math.max(peak, s1.rss);
  await drain(child);

  const codes: Record<string, { count: number }> = result.statusCodeStats ?? {};
  let good: number;
  let p50: number;
  let p99: number;
  const failures: Record<string, number> = { ...stats.failures };
  if (plan.kind === 'fixed') {
    good = codes[String(plan.expect)]?.count ?? 0;
    for (const [code, v] of Object.entries(codes))
      if (Number(code) !== plan.expect) failures[`status:${code}`] = v.count;
    p50 = result.latency.p50;
    p99 = result.latency.p99;
  } else {
    good = stats.flows;
    const lat = stats.latencies.sort((a, b) => a - b);
    p50 = percentile(lat, 50);
    p99 = percentile(lat, 99);
    if (stats.starved) failures.starved = stats.starved;
  }
  if (result.errors) failures.socketErrors = result.errors;
  if (result.timeouts) failures.timeouts = result.timeouts;
  const cpuUs = s1.cpuUs - s0.cpuUs;
  const busy = s1.eluActive - s0.eluActive;
  const total = busy + (s1.eluIdle - s0.eluIdle);
  return {
    rate: good / seconds,
    p50,
    p99,
    cpuMsPerUnit: good ? cpuUs / 1000 / good : 0,
    perCoreSecond: cpuUs ? good / (cpuUs / 1e6) : 0,
    peakRssMB: peak / 1048576,
    elu: total ? busy / total : 0,
    logBytesPerUnit: (child.outputBytes() - b0) / Math.max(1, good),
    otherCores: Math.max(0, m1 - m0 - (s1.cpuUs - s0.cpuUs) / 1e6 - (h1.user + h1.system) / 1e6) / seconds,
    procs: s1.procs,
    ...(k0 && k1 && good ? { kernelCpuMsPerUnit: (k1.us - k0.us) / 1000 / good } : {}),
    good,
    requests: result.requests?.total ?? 0,
    failures,
    seconds,
    ...(sql
      ? {
          sql: sql
            .slice(0, 40)
            .map(
              ([t, n, ns]) =>
                [t, +(n / Math.max(1, good)).toFixed(2), +(ns / 1000 / Math.max(1, good)).toFixed(1)] as [
                  string,
                  number,
                  number,
                ],
            ),
          // Statements only: the group commit's `exec: begin/commit` are listed but not counted as statements.
          sqlPerUnit: sql.reduce((a, [t, n]) => a + (t.startsWith('exec: ') ? 0 : n), 0) / Math.max(1, good),
          sqlUsPerUnit: sql.reduce((a, [, , ns]) => a + ns, 0) / 1000 / Math.max(1, good),
        }
      : {}),
  };
}
