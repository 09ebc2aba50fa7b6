// A PostgreSQL server of the test's own, for tests that stop and start the database: the shared
// server on 5432 is never stopped. initdb into a temporary directory, pg_ctl on a free loopback port,
// trust authentication, its socket in the same directory. initdb refuses to run as root: as root,
// the directory is handed to the `postgres` OS user and the tools run as that user.
import { execFileSync, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './free-port.js';

export interface PrivatePostgres {
  /** postgres://postgres@127.0.0.1:<port>/postgres */
  url: string;
  port: number;
  /** `pg_ctl stop -m fast`: the server ends every connection and stops. */
  stop(): void;
  /** `pg_ctl start` on the same port and data. */
  start(): void;
  /** Stops the server if it runs and deletes its directory. Safe to call twice. */
  destroy(): void;
}

function binDir(): string | null {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return null;
  const versions = readdirSync(root)
    .filter((v) => existsSync(join(root, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions.length ? join(root, versions[0]!, 'bin') : null;
}

/** Why a private server cannot run here, or null when it can. */
export function privatePostgresUnavailable(): string | null {
  return binDir() ? null : 'no PostgreSQL server binaries under /usr/lib/postgresql/*/bin';
}

export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const bin = binDir();
  if (!bin) throw new Error('no PostgreSQL server binaries under /usr/lib/postgresql/*/bin');
  const asRoot = process.getuid?.() === 0;
  const dir = mkdtempSync(join(tmpdir(), 'ward-private-pg-'));
  if (asRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
    chownSync(dir, uid, gid);
  }
  const run = (tool: string, args: string[]) => {
    const cmd = asRoot ? 'runuser' : join(bin, tool);
    const argv = asRoot ? ['-u', 'postgres', '--', join(bin, tool), ...args] : args;
    const r = spawnSync(cmd, argv, { encoding: 'utf8', timeout: 60_000 });
    if (r.status !== 0) throw new Error(`${tool} ${args.join(' ')} failed (${r.status}): ${r.stdout}${r.stderr}`);
  };
  const data = join(dir, 'data');
  const port = await freePort();
  let running = false;
  let destroyed = false;
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=40`;
  const pg: PrivatePostgres = {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    start() {
      run('pg_ctl', ['start', '-w', '-t', '30', '-D', data, '-l', join(dir, 'server.log'), '-o', options]);
      running = true;
    },
    stop() {
      run('pg_ctl', ['stop', '-w', '-t', '30', '-m', 'fast', '-D', data]);
      running = false;
    },
    destroy() {
      if (destroyed) return;
      destroyed = true;
      process.removeListener('exit', pg.destroy);
      try {
        if (running) run('pg_ctl', ['stop', '-w', '-t', '30', '-m', 'immediate', '-D', data]);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
  // Cleaned up even when the test fails or is interrupted before its own `after` runs.
  process.once('exit', pg.destroy);
  try {
    run('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '-E', 'UTF8', '--no-sync', '--no-instructions']);
    pg.start();
  } catch (e) {
    pg.destroy();
    throw e;
  }
  return pg;
}
