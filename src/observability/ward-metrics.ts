// The metrics Ward exposes at /metrics. Label values come from closed sets (route patterns, grant
// types, channels, limit names), never from user input, so the number of series stays bounded.
import { labelKey, MetricsRegistry } from './metrics.js';

const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export function createWardMetrics() {
  const registry = new MetricsRegistry();
  const requests = registry.histogram(
    'ward_http_request_duration_seconds',
    'HTTP requests by route pattern, method and status: latency (count gives the rate)',
    LATENCY_BUCKETS,
  );
  const tokens = registry.counter(
    'ward_tokens_issued_total',
    'Tokens issued by the token endpoint, by grant type and token type',
  );
  const codesSent = registry.counter(
    'ward_verification_codes_sent_total',
    'Verification codes handed to delivery, by channel',
  );
  const verificationFailures = registry.counter(
    'ward_verification_failures_total',
    'Verification codes refused (wrong, expired, used or over the attempt cap)',
  );
  const rateLimited = registry.counter(
    'ward_rate_limited_total',
    'Requests refused by a rate or verification limit, by limit',
  );
  const notices = registry.counter(
    'ward_security_notices_total',
    'Security notices to users (a factor added or removed), by channel and outcome',
  );
  const events = registry.counter(
    'ward_security_events_total',
    'Security events (the audit log of the public endpoints), by event name',
  );
  const started = Date.now();
  registry.gauge(
    'ward_process_resident_memory_bytes',
    'Resident memory of the Ward processes (summed across workers)',
    () => ({ '': process.memoryUsage.rss() }),
  );
  registry.gauge('ward_process_heap_used_bytes', 'V8 heap in use (summed across workers)', () => ({
    '': process.memoryUsage().heapUsed,
  }));
  registry.gauge('ward_processes', 'Ward processes answering (workers of one cluster)', () => ({ '': 1 }));
  registry.gauge(
    'ward_process_uptime_seconds_total',
    'Seconds since each process started (summed across workers)',
    () => ({ '': Math.round((Date.now() - started) / 1000) }),
  );

  // Route label keys are built once per (method, route, status class).
  const requestKeys = new Map<string, string>();
  return {
    registry,
    request(method: string, route: string, status: number, seconds: number): void {
      const id = `${method} ${route} ${status}`;
      let key = requestKeys.get(id);
      if (key === undefined) requestKeys.set(id, (key = labelKey({ method, route, status: String(status) })));
      requests.observeKey(key, seconds);
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
      if (name === 'mfa.code_sent') codesSent.inc({ channel: fields.channel === 'sms' ? 'sms' : 'email' });
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
  };
}

export type WardMetrics = ReturnType<typeof createWardMetrics>;
