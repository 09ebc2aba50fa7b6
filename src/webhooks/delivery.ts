// The webhook sender of one process: claims due deliveries (each the oldest pending one of its
// endpoint, so an endpoint gets its events in order), POSTs the signed envelope through the guarded
// client, logs every attempt (status, latency, first kilobyte of the answer), and on a timeout, a
// connection error or a non-2xx answer retries with exponential backoff and jitter (honouring
// Retry-After) for 24 hours; then the delivery is marked failed and kept. The loop is the queues'
// one (lib/queue-loop.ts), as for back-channel logout; rows are leased, so any process may send.
//
// The queue is polled every second only while there is something to send: an enabled endpoint or a
// pending delivery. A site without webhooks costs one small read a minute. A change to the endpoints
// bumps the `webhooks` change counter, which every process's change poller sees (refresh()); a
// change in this process kicks the loop at once.
//
// Each endpoint's health is kept as its attempts end (failures in a row, since when); an endpoint
// failing for a day (FAILING_DISABLE_MS) is disabled by Ward, audited (webhook.disabled) and logged.
import type { Logger } from 'pino';
import type { Clock } from '../lib/clock.js';
import type { Outbound } from '../lib/outbound/client.js';
import { startQueueLoop } from '../lib/queue-loop.js';
import { randomId } from '../lib/random.js';
import { recordAudit } from '../audit/record.js';
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
/** An endpoint whose attempts have all failed for this long is disabled. */
export const FAILING_DISABLE_MS = 24 * 3600_000;
/** How often the sender looks whether there is anything to send, when it thinks there is not. */
const IDLE_CHECK_MS = 60_000;
const SYSTEM = { type: 'system' as const, id: 'webhooks', ip: null };

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
  /** Told when Ward disabled a failing endpoint (metrics). */
  onDisabled?: (endpointId: string) => void;
}

export function startWebhookDelivery(
  deps: WebhookDeliveryDeps,
  opts: { intervalMs?: number; idleCheckMs?: number } = {},
) {
  const { storage, clock, log } = deps;
  /** Whether there may be something to send (polled then); until the first check: yes. */
  let active = true;
  /** Whether an endpoint may be enabled (its events are then written before their answer); until the first check: yes. */
  let endpoints = true;

  /** Looks whether anything may need sending: an enabled endpoint, or a pending delivery. */
  async function refresh(): Promise<void> {
    try {
      endpoints = await storage.webhookEndpoints.anyEnabled();
      active = endpoints || (await storage.webhookDeliveries.anyPending());
    } catch (e) {
      endpoints = true;
      active = true;
      log.warn({ err: e }, 'webhook sender: could not tell whether anything is to be sent');
    }
  }

  /**
   * A failed attempt counts against its endpoint; a day of nothing but failures disables it: a
   * failure streak of a day, or a delivery given up (retried for its 24 hours, during which its
   * endpoint, sent in order, received nothing else). Answers whether it disabled the endpoint.
   */
  async function endpointFailed(endpointId: string, givingUp: boolean): Promise<boolean> {
    const now = clock.now();
    const ep = await storage.webhookEndpoints.failed(endpointId, now);
    if (!ep?.enabled || ep.failing_since === null) return false;
    if (!givingUp && now - ep.failing_since < FAILING_DISABLE_MS) return false;
    const disabled = await storage.transaction(async (tx) => {
      if (!(await tx.webhookEndpoints.disableFailing(endpointId, now))) return false;
      await tx.versions.bump('webhooks');
      await recordAudit(tx, now, SYSTEM, 'webhook.disabled', `webhook:${endpointId}`, 'success', {
        reason: 'failing',
        failing_since: new Date(ep.failing_since!).toISOString(),
        consecutive_failures: ep.consecutive_failures,
      });
      return true;
    });
    if (!disabled) return false;
    // The administrators' notice: an error line (alerting watches these) and the audit row above.
    log.error(
      {
        event: 'webhook.disabled',
        endpoint_id: endpointId,
        url: ep.url,
        failing_since: new Date(ep.failing_since).toISOString(),
        consecutive_failures: ep.consecutive_failures,
      },
      'webhook endpoint disabled: every delivery has failed for a day; enable it again once the receiver works',
    );
    deps.onDisabled?.(endpointId);
    return true;
  }

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
      await storage.webhookEndpoints.succeeded(row.endpoint_id, clock.now());
      return finish(row, 'delivered', null);
    }
    const next = clock.now() + (wait ?? backoffMs(row.attempts));
    const givingUp = next > row.created_at + RETRY_WINDOW_MS;
    if (await endpointFailed(row.endpoint_id, givingUp)) {
      log.warn({ ...fields, problem, attempts: row.attempts }, 'webhook not delivered: the endpoint was disabled');
      return finish(row, 'failed', `${problem} (the endpoint was disabled after a day of failures)`);
    }
    if (givingUp) {
      log.warn({ ...fields, problem, attempts: row.attempts }, 'webhook not delivered: given up');
      return finish(row, 'failed', problem);
    }
    await storage.webhookDeliveries.retryAt(row.id, next, problem);
    log.warn({ ...fields, problem, attempts: row.attempts }, 'webhook not delivered: will retry');
    deps.onOutcome?.('retry', row);
  }

  const loop = startQueueLoop<WebhookDeliveryRow>({
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
    paused: () => !active,
  });
  const idleCheck = setInterval(() => {
    if (!active) void refresh();
  }, opts.idleCheckMs ?? IDLE_CHECK_MS);
  idleCheck.unref();
  void refresh();
  return {
    tick: loop.tick,
    /** Something was queued or an endpoint changed in this process: poll again, starting now. */
    kick(): void {
      active = true;
      loop.kick();
      // An endpoint may have been enabled here: assume so until the check says otherwise.
      if (!endpoints) {
        endpoints = true;
        void refresh();
      }
    },
    /** Whether this process knows of an enabled endpoint (at most a change poll behind other processes). */
    endpointsEnabled: (): boolean => endpoints,
    /** The endpoints changed (the change poller saw the `webhooks` counter move): look again. */
    refresh,
    /** Whether the timer polls the queue now. */
    get polling(): boolean {
      return active;
    },
    async stop(): Promise<void> {
      clearInterval(idleCheck);
      await loop.stop();
    },
  };
}

export type WebhookDelivery = ReturnType<typeof startWebhookDelivery>;
