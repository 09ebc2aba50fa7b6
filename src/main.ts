import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.js';
import { loadTls } from './bootstrap/data-dir.js';
import { firstStart, type FirstStartReport } from './bootstrap/first-start.js';
import type { WardConfig } from './config/types.js';
import { Draining } from './http/draining.js';
import { answerClusterCollection } from './observability/cluster-metrics.js';
import { localRegistries } from './observability/process-metrics.js';
import { buildRegistry, type Registry } from './registry.js';

export interface Running {
  app: FastifyInstance;
  registry: Registry;
  url: string;
  report: FirstStartReport;
  tlsCert: string | null;
  stop(): Promise<void>;
}

/**
 * Starts one Ward process: registry, first-start bootstrap, HTTPS (or HTTP behind a proxy), listen.
 * A cluster worker skips the bootstrap: its primary did it once, before forking.
 */
export async function startServer(config: WardConfig, opts: { bootstrap?: boolean } = {}): Promise<Running> {
  const registry = await buildRegistry(config, { bootstrap: opts.bootstrap !== false });
  if (!config.tls && !config.trustedProxies.length)
    registry.log.warn(
      'WARD_TLS=off and no WARD_TRUSTED_PROXIES: X-Forwarded-For is ignored, every request counts as from the connecting address (the proxy) in rate limits',
    );
  // The bootstrap (on a first start it waits for the administrator's password check, on another
  // thread) and the HTTP app's build need nothing of each other: they run side by side.
  const bootstrap: Promise<FirstStartReport> =
    opts.bootstrap === false ? Promise.resolve({ demoClients: [] }) : firstStart(registry);
  // Handled below; marked so that failing while the rest is still being built is not an unhandled rejection.
  bootstrap.catch(() => undefined);
  const lifecycle = new Draining();
  let app: FastifyInstance | undefined;
  let tls: Awaited<ReturnType<typeof loadTls>> | null = null;
  let report: FirstStartReport;
  try {
    tls = config.tls ? await loadTls(config.dataDir, config.tlsCert, config.tlsKey) : null;
    app = await buildApp(registry, { lifecycle, ...(tls ? { https: { cert: tls.cert, key: tls.key } } : {}) });
    // The routes' serializers are compiled at `ready`: while a first start's password check runs.
    await app.ready();
    report = await bootstrap;
  } catch (e) {
    // Whichever part failed, its error is thrown once the bootstrap has stopped writing, and the app closed.
    await Promise.allSettled([bootstrap]);
    await app?.close().catch(() => undefined);
    throw e;
  }
  const address = await app.listen({ port: config.port, host: config.host });
  const stopAnswering = answerClusterCollection(localRegistries(registry.metrics.registry));
  return {
    app,
    registry,
    url: address,
    report,
    tlsCert: tls?.cert ?? null,
    /**
     * Graceful and prompt: /readyz turns 503, the listener closes, idle keep-alive connections are
     * closed at once, requests in flight finish and close their connections (`Connection: close`),
     * requests arriving meanwhile get 503 with Retry-After (draining.ts); then the queued writes
     * (audit events, notices, mail, SQLite's group commit) are finished and the database closes.
     * The shutdown timeout is only a ceiling: past it the remaining connections are cut.
     */
    async stop() {
      lifecycle.begin();
      stopAnswering();
      const cut = setTimeout(() => {
        registry.log.warn({ in_flight: lifecycle.inFlight }, 'shutdown timeout reached: cutting what is in flight');
        lifecycle.cut();
        app.server.closeAllConnections();
      }, config.shutdownTimeoutSeconds * 1000);
      cut.unref();
      try {
        await app.close();
        await lifecycle.idle();
      } finally {
        clearTimeout(cut);
        await registry.close();
      }
    },
  };
}

export function banner(config: WardConfig, running: Running): string {
  const lines = [
    '',
    `Ward is listening on ${running.url} (${config.databaseUrl ? 'PostgreSQL' : `SQLite ${config.dataDir}/ward.db`})`,
    `  issuer     ${config.issuer}`,
    `  discovery  ${config.issuer}/.well-known/openid-configuration`,
    `  jwks       ${config.issuer}/jwks.json`,
  ];
  const { admin, demoClients } = running.report;
  if (admin) {
    lines.push('', 'Administrator account created:', `  email     ${admin.email}`);
    lines.push(
      admin.password
        ? `  password  ${admin.password}   (shown once: store it now)`
        : '  password  (from WARD_ADMIN_PASSWORD)',
    );
  }
  for (const c of demoClients) {
    lines.push('', `Demo ${c.type} client created: client_id ${c.client_id}`);
    if (c.client_secret) lines.push(`  client_secret  ${c.client_secret}   (shown once: store it now)`);
  }
  return `${lines.join('\n')}\n`;
}

/** Before forking workers: the bootstrap (admin, demo clients, keys, dev certificate) done once. */
export async function prepareCluster(config: WardConfig): Promise<FirstStartReport> {
  const registry = await buildRegistry(config, { bootstrap: true });
  try {
    const report = await firstStart(registry);
    if (config.tls) await loadTls(config.dataDir, config.tlsCert, config.tlsKey);
    return report;
  } finally {
    await registry.close();
  }
}
