#!/usr/bin/env node
import { join } from 'node:path';
import { ConfigError, configFromProcess } from './config/load.js';
import type { WardConfig } from './config/types.js';
import { OPERATOR_USAGE, runOperatorCommand } from './management/cli.js';
import { USERS_USAGE, runUsersCommand } from './management/users-cli.js';
import cluster from 'node:cluster';
import { banner, prepareCluster, startServer } from './main.js';
import { applyRuntimeHeapSetting, missingServerEnv, withServerNodeFlags } from './lib/tuning/heap-flags.js';
import { serveClusterMetrics } from './observability/cluster-metrics.js';
import { buildRegistry } from './registry.js';
import { connect, migrate } from './storage/connect.js';
import { describePlan, planMigrations } from './storage/migration-plan.js';
import { describeUnavailable, isDatabaseUnavailable } from './storage/unavailable.js';

const usage = `Usage: ward <command>
  start [--workers N]  run the server (migrations, keys and first-start bootstrap included);
            --workers N runs N processes sharing the port (node:cluster), one per core
  migrate   apply the database migrations and exit;
            --plan prints the pending ones, their SQL and whether each is safe online, and changes nothing
${OPERATOR_USAGE}
${USERS_USAGE}
Configuration: environment variables WARD_* and the JSON file named by WARD_CONFIG (see docs/configuration.md).`;

async function main(argv: string[]): Promise<number> {
  const command = argv[0] ?? 'start';
  if (command === 'help' || command === '--help' || command === '-h') {
    process.stdout.write(`${usage}\n`);
    return 0;
  }
  let config: WardConfig;
  try {
    config = configFromProcess();
  } catch (e) {
    if (e instanceof ConfigError) {
      process.stderr.write(`${e.message}\n`);
      return 2;
    }
    throw e;
  }
  if (command === 'migrate') {
    const db = connect({
      sqlitePath: join(config.dataDir, 'ward.db'),
      postgresUrl: config.databaseUrl,
      tuning: config.tuning,
    });
    if (argv.includes('--plan')) {
      const plan = await planMigrations(db);
      await db.close();
      process.stdout.write(describePlan(plan));
      return 0;
    }
    const applied = await migrate(db);
    await db.close();
    process.stdout.write(applied.length ? `Applied: ${applied.join(', ')}\n` : 'The database is up to date.\n');
    return 0;
  }
  if (command === 'keys' || command === 'clients') {
    const registry = await buildRegistry({ ...config, logLevel: 'warn' });
    try {
      return await runOperatorCommand(registry, argv, 'cli', (line: string) => process.stdout.write(`${line}\n`));
    } finally {
      await registry.close();
    }
  }
  if (command === 'users') {
    const registry = await buildRegistry({ ...config, logLevel: 'warn' });
    try {
      return await runUsersCommand(registry, argv, 'cli', (line: string) => process.stdout.write(`${line}\n`));
    } finally {
      await registry.close();
    }
  }
  if (command !== 'start') {
    process.stderr.write(`Unknown command ${command}\n${usage}\n`);
    return 2;
  }
  const workers = workerCount(argv);
  if (workers === null) {
    process.stderr.write(`--workers must be a number from 1 to 64\n`);
    return 2;
  }
  if (workers > 1 && cluster.isPrimary) return runCluster(config, workers);
  if (config.tuning.heap_flags) applyRuntimeHeapSetting();
  const running = await startServer(config, { bootstrap: cluster.isPrimary });
  survivingStrayDatabaseErrors(running.registry.log);
  if (cluster.isPrimary) process.stdout.write(banner(config, running));
  else process.stdout.write(`Ward worker ${process.pid} is listening on ${running.url}\n`);
  const stop = async (signal: string) => {
    const log = running.registry.log;
    log.info({ signal }, 'shutting down: finishing the requests in flight');
    // The requests are cut at the shutdown timeout; this bounds what comes after (the queued writes).
    setTimeout(
      () => {
        log.error('shutdown did not finish in time: exiting');
        process.exit(1);
      },
      (config.shutdownTimeoutSeconds + 5) * 1000,
    ).unref();
    try {
      await running.stop();
    } catch (e) {
      log.error({ err: e }, 'shutdown failed');
      process.exit(1);
    }
    process.exit(0);
  };
  process.once('SIGINT', () => void stop('SIGINT'));
  process.once('SIGTERM', () => void stop('SIGTERM'));
  return -1;
}

/**
 * The net under the database's error handling (storage/pg-faults.ts): should a database failure
 * still escape as an unhandled rejection or error, it is logged and the process serves on, since
 * the pool recovers by itself. Anything else ends the process as Node would (exit code 1).
 */
function survivingStrayDatabaseErrors(log: { error(obj: object, msg: string): void }): void {
  const handle = (e: unknown) => {
    if (isDatabaseUnavailable(e)) {
      const fields = { event: 'database_error_escaped', ...describeUnavailable(e) };
      log.error(fields, 'database failure outside a request: serving on');
      return;
    }
    process.stderr.write(`ward: ${(e as Error)?.stack ?? String(e)}\n`);
    process.exit(1);
  };
  process.on('unhandledRejection', handle);
  process.on('uncaughtException', handle);
}

/** `--workers N` (or WARD_WORKERS through the config): null when it is not a sane number. */
function workerCount(argv: string[]): number | null {
  const i = argv.indexOf('--workers');
  const raw = i >= 0 ? argv[i + 1] : '1';
  const n = Number(raw);
  return Number.isInteger(n) && n >= 1 && n <= 64 ? n : null;
}

/**
 * `ward start --workers N`: the primary bootstraps once, then forks N workers sharing the port
 * (node:cluster); a worker that dies is replaced. Workers share state only through the database.
 */
async function runCluster(config: Parameters<typeof startServer>[0], workers: number): Promise<number> {
  const report = await prepareCluster(config);
  let stopping = false;
  serveClusterMetrics();
  // Each worker gets the server's node flags and environment, unless the primary was started with its own values.
  cluster.setupPrimary({
    execArgv: config.tuning.heap_flags ? withServerNodeFlags(process.execArgv) : process.execArgv,
  });
  const workerEnv = config.tuning.heap_flags ? missingServerEnv() : {};
  const bornAt = new Map<number, number>();
  const fork = () => {
    if (!stopping) bornAt.set(cluster.fork(workerEnv).id, Date.now());
  };
  for (let i = 0; i < workers; i++) fork();
  let listening = 0;
  cluster.on('listening', (_w, address) => {
    if (++listening === workers) {
      const scheme = config.tls ? 'https' : 'http';
      process.stdout.write(
        banner(config, {
          url: `${scheme}://${address.address ?? config.host}:${address.port} (${workers} workers)`,
          report,
        } as never),
      );
    }
  });
  // A worker that dies young (it cannot start: the database is down) is replaced after a pause that
  // doubles up to 5 s, not in a loop of process starts that would take the cores from the others.
  let youngDeaths = 0;
  cluster.on('exit', (worker, code, signal) => {
    if (stopping) return;
    const lived = Date.now() - (bornAt.get(worker.id) ?? 0);
    bornAt.delete(worker.id);
    youngDeaths = lived < 10_000 ? youngDeaths + 1 : 0;
    const pause = youngDeaths ? Math.min(5000, 250 * 2 ** (youngDeaths - 1)) : 0;
    const when = pause ? ` in ${pause} ms` : '';
    process.stderr.write(`ward: worker ${worker.process.pid} exited (${signal ?? code}); starting another${when}\n`);
    setTimeout(fork, pause);
  });
  const stop = () => {
    stopping = true;
    if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(0);
    // A signal, not worker.kill(): each worker runs its own graceful stop (see startServer).
    for (const w of Object.values(cluster.workers ?? {})) w?.process.kill('SIGTERM');
    // Each worker finishes its requests in flight (up to the shutdown timeout) and its queued writes
    // (its own ceiling: 5 s more) before it exits.
    setTimeout(() => process.exit(0), (config.shutdownTimeoutSeconds + 6) * 1000).unref();
    cluster.on('exit', () => {
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(0);
    });
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  return -1;
}

main(process.argv.slice(2)).then(
  (code) => {
    if (code >= 0) process.exit(code);
  },
  (e: unknown) => {
    process.stderr.write(`ward: ${(e as Error).stack ?? String(e)}\n`);
    process.exit(1);
  },
);
