// `--syscalls`: system calls of the server during one more unmeasured run, counted by `strace -c -f`
// attached to its process (all threads). Counts, unlike times, hardly move with the machine's other
// load, so a change to how Ward writes (commits, journals, checkpoints) shows in them when the
// throughput of a noisy machine cannot show it. strace slows the server down: only the counts per
// unit are reported. Linux with strace installed; one process (a cluster's workers are not traced).
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { interruptTracer } from './proc.js';

export interface SyscallTrace {
  /** Detaches and returns the calls per system call name. */
  stop(): Promise<Map<string, number>>;
}

export async function traceSyscalls(pid: number): Promise<SyscallTrace> {
  const dir = mkdtempSync(join(tmpdir(), 'ward-bench-strace-'));
  const out = join(dir, 'counts.txt');
  const proc = spawn('strace', ['-c', '-f', '-p', String(pid), '-o', out], { stdio: ['ignore', 'ignore', 'pipe'] });
  const exited = new Promise<number | null>((resolve) => proc.once('exit', (code) => resolve(code)));
  // strace says "Process N attached" on stderr once it is in; bounded.
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('strace did not attach within 5 s')), 5000);
    let err = '';
    proc.stderr.on('data', (b: Buffer) => {
      err += b.toString();
      if (/attached/.test(err)) {
        clearTimeout(timer);
        resolve();
      }
    });
    proc.once('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`strace exited (${code}): ${err.trim().slice(0, 200)}`));
    });
  });
  return {
    async stop() {
      await interruptTracer(proc, exited);
      try {
        return parseCounts(readFileSync(out, 'utf8'));
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

/** `strace -c` table: "% time  seconds  usecs/call  calls  [errors]  syscall". */
export function parseCounts(text: string): Map<string, number> {
  const calls = new Map<string, number>();
  for (const line of text.split('\n')) {
    const f = line.trim().split(/\s+/);
    if (f.length < 5 || !/^\d+(\.\d+)?$/.test(f[0]!) || f[f.length - 1] === 'total') continue;
    calls.set(f[f.length - 1]!, Number(f[3]));
  }
  return calls;
}

/** The most frequent calls per unit, as "name n.n". */
export function formatPerUnit(calls: Map<string, number>, units: number, top = 10): string {
  const total = [...calls.values()].reduce((a, b) => a + b, 0);
  return (
    `${(total / Math.max(1, units)).toFixed(1)} in all: ` +
    [...calls.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([name, n]) => `${name} ${(n / Math.max(1, units)).toFixed(2)}`)
      .join(' | ')
  );
}
