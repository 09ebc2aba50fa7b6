// OpenTelemetry traces, exported over OTLP/HTTP (JSON) when OTEL_EXPORTER_OTLP_ENDPOINT is set. When
// it is not, nothing here runs and no OpenTelemetry package is loaded (the SDK comes in by a dynamic
// import in startTracing). Spans: one per HTTP request (http/request-tracing.ts: route pattern,
// method, status, the interaction id once known), one per database statement (storage's query
// observer: kind and text with placeholders, never values), one per outbound call (method, host,
// status; never the path or query). No header, query string, body or parameter is ever recorded.
// The request's span is kept in an AsyncLocalStorage of our own, so no global context manager or
// tracer provider is installed (several Wards in one test process each trace on their own).
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Span } from '@opentelemetry/api';
import type { QueryObservation } from '../storage/observe.js';

/** The request's span, as the HTTP layer holds it. */
export interface RequestSpan {
  readonly span: Span;
  readonly method: string;
}

export interface Tracing {
  /** A server span for a request just arrived; ended by `endRequest`. */
  startRequest(method: string, scheme: string): RequestSpan;
  endRequest(s: RequestSpan, route: string, status: number): void;
  /** Runs `fn` (and what it starts) under the request's span. */
  within<T>(s: RequestSpan, fn: () => T): T;
  /** An attribute of the current request's span (the interaction id). */
  annotate(key: string, value: string): void;
  /** A span for a finished database statement, under the current request's span if any. */
  query(q: QueryObservation): void;
  /** Runs an outbound call in a client span. */
  outbound<T extends { status: number }>(method: string, url: URL, call: () => Promise<T>): Promise<T>;
  /** Sends what is buffered (tests; shutdown). */
  flush(): Promise<void>;
  shutdown(): Promise<void>;
}

export interface TracingOptions {
  /** OTEL_EXPORTER_OTLP_ENDPOINT: the collector's base URL; spans go to `<it>/v1/traces`. */
  endpoint: string;
  serviceName: string;
  serviceVersion?: string;
}

const SHUTDOWN_CAP_MS = 2000;
const DB_SYSTEMS = { sqlite: 'sqlite', postgres: 'postgresql' } as const;

export async function startTracing(opts: TracingOptions): Promise<Tracing> {
  const [api, sdk, otlp, resources, semconv] = await Promise.all([
    import('@opentelemetry/api'),
    import('@opentelemetry/sdk-trace-base'),
    import('@opentelemetry/exporter-trace-otlp-http'),
    import('@opentelemetry/resources'),
    import('@opentelemetry/semantic-conventions'),
  ]);
  const exporter = new otlp.OTLPTraceExporter({ url: `${opts.endpoint.replace(/\/+$/, '')}/v1/traces` });
  const provider = new sdk.BasicTracerProvider({
    resource: resources.resourceFromAttributes({
      [semconv.ATTR_SERVICE_NAME]: opts.serviceName,
      ...(opts.serviceVersion ? { [semconv.ATTR_SERVICE_VERSION]: opts.serviceVersion } : {}),
    }),
    spanProcessors: [new sdk.BatchSpanProcessor(exporter)],
  });
  const tracer = provider.getTracer('ward', opts.serviceVersion);
  const current = new AsyncLocalStorage<Span>();
  const parent = () => {
    const span = current.getStore();
    return span ? api.trace.setSpan(api.ROOT_CONTEXT, span) : api.ROOT_CONTEXT;
  };

  return {
    startRequest(method, scheme) {
      const span = tracer.startSpan(
        method,
        {
          kind: api.SpanKind.SERVER,
          attributes: { [semconv.ATTR_HTTP_REQUEST_METHOD]: method, [semconv.ATTR_URL_SCHEME]: scheme },
        },
        api.ROOT_CONTEXT,
      );
      return { span, method };
    },
    endRequest({ span, method }, route, status) {
      span.updateName(`${method} ${route}`);
      span.setAttribute(semconv.ATTR_HTTP_ROUTE, route);
      span.setAttribute(semconv.ATTR_HTTP_RESPONSE_STATUS_CODE, status);
      if (status >= 500) {
        span.setAttribute(semconv.ATTR_ERROR_TYPE, String(status));
        span.setStatus({ code: api.SpanStatusCode.ERROR });
      }
      span.end();
    },
    within: (s, fn) => current.run(s.span, fn),
    annotate(key, value) {
      current.getStore()?.setAttribute(key, value);
    },
    query(q) {
      const span = tracer.startSpan(
        q.operation,
        {
          kind: api.SpanKind.CLIENT,
          startTime: q.endedAt - q.durationMs,
          attributes: {
            [semconv.ATTR_DB_SYSTEM_NAME]: DB_SYSTEMS[q.engine],
            [semconv.ATTR_DB_OPERATION_NAME]: q.operation,
            [semconv.ATTR_DB_QUERY_TEXT]: q.text,
          },
        },
        parent(),
      );
      if (q.failed) span.setStatus({ code: api.SpanStatusCode.ERROR });
      span.end(q.endedAt);
    },
    async outbound(method, url, call) {
      const span = tracer.startSpan(
        method,
        {
          kind: api.SpanKind.CLIENT,
          attributes: {
            [semconv.ATTR_HTTP_REQUEST_METHOD]: method,
            [semconv.ATTR_SERVER_ADDRESS]: url.hostname,
            [semconv.ATTR_URL_SCHEME]: url.protocol.replace(':', ''),
            ...(url.port ? { [semconv.ATTR_SERVER_PORT]: Number(url.port) } : {}),
          },
        },
        parent(),
      );
      try {
        const res = await call();
        span.setAttribute(semconv.ATTR_HTTP_RESPONSE_STATUS_CODE, res.status);
        if (res.status >= 400) span.setAttribute(semconv.ATTR_ERROR_TYPE, String(res.status));
        return res;
      } catch (e) {
        // The error's class only: a message may name the URL.
        span.setAttribute(semconv.ATTR_ERROR_TYPE, e instanceof Error ? e.name : 'error');
        span.setStatus({ code: api.SpanStatusCode.ERROR });
        throw e;
      } finally {
        span.end();
      }
    },
    flush: () => provider.forceFlush(),
    // A collector that does not answer holds a shutdown back at most this long: its spans are lost.
    shutdown: async () => {
      let timer: NodeJS.Timeout | undefined;
      const cap = new Promise<void>((ok) => (timer = setTimeout(ok, SHUTDOWN_CAP_MS)));
      await Promise.race([provider.shutdown().catch(() => undefined), cap]);
      clearTimeout(timer);
    },
  };
}
