import { join } from 'node:path';
import pino, { type Logger } from 'pino';
import { createSessionService } from './accounts/sessions.js';
import { createUserService } from './accounts/users.js';
import { loadMasterKey } from './bootstrap/data-dir.js';
import { createClientService } from './clients/service.js';
import type { AccountSettings, WardConfig } from './config/types.js';
import { createLimiter } from './http/rate-limit.js';
import { KeyStore } from './keys/key-store.js';
import { systemClock, type Clock } from './lib/clock.js';
import { createIdTokenSigner } from './protocol/id-token.js';
import { createTokenIssuer } from './protocol/issue-tokens.js';
import { createTknService } from './protocol/tkn.js';
import { connect, migrate } from './storage/connect.js';
import { createStorage, type Storage } from './storage/storage.js';

export interface RegistryOptions {
  clock?: Clock;
  logger?: Logger;
  /** PostgreSQL schema (tests run each server in its own). */
  pgSchema?: string;
}

/** The redaction list of every log line: secrets never reach the logs (LG-01). */
export const REDACT = [
  'req.headers.authorization', 'req.headers.cookie', 'res.headers["set-cookie"]', '*.password', '*.client_secret',
  '*.tkn', '*.code', '*.code_verifier', '*.refresh_token', '*.access_token', '*.id_token', '*.token',
];

export function makeLogger(level: WardConfig['logLevel']): Logger {
  return pino({ level, redact: { paths: REDACT, censor: '[redacted]' } });
}

/** The composition root: config, clock, storage and services, built once per process. */
export async function buildRegistry(config: WardConfig, opts: RegistryOptions = {}) {
  const clock = opts.clock ?? systemClock;
  const log = opts.logger ?? makeLogger(config.logLevel);
  const master = loadMasterKey(config.dataDir, config.masterKey);
  const db = connect({ sqlitePath: join(config.dataDir, 'ward.db'), postgresUrl: config.databaseUrl, pgSchema: opts.pgSchema });
  const applied = await migrate(db);
  const storage: Storage = createStorage(db);

  // Account settings: the config file's values are applied at each start; the store keeps them.
  await storage.settings.put('account', config.account, clock.now());
  let accountSettings: AccountSettings = config.account;
  const account = () => accountSettings;

  const keys = new KeyStore(storage, master.key, clock);
  await keys.ensureGlobalKey();
  const clients = createClientService({ storage, masterKey: master.key, clock });
  for (const c of config.clients) await clients.upsert(c, 'config');

  const signIdToken = createIdTokenSigner({ issuer: config.issuer, ttl: () => account().id_token_ttl, now: () => clock.now(), keys, clients });
  return {
    config,
    clock,
    log,
    db,
    storage,
    masterKey: master.key,
    masterKeyCreated: master.created,
    migrationsApplied: applied,
    account,
    setAccount(next: AccountSettings) {
      accountSettings = next;
    },
    keys,
    clients,
    users: createUserService({ storage, clock, account }),
    sessions: createSessionService({ storage, clock, account }),
    tkn: createTknService({ storage, clock, ttl: () => account().tkn_ttl }),
    limiter: createLimiter({ storage, clock }),
    signIdToken,
    issueTokens: createTokenIssuer({ clock, account, signIdToken }),
    async close() {
      await storage.close();
    },
  };
}

export type Registry = Awaited<ReturnType<typeof buildRegistry>>;
