// The webhook sender of one process: claims due deliveries (each the oldest pending one of its
// endpoint, so an endpoint gets its events in order), POSTs the signed envelope through the guarded
// client, logs every attempt (status, latency, first kilobyte of the answer), and on a timeout, a
// connection error or a non-2xx answer retries with exponential backoff and jitter (honouring
// Retry-After) for 24 hours; then the delivery is marked failed and kept. The loop is the queues'
// one (lib/queue-loop.ts), as for back-channel logout; rows are leased, so any process may send.
import type { Logger } from 'pino';
import type { Clock } from '../lib/clock.js';
import type { Outbound } from '../lib/outbound/client.js';
import { startQueueLoop } from '../lib/queue-loop.js';
import { randomId } from '../lib/random.js';
import type { Storage } from '../storage/storage.js';
import type { WebhookDeliveryRow } from '../storage/sql/webhook-deliveries.js';
import { signingSecrets } from './endpoints.js';
import { signedHeaders } from './signing.js';

/** How long a delivery is retried before it is marked failed. */
export const RETRY_WINDOW_MS = 24 * 3600_000;
/** Delay after n failed attempts: 5 s, 10 s, 20 s, ... at most an hour, each drawn in [50%, 100%] (jitter). */
export const backoffMs = (attempts: number, random = Math.random): number =>
  Math.round(Math.min(5_000 * 2 ** (attempts - 1), 3600_000) * (0.5 + random() / 2));
/** A Retry-After is honoured up to this bound. */
const MAX_RETRY_AFTER_MS = 3600_000;
const SEND_TIMEOUT_MS = 10_000;
/** A claimed row stays with its process this long (an attempt takes at most SEND_TIMEOUT_MS). */
const LEASE_MS = 60_000;
const BATCH = 20;
const EXCERPT_BYTES = 1024;

/** Retry-After as a delay in ms (seconds or an HTTP date), or undefined when absent or unreadable. */
export function retryAfterMs(header: string | null, now: number): number | undefined {
  if (!header) return undefined;
  const seconds = Number(header);
  const ms = /^\d+$/.test(header.trim()) ? seconds * 1000 : Date.parse(header) - now;
  return Number.isFinite(ms) ? Math.min(Math.max(ms, 0), MAX_RETRY_AFTER_MS) : undefined;
}

/** The JSON body of an event: the envelope {id, type, timestamp, data}. */
export const envelopeOf = (e: { id: string; type: string; at: number; data: string }): string =>
  `{"id":${JSON.stringify(e.id)},"type":${JSON.stringify(e.type)},"timestamp":"${new Date(e.at).toISOString()}","data":${e.data}}`;

export interface WebhookDeliveryDeps {
  storage: Storage;
  clock: Clock;
  log: Logger;
  masterKey: Buffer;
  /** The guarded client (lib/outbound/): a refused address is never reached, only retried and logged. */
  outbound: Pick<Outbound, 'fetch'>;
  /** Reports one attempt's end (metrics, tests). */
  onOutcome?: (outcome: 'delivered' | 'retry' | 'failed', row: WebhookDeliveryRow) => void;
}

export function startWebhookDelivery(deps: WebhookDeliveryDeps, opts: { intervalMs?: number } = {}) {
  const { storage, clock, log } = deps;

  async function finish(row: WebhookDeliveryRow, outcome: 'delivered' | 'failed', error: string | null) {
    await storage.webhookDeliveries.finish(row.id, outcome, clock.now(), error);
    deps.onOutcome?.(outcome, row);
  }

  async function attempt(row: WebhookDeliveryRow, stopping: AbortSignal): Promise<void> {
    const endpoint = await storage.webhookEndpoints.find(row.endpoint_id);
    const event = await storage.webhookDeliveries.findEvent(row.event_id);
    if (!endpoint || !event) return finish(row, 'failed', 'the endpoint or the event is gone');
    // Disabled after the event was queued: kept as failed (never sent to a URL the site turned off).
    if (!endpoint.enabled) return finish(row, 'failed', 'the endpoint is disabled');
    const body = envelopeOf(event);
    const startedAt = clock.now();
    const started = performance.now();
    let status: number | null = null;
    let response = '';
    let problem: string | null = null;
    let wait: number | undefined;
    try {
      const res = await deps.outbound.fetch(endpoint.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'user-agent': 'Ward-Webhooks',
          ...signedHeaders(signingSecrets(deps.masterKey, endpoint, startedAt), event.id, startedAt, body),
        },
        body,
        signal: stopping,
        timeoutMs: SEND_TIMEOUT_MS,
      });
      status = res.status;
      response = Buffer.from(await res.arrayBuffer())
        .subarray(0, EXCERPT_BYTES)
        .toString('utf8');
      if (status < 200 || status >= 300) {
        problem = `HTTP ${status}`;
        wait = retryAfterMs(res.headers.get('retry-after'), clock.now());
      }
    } catch (e) {
      if (stopping.aborted) {
        // Shutting down: due again at once, for this process after a restart or another one now.
        await storage.webhookDeliveries.retryAt(row.id, clock.now(), 'interrupted by shutdown');
        return;
      }
      problem = e instanceof Error ? `${e.name}: ${(e.cause as Error | undefined)?.message ?? e.message}` : String(e);
    }
    await storage.webhookDeliveries.recordAttempt({
      id: randomId(),
      delivery_id: row.id,
      at: startedAt,
      status,
      latency_ms: Math.round(performance.now() - started),
      error: problem,
      response,
    });
    const fields = { event: 'webhook.attempt', endpoint_id: row.endpoint_id, delivery_id: row.id, status };
    if (!problem) {
      log.info(fields, 'webhook delivered');
      return finish(row, 'delivered', null);
    }
    const next = clock.now() + (wait ?? backoffMs(row.attempts));
    if (next > row.created_at + RETRY_WINDOW_MS) {
      log.warn({ ...fields, problem, attempts: row.attempts }, 'webhook not delivered: given up');
      return finish(row, 'failed', problem);
    }
    await storage.webhookDeliveries.retryAt(row.id, next, problem);
    log.warn({ ...fields, problem, attempts: row.attempts }, 'webhook not delivered: will retry');
    deps.onOutcome?.('retry', row);
  }

  return startQueueLoop<WebhookDeliveryRow>({
    claim: (batch) => {
      const now = clock.now();
      return storage.webhookDeliveries.claimDue(now, now + LEASE_MS, batch);
    },
    attempt,
    failed: (e, row) =>
      log.warn(
        { err: e, ...(row ? { delivery_id: row.id } : {}) },
        row ? 'webhook delivery failed' : 'webhook poll failed',
      ),
    batch: BATCH,
    intervalMs: opts.intervalMs ?? 1_000,
  });
}

export type WebhookDelivery = ReturnType<typeof startWebhookDelivery>;
