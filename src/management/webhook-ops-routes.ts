// /api/v1/webhooks/{id}/replay and /health: sending again every event of a time range to an endpoint
// (after a receiver lost data, or once it works again), and how the endpoint is doing (its failures
// in a row, last success and failure, the success rate of the last day's attempts, what waits).
import { Type } from 'typebox';
import { recordAudit } from '../audit/record.js';
import { WardError } from '../errors/ward-error.js';
import { nullable, partialObject } from '../http/schema-types.js';
import type { Clock } from '../lib/clock.js';
import type { Storage } from '../storage/storage.js';
import type { WebhookEndpointRow } from '../storage/sql/webhook-endpoints.js';
import { resend } from '../webhooks/outbox.js';
import type { ManagementActor } from './auth.js';
import { managementRoute, type ManagementRoute } from './route.js';

interface Deps {
  clock: Clock;
  storage: Storage;
  webhookDelivery: { kick(): void };
  limit(actor: ManagementActor): Promise<void>;
  existing(id: string): Promise<WebhookEndpointRow>;
}

/** At most this many events per replay call (a longer range: call again from the last one's time). */
export const MAX_REPLAY = 1000;
/** The window of the success rate. */
const HEALTH_WINDOW_MS = 24 * 3600_000;

const params = Type.Object(
  { webhookId: Type.String({ pattern: '^[A-Za-z0-9_-]{1,64}$' }) },
  { additionalProperties: false },
);
const iso = (t: number | null) => (t === null ? null : new Date(t).toISOString());
const invalid = (field: string, message: string) =>
  new WardError('invalidParameter', { description: message, details: [{ field, message, code: 'invalid' }] });

function time(field: string, value: string): number {
  const t = Date.parse(value);
  if (!Number.isFinite(t)) throw invalid(field, `${field} must be a date-time (RFC 3339)`);
  return t;
}

export function webhookOpsRoutes(r: Deps): ManagementRoute[] {
  return [
    managementRoute({
      method: 'POST',
      url: '/api/v1/webhooks/:webhookId/replay',
      tag: 'webhooks',
      permission: 'manage:webhooks',
      audit: 'webhook.replayed',
      params,
      body: Type.Object(
        {
          from: Type.String({ format: 'date-time', description: 'Events that happened at or after this time' }),
          to: Type.String({ format: 'date-time', description: 'Events that happened at or before this time' }),
        },
        { additionalProperties: false },
      ),
      summary: `Send again every event of a time range this endpoint was sent (oldest first, at most ${MAX_REPLAY})`,
      response: {
        status: 202,
        schema: partialObject({
          deliveries: Type.Integer({ description: 'The new deliveries queued, one per event' }),
          truncated: Type.Boolean({ description: `More than ${MAX_REPLAY} events: call again from the last one` }),
          last_event_at: nullable(Type.String({ format: 'date-time' })),
        }),
      },
      handler: async ({ actor, params: p, body }) => {
        await r.limit(actor);
        const endpoint = await r.existing(p.webhookId);
        const from = time('from', body.from);
        const to = time('to', body.to);
        if (from > to) throw invalid('to', 'to must not be before from');
        if (!endpoint.enabled) throw invalid('webhookId', 'This endpoint is disabled: enable it first');
        const now = r.clock.now();
        const out = await r.storage.transaction(async (tx) => {
          const events = await tx.webhookDeliveries.eventsOfEndpointBetween(endpoint.id, from, to, MAX_REPLAY + 1);
          const replayed = events.slice(0, MAX_REPLAY);
          for (const eventId of replayed) await resend(tx, endpoint.id, eventId, now);
          const last = replayed.length ? await tx.webhookDeliveries.findEvent(replayed.at(-1)!) : undefined;
          await recordAudit(tx, now, actor, 'webhook.replayed', `webhook:${endpoint.id}`, 'success', {
            from: new Date(from).toISOString(),
            to: new Date(to).toISOString(),
            deliveries: replayed.length,
          });
          return { deliveries: replayed.length, truncated: events.length > MAX_REPLAY, last: last?.at ?? null };
        });
        if (out.deliveries) r.webhookDelivery.kick();
        return { deliveries: out.deliveries, truncated: out.truncated, last_event_at: iso(out.last) };
      },
    }),
    managementRoute({
      method: 'GET',
      url: '/api/v1/webhooks/:webhookId/health',
      tag: 'webhooks',
      permission: 'manage:webhooks',
      params,
      summary: "An endpoint's health: failures in a row, last success and failure, the last day's success rate",
      response: {
        status: 200,
        schema: partialObject({
          enabled: Type.Boolean(),
          disabled_reason: nullable(
            Type.String({ description: '`failing`: Ward disabled it after a day of failures' }),
          ),
          consecutive_failures: Type.Integer(),
          failing_since: nullable(Type.String({ format: 'date-time' })),
          last_success_at: nullable(Type.String({ format: 'date-time' })),
          last_failure_at: nullable(Type.String({ format: 'date-time' })),
          attempts_24h: Type.Integer({ description: 'Attempts in the last 24 hours' }),
          success_rate_24h: nullable(Type.Number({ description: 'Share of those answered 2xx (null: none)' })),
          pending: Type.Integer({ description: 'Deliveries waiting to be sent or retried' }),
          oldest_pending_at: nullable(Type.String({ format: 'date-time' })),
        }),
      },
      handler: async ({ actor, params: p }) => {
        await r.limit(actor);
        const ep = await r.existing(p.webhookId);
        const now = r.clock.now();
        const stats = await r.storage.webhookDeliveries.attemptStats(ep.id, now - HEALTH_WINDOW_MS);
        const backlog = await r.storage.webhookDeliveries.backlog(ep.id);
        return {
          enabled: ep.enabled === 1,
          disabled_reason: ep.enabled === 1 ? null : ep.disabled_reason,
          consecutive_failures: ep.consecutive_failures,
          failing_since: iso(ep.failing_since),
          last_success_at: iso(ep.last_success_at),
          last_failure_at: iso(ep.last_failure_at),
          attempts_24h: stats.total,
          success_rate_24h: stats.total ? Math.round((stats.succeeded / stats.total) * 1000) / 1000 : null,
          pending: backlog.pending,
          oldest_pending_at: iso(backlog.oldest),
        };
      },
    }),
  ];
}
