// The metrics Ward exposes at /metrics, in a prom-client registry of their own (one per Ward
// instance; the process's default metrics are in process-metrics.ts). Label values come from closed
// sets (route patterns, grant types, channels, limit names, sign-in methods, query kinds), never from
// user input, so the number of series stays bounded. The names are listed in docs/metrics.md.
import { Counter, Gauge, Histogram, Registry } from 'prom-client';

const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const QUERY_BUCKETS = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 5];

/** The sign-in methods (sign-in-methods/contract.ts), the only values of the `method` label. */
const SIGN_IN_METHODS = new Set(['password', 'passkey', 'magic_link', 'sms', 'social', 'custom_token']);
const SIGN_IN_OUTCOMES: Record<string, string> = {
  'login.succeeded': 'succeeded',
  'login.mfa_required': 'mfa_required',
  'login.failed': 'failed',
};

/** What the metrics read when scraped. */
export interface MetricsSources {
  /** Back-channel logout deliveries waiting in the durable queue (one table for every process). */
  logoutQueueDepth?: () => Promise<number>;
  /** Webhook deliveries waiting, and the creation time of the oldest (ms), with the time now (ms). */
  webhookBacklog?: () => Promise<{ pending: number; oldest: number | null; now: number }>;
}

/** A source read at a scrape, or null when the database does not answer within a second. */
async function withinASecond<T>(read: () => Promise<T>): Promise<T | null> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<null>((ok) => (timer = setTimeout(() => ok(null), 1000)));
  const value = await Promise.race([read().catch(() => null), late]);
  clearTimeout(timer);
  return value;
}

/** PostgreSQL's pool, as pg.Pool counts its connections. */
export interface PoolCounts {
  totalCount: number;
  idleCount: number;
  waitingCount: number;
}

export function createWardMetrics(sources: MetricsSources = {}) {
  const registry = new Registry();
  const requests = new Histogram({
    name: 'ward_http_request_duration_seconds',
    help: 'HTTP requests by route pattern, method and status: latency (count gives the rate)',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });
  const queries = new Histogram({
    name: 'ward_db_query_duration_seconds',
    help: 'Database statements by engine, kind (select, insert, update, delete, begin, commit, ...) and outcome',
    labelNames: ['engine', 'operation', 'outcome'] as const,
    buckets: QUERY_BUCKETS,
    registers: [registry],
  });
  const tokens = new Counter({
    name: 'ward_tokens_issued_total',
    help: 'Tokens issued by the token endpoint, by grant type and token type',
    labelNames: ['grant_type', 'token'] as const,
    registers: [registry],
  });
  const signIns = new Counter({
    name: 'ward_sign_ins_total',
    help: 'Sign-in attempts by method and outcome (succeeded, mfa_required, failed)',
    labelNames: ['method', 'outcome'] as const,
    registers: [registry],
  });
  const codesSent = new Counter({
    name: 'ward_verification_codes_sent_total',
    help: 'Verification codes handed to delivery, by channel',
    labelNames: ['channel'] as const,
    registers: [registry],
  });
  const verificationFailures = new Counter({
    name: 'ward_verification_failures_total',
    help: 'Verification codes refused (wrong, expired, used or over the attempt cap)',
    registers: [registry],
  });
  const rateLimited = new Counter({
    name: 'ward_rate_limited_total',
    help: 'Requests refused by a rate or verification limit, by limit',
    labelNames: ['limit'] as const,
    registers: [registry],
  });
  const notices = new Counter({
    name: 'ward_security_notices_total',
    help: 'Security notices to users (a factor added or removed), by channel and outcome',
    labelNames: ['channel', 'outcome'] as const,
    registers: [registry],
  });
  const events = new Counter({
    name: 'ward_security_events_total',
    help: 'Security events (the audit log of the public endpoints), by event name',
    labelNames: ['event'] as const,
    registers: [registry],
  });
  const webhookDeliveries = new Counter({
    name: 'ward_webhook_deliveries_total',
    help: 'Webhook delivery attempts by outcome (delivered, retry: failed and tried again later, failed: given up)',
    labelNames: ['outcome'] as const,
    registers: [registry],
  });
  const webhooksDisabled = new Counter({
    name: 'ward_webhook_endpoints_disabled_total',
    help: 'Webhook endpoints Ward disabled after a day of failed deliveries',
    registers: [registry],
  });
  const { logoutQueueDepth, webhookBacklog } = sources;
  if (webhookBacklog) {
    // One read serves both gauges of a scrape: a scrape asks every collect() at once, so the second
    // gets the first's read in flight; the next scrape reads again (a kept answer would hide a change).
    let reading: Promise<{ pending: number; oldest: number | null; now: number } | null> | null = null;
    const backlog = () => {
      reading ??= withinASecond(webhookBacklog).finally(() => {
        reading = null;
      });
      return reading;
    };
    new Gauge({
      name: 'ward_webhook_queue_depth',
      help: 'Webhook deliveries waiting to be sent or retried (shared by every process: the max across workers)',
      registers: [registry],
      aggregator: 'max',
      async collect() {
        const b = await backlog();
        if (b) this.set(b.pending);
      },
    });
    new Gauge({
      name: 'ward_webhook_oldest_pending_age_seconds',
      help: 'Age of the oldest webhook delivery still waiting (0: none waits)',
      registers: [registry],
      aggregator: 'max',
      async collect() {
        const b = await backlog();
        if (b) this.set(b.oldest === null ? 0 : Math.max(0, (b.now - b.oldest) / 1000));
      },
    });
  }
  if (logoutQueueDepth)
    new Gauge({
      name: 'ward_backchannel_logout_queue_depth',
      help: 'Back-channel logout deliveries waiting in the queue (shared by every process: the max across workers)',
      registers: [registry],
      aggregator: 'max',
      async collect() {
        // A database that does not answer within a second leaves the last value: a scrape never fails
        // or hangs for it.
        let timer: NodeJS.Timeout | undefined;
        const late = new Promise<null>((ok) => (timer = setTimeout(() => ok(null), 1000)));
        const depth = await Promise.race([logoutQueueDepth().catch(() => null), late]);
        clearTimeout(timer);
        if (depth !== null) this.set(depth);
      },
    });

  return {
    registry,
    /** PostgreSQL: the pool's connections by state, read at each scrape. */
    watchPool(pool: PoolCounts): void {
      new Gauge({
        name: 'ward_db_pool_connections',
        help: 'PostgreSQL pool connections by state (idle, busy) and requests waiting for one (waiting)',
        labelNames: ['state'] as const,
        registers: [registry],
        collect() {
          this.set({ state: 'idle' }, pool.idleCount);
          this.set({ state: 'busy' }, pool.totalCount - pool.idleCount);
          this.set({ state: 'waiting' }, pool.waitingCount);
        },
      });
    },
    request(method: string, route: string, status: number, seconds: number): void {
      requests.observe({ method, route, status: String(status) }, seconds);
    },
    /** One database statement (storage's query observer). */
    query(engine: string, operation: string, seconds: number, failed: boolean): void {
      queries.observe({ engine, operation, outcome: failed ? 'error' : 'ok' }, seconds);
    },
    tokensIssued(
      grantType: string,
      body: { access_token?: unknown; refresh_token?: unknown; id_token?: unknown },
    ): void {
      for (const type of ['access_token', 'refresh_token', 'id_token'] as const)
        if (body[type] !== undefined) tokens.inc({ grant_type: grantType, token: type });
    },
    /** Counts a security event and the named metrics some of them stand for. */
    securityEvent(name: string, fields: Record<string, unknown>): void {
      events.inc({ event: name });
      const outcome = SIGN_IN_OUTCOMES[name];
      if (outcome) {
        const method =
          typeof fields.method === 'string' && SIGN_IN_METHODS.has(fields.method) ? fields.method : 'other';
        signIns.inc({ method, outcome });
      } else if (name === 'mfa.code_sent') codesSent.inc({ channel: fields.channel === 'sms' ? 'sms' : 'email' });
      else if (name === 'mfa.verification_failed') verificationFailures.inc();
      else if (name === 'mfa.limit_reached')
        rateLimited.inc({
          limit: `verification_${typeof fields.scope === 'string' ? fields.scope.slice(0, 20) : 'code'}`,
        });
    },
    notice(channel: 'email' | 'sms', outcome: 'sent' | 'failed'): void {
      notices.inc({ channel, outcome });
    },
    rateLimited(limit: string): void {
      rateLimited.inc({ limit });
    },
    /** One webhook attempt's end. */
    webhookDelivery(outcome: 'delivered' | 'retry' | 'failed'): void {
      webhookDeliveries.inc({ outcome });
    },
    webhookEndpointDisabled(): void {
      webhooksDisabled.inc();
    },
  };
}

export type WardMetrics = ReturnType<typeof createWardMetrics>;
