// Operations endpoints. /healthz: liveness (the process answers). /readyz: readiness for a load
// balancer: the database answers a query within a second, the global signing key is loaded, the
// process is not shutting down, and no newer release's contract migration has run. /metrics:
// Prometheus text from prom-client (docs/metrics.md); with WARD_METRICS_TOKEN set it needs that Bearer
// token, without it only loopback callers (a scraper on the same host) get it.
import { timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { WardApp } from '../typed-app.js';
import { forbidden } from '../../errors/refusals.js';
import { GLOBAL_SET, type KeyStore } from '../../keys/key-store.js';
import { gatherMetrics } from '../../observability/cluster-metrics.js';
import { localExposition } from '../../observability/process-metrics.js';
import { sha256 } from '../../lib/secrets.js';
import { healthSchema, metricsSchema, readySchema } from './schemas/ops.js';
import type { WardConfig } from '../../config/types.js';
import type { WardMetrics } from '../../observability/ward-metrics.js';
import type { Storage } from '../../storage/storage.js';

/** The services this module uses (registry.ts builds them; the composition passes them in). */
export interface OpsDeps {
  config: WardConfig;
  keys: KeyStore;
  metrics: WardMetrics;
  storage: Storage;
}

export interface Lifecycle {
  /** Set when SIGTERM arrives: /readyz answers 503 so the balancer stops sending traffic. */
  closing: boolean;
}

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

async function databaseAnswers(r: Pick<OpsDeps, 'storage'>): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), 1000)));
  const probe = r.storage.answers();
  try {
    return await Promise.race([probe, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

function metricsAllowed(r: Pick<OpsDeps, 'config'>, req: FastifyRequest): boolean {
  const token = r.config.metricsToken;
  if (token === null) return LOOPBACK.has(req.socket.remoteAddress ?? '');
  const given = req.headers.authorization ?? '';
  if (!given.startsWith('Bearer ')) return false;
  return timingSafeEqual(Buffer.from(sha256(given.slice(7))), Buffer.from(sha256(token)));
}

export function opsRoutes(app: WardApp, r: OpsDeps, lifecycle: Lifecycle): void {
  const noStore = (reply: FastifyReply) => reply.header('Cache-Control', 'no-store');
  app.get('/healthz', { schema: healthSchema }, async (_req, reply) => noStore(reply).send({ status: 'ok' }));

  app.get('/readyz', { schema: readySchema }, async (_req, reply) => {
    const database = await databaseAnswers(r);
    const checks = {
      database,
      keys: r.keys.hasCurrent(GLOBAL_SET, 'RS256'),
      accepting: !lifecycle.closing,
      // A newer release's contract migration ran: this process's code is older than the schema needs.
      schema: database ? await r.storage.schemaFits() : true,
    };
    const ready = checks.database && checks.keys && checks.accepting && checks.schema;
    return noStore(reply)
      .code(ready ? 200 : 503)
      .send({ status: ready ? 'ready' : 'not_ready', checks });
  });

  app.get('/metrics', { schema: metricsSchema }, async (req, reply) => {
    if (!metricsAllowed(r, req)) {
      throw forbidden('Metrics need the metrics token (or a loopback caller when none is set)');
    }
    const text = await gatherMetrics(() => localExposition(r.metrics.registry));
    return noStore(reply).type('text/plain; version=0.0.4; charset=utf-8').send(text);
  });
}
