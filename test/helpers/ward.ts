import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import type { Server } from 'node:https';
import { Writable } from 'node:stream';
import { Agent, fetch as undiciFetch, type RequestInit, type Response } from 'undici';
import { buildApp } from '../../src/app.js';
import { makeDevCertificate } from '../../src/bootstrap/data-dir.js';
import { firstStart } from '../../src/bootstrap/first-start.js';
import { loadConfig } from '../../src/config/load.js';
import type { AccountSettings, DeliveryConfig } from '../../src/config/types.js';
import { validateSocialProviders } from '../../src/config/social.js';
import { Problems, validateAccount, validateClient } from '../../src/config/validate.js';
import { FakeClock } from '../../src/lib/clock.js';
import { REDACT, buildRegistry, type Registry } from '../../src/registry.js';
import { dropPgSchema, freshPgSchema } from './databases.js';
import { freePort } from './free-port.js';
import { TEST_OUTBOUND_ALLOW } from './outbound.js';

export interface TestWardOptions {
  engine?: 'sqlite' | 'postgres';
  account?: Record<string, unknown>;
  clients?: Array<Record<string, unknown>>;
  clock?: FakeClock;
  /** Where verification codes go (an SMTP sink, an SMS sink); default: production mode, none. */
  delivery?: Partial<DeliveryConfig>;
  /** Upstream providers for social login (validated like the config file's). */
  socialProviders?: Array<Record<string, unknown>>;
  /** More configuration variables (e.g. WARD_TUNING for a test of one path). */
  env?: Record<string, string>;
  /**
   * The issuer's host, when a browser reaches Ward by another name than localhost (one that
   * launchChromium's loopbackHosts maps to loopback): the issuer is then https://<issuerHost>:<port>.
   */
  issuerHost?: string;
  /**
   * Run on the migrated database before the start's bootstrap (firstStart): rows as an older version
   * left them, written directly through storage.
   */
  beforeStart?: (registry: Registry) => Promise<void>;
  /** Start on the database (data dir, PostgreSQL schema) a previous Ward left: a restart. */
  database?: TestWard['database'];
  /** close() leaves the database (for a Ward started after it on the same one). */
  keepDatabase?: boolean;
}

export interface TestWard {
  /** https://localhost:<port> (http:// with WARD_TLS=off), where the tests reach it. */
  url: string;
  /** Its issuer: `url`, unless the options named an issuerHost. */
  issuer: string;
  registry: Registry;
  /** The HTTPS server (e.g. to watch when an answer has left: its 'request' event's response 'finish'). */
  server: Server;
  clock: FakeClock;
  ca: string;
  agent: Agent;
  /** Every log line the server wrote (LG-01: searched for secrets). */
  logs: string[];
  /** Where its data lives (to start another Ward on it). */
  database: { dataDir: string; pgSchema?: string; url: string | null };
  fetch(path: string, init?: RequestInit): Promise<Response>;
  addClient(def: Record<string, unknown>): Promise<void>;
  setAccount(patch: Record<string, unknown>): void;
  close(): Promise<void>;
}

const certificate = makeDevCertificate();

/** A real Ward on https://localhost:<free port>, with its own data dir (and PostgreSQL schema). */
export async function startWard(opts: TestWardOptions = {}): Promise<TestWard> {
  const port = await freePort();
  const dataDir = opts.database?.dataDir ?? mkdtempSync(join(tmpdir(), 'ward-test-'));
  let pgSchema: string | undefined = opts.database?.pgSchema;
  let dropSchema: (() => Promise<void>) | undefined;
  let databaseUrl: string | null = opts.database?.url ?? null;
  if (opts.engine === 'postgres' && !opts.database) {
    const s = await freshPgSchema();
    pgSchema = s.schema;
    databaseUrl = s.url;
    dropSchema = s.drop;
  } else if (opts.database?.pgSchema && databaseUrl) {
    const [url, schema] = [databaseUrl, opts.database.pgSchema];
    dropSchema = () => dropPgSchema(url, schema);
  }
  if (opts.keepDatabase) dropSchema = undefined;
  const config = loadConfig({
    WARD_PORT: String(port),
    WARD_DATA_DIR: dataDir,
    WARD_LOG_LEVEL: 'trace',
    WARD_ADMIN_PASSWORD: 'operator-password-for-tests',
    // The simulators (providers, SMS, breach check, back-channel receivers) listen on 127.0.0.1 and
    // the Wards run in production mode below: loopback is allowed for outbound requests, explicitly.
    WARD_OUTBOUND_ALLOW: TEST_OUTBOUND_ALLOW,
    ...(databaseUrl ? { WARD_DATABASE_URL: databaseUrl } : {}),
    // The speed-ups: all, or none when the run says WARD_TUNING=off (scripts/run-tests.mjs).
    WARD_TUNING: process.env.WARD_TUNING,
    WARD_TUNING_OFF: process.env.WARD_TUNING_OFF,
    ...(opts.issuerHost ? { WARD_ISSUER: `https://${opts.issuerHost}:${port}` } : {}),
    ...opts.env,
  });
  const p = new Problems();
  // The tests' webhook receivers listen on loopback: the tests set allow_private_webhook_targets.
  const account = { allow_private_webhook_targets: true, ...(opts.account ?? {}) };
  config.account = validateAccount(p, account, config.account);
  config.accountPatch = account;
  // No development outbox in tests: a code reaches a test only through a real SMTP / SMS sink.
  config.delivery = { ...config.delivery, mode: 'production', ...(opts.delivery ?? {}) };
  config.clients = (opts.clients ?? []).map((c, i) => validateClient(p, `clients[${i}]`, c)!).filter(Boolean);
  config.social_providers = validateSocialProviders(p, opts.socialProviders);
  if (p.list.length) throw new Error(p.list.join('\n'));
  const logs: string[] = [];
  const sink = new Writable({
    write(chunk, _enc, cb) {
      logs.push(String(chunk));
      cb();
    },
  });
  const logger = pino({ level: 'trace', redact: { paths: REDACT, censor: '[redacted]' } }, sink);
  const clock = opts.clock ?? new FakeClock(Date.now());
  const registry = await buildRegistry(config, { clock, logger, pgSchema, bootstrap: true });
  await opts.beforeStart?.(registry);
  await firstStart(registry);
  const tls = await certificate;
  // WARD_TLS=off (the layout behind a TLS proxy): plain HTTP, as main.ts serves it.
  const app = await buildApp(registry, config.tls ? { https: tls } : {});
  await app.listen({ port, host: 'localhost' });
  const agent = new Agent({ connect: { ca: tls.cert } });
  const url = `${config.tls ? 'https' : 'http'}://localhost:${port}`;
  return {
    url,
    issuer: config.issuer,
    registry,
    server: app.server as Server,
    clock,
    ca: tls.cert,
    agent,
    logs,
    database: { dataDir, pgSchema, url: databaseUrl },
    fetch: (path, init = {}) =>
      undiciFetch(path.startsWith('http') ? path : url + path, { redirect: 'manual', dispatcher: agent, ...init }),
    async addClient(def) {
      const q = new Problems();
      const c = validateClient(q, 'client', def);
      if (!c) throw new Error(q.list.join('\n'));
      await registry.clients.upsert(c, 'api');
    },
    setAccount(patch) {
      const q = new Problems();
      const next: AccountSettings = validateAccount(q, patch, registry.account());
      if (q.list.length) throw new Error(q.list.join('\n'));
      registry.setAccount(next);
    },
    async close() {
      await app.close();
      await agent.close();
      await registry.close();
      if (dropSchema) await dropSchema();
    },
  };
}
