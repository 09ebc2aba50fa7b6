import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freshPgSchema } from './databases.js';
import { freePort } from './free-port.js';

/** A database two or more Ward processes share: one SQLite file, or one PostgreSQL schema. */
export interface SharedDb {
  env: Record<string, string>;
  drop(): Promise<void>;
}

export async function sharedDb(engine: 'sqlite' | 'postgres'): Promise<SharedDb> {
  const masterKey = randomBytes(32).toString('base64');
  const base = {
    WARD_MASTER_KEY: masterKey,
    WARD_LOG_LEVEL: 'warn',
    WARD_DEMO_CLIENTS: 'off',
    WARD_ADMIN_PASSWORD: 'operator-password-for-tests',
  };
  if (engine === 'sqlite') {
    return {
      env: { ...base, WARD_DATA_DIR: mkdtempSync(join(tmpdir(), 'ward-shared-')) },
      drop: async () => undefined,
    };
  }
  const s = await freshPgSchema();
  const url = new URL(s.url);
  url.searchParams.set('options', `-c search_path=${s.schema}`);
  return {
    env: { ...base, WARD_DATABASE_URL: url.toString(), WARD_DATA_DIR: mkdtempSync(join(tmpdir(), 'ward-pg-')) },
    drop: s.drop,
  };
}

export interface WardProcess {
  url: string;
  child: ChildProcess;
  output: () => string;
  stop(): Promise<void>;
}

/** Waits until a child process has printed `text` (stdout or stderr); returns a reader of its output. */
export async function waitForOutput(child: ChildProcess, text: string, limitMs = 30_000): Promise<() => string> {
  let out = '';
  child.stdout?.on('data', (d) => (out += String(d)));
  child.stderr?.on('data', (d) => (out += String(d)));
  const deadline = Date.now() + limitMs;
  while (!out.includes(text)) {
    if (child.exitCode !== null) throw new Error(`process exited: ${out}`);
    if (Date.now() > deadline) {
      // A child left running would keep the test process (and the whole run) alive.
      child.kill('SIGKILL');
      throw new Error(`no "${text}" within ${limitMs} ms: ${out}`);
    }
    await new Promise((r) => setTimeout(r, 20));
  }
  return () => out;
}

/** Ends a child process with SIGTERM (at once if it has already exited). */
export function stopProcess(child: ChildProcess): Promise<void> {
  return new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

/**
 * `ward start [args]` in its own process, plain HTTP on loopback (as behind a TLS proxy); from `cwd`'s
 * sources when given (another release's checkout), else this one's.
 */
export async function startWardProcess(
  env: Record<string, string>,
  args: string[] = [],
  cwd?: string,
): Promise<WardProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts', 'start', ...args], {
    cwd,
    env: {
      ...process.env,
      ...env,
      WARD_PORT: String(port),
      WARD_HOST: '127.0.0.1',
      WARD_TLS: 'off',
      WARD_ISSUER: `http://127.0.0.1:${port}`,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output = await waitForOutput(child, 'Ward is listening');
  return { url: `http://127.0.0.1:${port}`, child, output, stop: () => stopProcess(child) };
}

/**
 * A build's server (`<out>/cli.js start`, scripts/build.mjs) as a child with only these variables:
 * plain HTTP on loopback at `port`, the data folder `dataDir`, warnings only, and `env` over them.
 */
export function spawnBuiltWard(
  out: string,
  opts: { cwd: string; dataDir: string; port: number; env?: Record<string, string> },
): ChildProcess {
  return spawn(process.execPath, [join(out, 'cli.js'), 'start'], {
    cwd: opts.cwd,
    env: {
      PATH: process.env.PATH!,
      WARD_DATA_DIR: opts.dataDir,
      WARD_PORT: String(opts.port),
      WARD_HOST: '127.0.0.1',
      WARD_TLS: 'off',
      WARD_ISSUER: `http://127.0.0.1:${opts.port}`,
      WARD_LOG_LEVEL: 'warn',
      ...opts.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/** Runs `ward <args>` to completion. */
export function runCli(env: Record<string, string>, args: string[]): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts', ...args], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d) => (out += String(d)));
    child.stderr.on('data', (d) => (out += String(d)));
    child.on('exit', (code) => resolve({ code: code ?? 1, out }));
  });
}

/** Polls `probe` every 20 ms; returns how long it took to become true, or throws after `limitMs`. */
export async function within(limitMs: number, probe: () => Promise<boolean>): Promise<number> {
  const start = Date.now();
  while (Date.now() - start <= limitMs) {
    if (await probe()) return Date.now() - start;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`not seen within ${limitMs} ms`);
}
