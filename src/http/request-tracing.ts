// One server span per request when tracing is on (observability/tracing.ts): opened when the request
// arrives, made the current span for the hooks and the handler, ended with the route pattern and the
// status when the answer is sent (or the client went away). The body is read between onRequest and
// preValidation, in the socket's async context: the span is set again there. Nothing of the request
// (path, query string, headers, body) goes on the span, only its method and route pattern.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { RequestSpan, Tracing } from '../observability/tracing.js';

export function installRequestTracing(app: FastifyInstance, tracing: Tracing, scheme: string): void {
  const spans = new WeakMap<FastifyRequest, RequestSpan>();
  const end = (req: FastifyRequest, status: number) => {
    const s = spans.get(req);
    if (!s) return;
    spans.delete(req);
    tracing.endRequest(s, req.routeOptions.url ?? 'unmatched', status);
  };
  app.addHook('onRequest', (req, _reply, done) => {
    const s = tracing.startRequest(req.method, scheme);
    spans.set(req, s);
    tracing.within(s, done);
  });
  app.addHook('preValidation', (req, _reply, done) => {
    const s = spans.get(req);
    if (s) tracing.within(s, done);
    else done();
  });
  app.addHook('onResponse', (req, reply, done) => {
    end(req, reply.statusCode);
    done();
  });
  app.addHook('onRequestAbort', (req, done) => {
    end(req, 499);
    done();
  });
}
