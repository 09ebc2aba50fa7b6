#!/usr/bin/env node
import { join } from 'node:path';
import { ConfigError, configFromProcess } from './config/load.js';
import { OPERATOR_USAGE, runOperatorCommand } from './management/cli.js';
import { banner, startServer } from './main.js';
import { buildRegistry } from './registry.js';
import { connect, migrate } from './storage/connect.js';

const usage = `Usage: ward <command>
  start     run the server (migrations, keys and first-start bootstrap included)
  migrate   apply the database migrations and exit
${OPERATOR_USAGE}
Configuration: environment variables WARD_* and the JSON file named by WARD_CONFIG (see README).`;

async function main(argv: string[]): Promise<number> {
  const command = argv[0] ?? 'start';
  if (command === 'help' || command === '--help' || command === '-h') {
    process.stdout.write(usage + '\n');
    return 0;
  }
  let config;
  try {
    config = configFromProcess();
  } catch (e) {
    if (e instanceof ConfigError) {
      process.stderr.write(e.message + '\n');
      return 2;
    }
    throw e;
  }
  if (command === 'migrate') {
    const db = connect({ sqlitePath: join(config.dataDir, 'ward.db'), postgresUrl: config.databaseUrl });
    const applied = await migrate(db);
    await db.close();
    process.stdout.write(applied.length ? `Applied: ${applied.join(', ')}\n` : 'The database is up to date.\n');
    return 0;
  }
  if (command === 'keys' || command === 'clients') {
    const registry = await buildRegistry({ ...config, logLevel: 'warn' });
    try {
      return await runOperatorCommand(registry, argv, 'cli', (line: string) => process.stdout.write(line + '\n'));
    } finally {
      await registry.close();
    }
  }
  if (command !== 'start') {
    process.stderr.write(`Unknown command ${command}\n${usage}\n`);
    return 2;
  }
  const running = await startServer(config);
  process.stdout.write(banner(config, running));
  const stop = async (signal: string) => {
    running.registry.log.info({ signal }, 'shutting down');
    await running.stop();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop('SIGINT'));
  process.once('SIGTERM', () => void stop('SIGTERM'));
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
