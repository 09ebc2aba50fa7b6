// Per request: an id (the caller's X-Request-Id when it is a sane token, else a fresh UUID) echoed
// in the answer and named (reqId) by the request's log lines; when the answer is sent, one access-log line
// (info: method, route pattern, path without its query, status, ms; never a query string, which can
// carry codes and tokens) and one observation of the latency histogram at /metrics. Both hooks are
// synchronous: no promise per request for bookkeeping.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance } from 'fastify';
import type { WardMetrics } from '../observability/ward-metrics.js';
import type { Logger } from 'pino';

/** The services this module uses (registry.ts builds them; the composition passes them in). */
export interface RequestLogDeps {
  log: Logger;
  metrics: WardMetrics;
}

const SANE_ID = /^[A-Za-z0-9._:-]{8,128}$/;

export function requestId(req: IncomingMessage): string {
  const given = req.headers['x-request-id'];
  return typeof given === 'string' && SANE_ID.test(given) ? given : randomUUID();
}

export function installRequestLog(app: FastifyInstance, r: RequestLogDeps): void {
  app.addHook('onRequest', (req, reply, done) => {
    reply.header('X-Request-Id', req.id);
    done();
  });
  const accessLog = r.log.isLevelEnabled('info');
  app.addHook('onResponse', (req, reply, done) => {
    const route = req.routeOptions.url ?? 'unmatched';
    r.metrics.request(req.method, route, reply.statusCode, reply.elapsedTime / 1000);
    if (accessLog) {
      const q = req.url.indexOf('?');
      r.log.info(
        {
          reqId: req.id,
          method: req.method,
          route,
          path: q < 0 ? req.url : req.url.slice(0, q),
          status: reply.statusCode,
          ms: Math.round(reply.elapsedTime * 10) / 10,
        },
        'request',
      );
    }
    done();
  });
}
