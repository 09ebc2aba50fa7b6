// `--perf`: where the server's CPU goes, from Linux `perf record -e cpu-clock` (on-CPU samples of
// every thread, native and kernel frames included; Ward runs with --perf-basic-prof so its JIT
// frames have names). V8's own profiler (`--profile`) samples the main thread by wall clock: a
// sample taken while the thread waits for a core, or in a system call, lands on whatever native
// function it was in (better-sqlite3's `run`, say), so under load on two shared cores it
// overstates native calls. Here only time spent on a CPU counts. Linux with perf installed.
// "By the nearest JavaScript frame" looks through the benchmark's hook, but not through inlining:
// a function the JIT inlined into its caller (better-sqlite3's statement call into Kysely's
// executeQuery, say) is counted as its caller's.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { interruptTracer } from './proc.js';

export interface PerfSummary {
  samples: number;
  /** Share of the process's samples on its main thread (the event loop). */
  mainShare: number;
  /** Main thread, self time by kind of code (shares of the main thread's samples). */
  mainByKind: Record<string, number>;
  /** Main thread, the functions with the most self time. */
  mainTop: Array<[string, number]>;
  /** Main thread, each sample given to the nearest JavaScript frame's package or module (native and V8 time included). */
  mainByModule: Array<[string, number]>;
  /** Other threads (libuv pool: signatures, hashing; V8 helpers), the functions with the most self time, as shares of all samples. */
  otherTop: Array<[string, number]>;
}

export interface PerfRecording {
  stop(): Promise<PerfSummary>;
}

export async function recordPerf(pid: number): Promise<PerfRecording> {
  const dir = mkdtempSync(join(tmpdir(), 'ward-bench-perf-'));
  const data = join(dir, 'perf.data');
  // System-wide (-a), kept to the server's samples afterwards: some kernels (seen on a 6.18 VM with
  // perf 6.1) record nothing at all when perf attaches to a running process with -p.
  const proc = spawn('perf', ['record', '-e', 'cpu-clock', '-F', '1999', '-g', '-a', '-o', data], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let err = '';
  proc.stderr.on('data', (b: Buffer) => (err += b.toString()));
  const exited = new Promise<number | null>((resolve) => proc.once('exit', (code) => resolve(code)));
  proc.once('error', () => undefined);
  // perf says nothing when it has attached: give it a moment, and fail early if it died.
  const early = await Promise.race([exited, new Promise<'running'>((r) => setTimeout(() => r('running'), 300))]);
  if (early !== 'running') {
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`perf record exited (${early}): ${err.trim().slice(0, 300)}`);
  }
  return {
    async stop() {
      await interruptTracer(proc, exited);
      try {
        const text = execFileSync('perf', ['script', '-i', data, '-F', 'pid,tid,ip,sym,dso'], {
          maxBuffer: 1 << 30,
          stdio: ['ignore', 'pipe', 'ignore'],
        }).toString();
        return summarize(text, pid);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

/** The kind of code a leaf frame is, from its symbol and object. */
function kindOf(sym: string, dso: string): string {
  if (dso.includes('perf-') || dso.includes('[JIT]') || sym.startsWith('JS:') || sym.startsWith('RegExp:'))
    return 'JavaScript (JIT code)';
  if (dso.includes('better_sqlite3')) return 'SQLite';
  if (dso.includes('kernel')) return 'kernel';
  if (dso.includes('libc')) return 'libc (malloc, memcpy)';
  if (/ossl_|^BN_|^bn_|RSA|^EVP_|sha\d|SHA\d|_mont|aesni|HMAC|OPENSSL|CRYPTO_/.test(sym)) return 'OpenSSL';
  if (/^Builtins_|^v8::|^Builtin_|^Runtime_/.test(sym)) return 'V8 (interpreter, builtins, GC, compiler)';
  if (/^node::|^uv_|^uv__|llhttp/.test(sym)) return 'Node.js native (HTTP parser, libuv)';
  return 'other';
}

/** `node_modules/<package>`, `ward:<dir>/<file>`, `node:<module>` of a JIT frame's symbol, if it is one. */
function moduleOf(sym: string): string | undefined {
  if (!sym.startsWith('JS:') && !sym.startsWith('RegExp:')) return undefined;
  // The benchmark's own hook wraps better-sqlite3's calls: look through it to whoever called them.
  if (sym.includes('bench/hook.mjs')) return undefined;
  if (sym.startsWith('RegExp:')) return '(regular expressions)';
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(sym);
  if (pkg) return pkg[1];
  const ward = /\/ward\/([^:\s]+?)\.js/.exec(sym) ?? /\/src\/([^:\s]+?)\.ts/.exec(sym);
  if (ward) return `ward:${ward[1]}`;
  const node = /(node:[a-z_/]+)/.exec(sym);
  return node ? node[1] : '(other JavaScript)';
}

export function summarize(text: string, pid: number): PerfSummary {
  const main = new Map<string, number>();
  const modules = new Map<string, number>();
  let owner: string | undefined;
  const other = new Map<string, number>();
  const kinds = new Map<string, number>();
  let samples = 0;
  let mainSamples = 0;
  let tid = '';
  /** The current sample is one of the server's (pid/tid header); the others are skipped. */
  let ours = false;
  let leaf = true;
  const add = (m: Map<string, number>, k: string) => m.set(k, (m.get(k) ?? 0) + 1);
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    // A sample's header is "<pid>/<tid>" (right-aligned by some perf versions); its frames follow.
    const header = /^\s*(\d+)\/(\d+)\s*$/.exec(line);
    if (header) {
      if (ours && tid === String(pid)) add(modules, owner ?? '(no JavaScript frame: GC, event loop, I/O)');
      owner = undefined;
      ours = header[1] === String(pid);
      tid = header[2]!;
      leaf = true;
      if (!ours) continue;
      samples++;
      if (tid === String(pid)) mainSamples++;
      continue;
    }
    if (!ours) continue;
    // "<ip> <symbol> (<dso>)"
    const m = /^\s*[0-9a-f]+\s+(.*?)\s+\(([^)]*)\)\s*$/.exec(line);
    const sym = (m?.[1] ?? '[unknown]').replace(/\+0x[0-9a-f]+$/, '');
    const dso = m?.[2] ?? '';
    if (owner === undefined) owner = moduleOf(sym);
    if (!leaf) continue;
    leaf = false;
    if (tid === String(pid)) {
      add(main, sym);
      add(kinds, kindOf(sym, dso));
    } else {
      add(other, sym);
    }
  }
  if (ours && tid === String(pid)) add(modules, owner ?? '(no JavaScript frame: GC, event loop, I/O)');
  const share = (n: number, of: number) => +(n / Math.max(1, of)).toFixed(4);
  const top = (m: Map<string, number>, of: number, k = 12) =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, k)
      .map(([s, n]) => [s.slice(0, 140), share(n, of)] as [string, number]);
  return {
    samples,
    mainShare: share(mainSamples, samples),
    mainByKind: Object.fromEntries([...kinds].sort((a, b) => b[1] - a[1]).map(([k, n]) => [k, share(n, mainSamples)])),
    mainTop: top(main, mainSamples),
    mainByModule: top(modules, mainSamples, 14),
    otherTop: top(other, samples, 6),
  };
}

export function formatPerf(label: string, s: PerfSummary): string {
  const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
  return [
    `${label}: ${s.samples} on-CPU samples, ${pct(s.mainShare)} on the main thread`,
    `  main thread by kind: ${Object.entries(s.mainByKind)
      .map(([k, v]) => `${k} ${pct(v)}`)
      .join(' | ')}`,
    `  main thread, self:   ${s.mainTop.map(([k, v]) => `${k} ${pct(v)}`).join(' | ')}`,
    `  main thread by the nearest JavaScript frame: ${s.mainByModule.map(([k, v]) => `${k} ${pct(v)}`).join(' | ')}`,
    `  other threads, self: ${s.otherTop.map(([k, v]) => `${k} ${pct(v)}`).join(' | ')}`,
  ].join('\n');
}
