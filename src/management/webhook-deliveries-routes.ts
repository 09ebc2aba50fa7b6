// /api/v1/webhooks/{id}/deliveries and /test: what was sent to an endpoint and how each attempt went,
// sending one delivery again, and a test event.
import { Type } from 'typebox';
import { WardError } from '../errors/ward-error.js';
import { nullable, partialObject } from '../http/schema-types.js';
import type { Clock } from '../lib/clock.js';
import type { Storage } from '../storage/storage.js';
import type { WebhookEndpointRow } from '../storage/sql/webhook-endpoints.js';
import { resend, writeEvents } from '../webhooks/outbox.js';
import { recordAudit } from '../audit/record.js';
import type { ManagementActor } from './auth.js';
import { managementRoute, type ManagementRoute } from './route.js';
import { emptyBody } from './schemas.js';

interface Deps {
  clock: Clock;
  storage: Storage;
  webhookDelivery: { kick(): void };
  limit(actor: ManagementActor): Promise<void>;
  existing(id: string): Promise<WebhookEndpointRow>;
}

const id = Type.String({ pattern: '^[A-Za-z0-9_-]{1,64}$' });
const iso = (t: number | null) => (t === null ? null : new Date(t).toISOString());

const attemptSchema = partialObject({
  at: Type.String({ format: 'date-time' }),
  status: nullable(Type.Integer()),
  latency_ms: Type.Integer(),
  error: nullable(Type.String()),
  response: Type.String({ description: 'The first kilobyte of the answer' }),
});
const deliverySchema = partialObject({
  id: Type.String(),
  event_id: Type.String(),
  event_type: Type.String(),
  status: Type.String({ description: 'pending, delivered or failed' }),
  attempts: Type.Array(attemptSchema),
  created_at: Type.String({ format: 'date-time' }),
  next_attempt_at: nullable(Type.String({ format: 'date-time' })),
  finished_at: nullable(Type.String({ format: 'date-time' })),
  last_error: nullable(Type.String()),
});

export function webhookDeliveryRoutes(r: Deps): ManagementRoute[] {
  return [
    managementRoute({
      method: 'GET',
      url: '/api/v1/webhooks/:webhookId/deliveries',
      tag: 'webhooks',
      permission: 'manage:webhooks',
      params: Type.Object({ webhookId: id }, { additionalProperties: false }),
      query: partialObject(
        { limit: Type.String({ pattern: '^([1-9]|[1-9][0-9]|100)$', description: '1 to 100, default 20' }) },
        { additionalProperties: false },
      ),
      summary: "An endpoint's recent deliveries, newest first, each with its attempts",
      response: { status: 200, schema: partialObject({ deliveries: Type.Array(deliverySchema) }) },
      handler: async ({ actor, params, query }) => {
        await r.limit(actor);
        const endpoint = await r.existing(params.webhookId);
        const rows = await r.storage.webhookDeliveries.listOfEndpoint(endpoint.id, Number(query.limit ?? 20));
        const deliveries = [];
        for (const d of rows) {
          const attempts = await r.storage.webhookDeliveries.attemptsOf(d.id);
          deliveries.push({
            id: d.id,
            event_id: d.event_id,
            event_type: d.type,
            status: d.status,
            attempts: attempts.map((a) => ({
              at: new Date(a.at).toISOString(),
              status: a.status,
              latency_ms: a.latency_ms,
              error: a.error,
              response: a.response,
            })),
            created_at: new Date(d.created_at).toISOString(),
            next_attempt_at: d.status === 'pending' ? iso(d.next_attempt_at) : null,
            finished_at: iso(d.finished_at),
            last_error: d.last_error,
          });
        }
        return { deliveries };
      },
    }),
    managementRoute({
      method: 'POST',
      url: '/api/v1/webhooks/:webhookId/deliveries/:deliveryId/resend',
      tag: 'webhooks',
      permission: 'manage:webhooks',
      audit: 'webhook.resent',
      params: Type.Object({ webhookId: id, deliveryId: id }, { additionalProperties: false }),
      bodyOptional: true,
      body: emptyBody,
      summary: 'Send a delivery again (a new delivery of the same event, after the pending ones)',
      response: { status: 202, schema: partialObject({ id: Type.String(), event_id: Type.String() }) },
      handler: async ({ actor, params }) => {
        await r.limit(actor);
        const endpoint = await r.existing(params.webhookId);
        const d = await r.storage.webhookDeliveries.find(params.deliveryId);
        if (!d || d.endpoint_id !== endpoint.id)
          throw new WardError('notFound', { description: `No delivery ${params.deliveryId} of this endpoint` });
        const now = r.clock.now();
        const row = await r.storage.transaction(async (tx) => {
          const made = await resend(tx, endpoint.id, d.event_id, now);
          await recordAudit(tx, now, actor, 'webhook.resent', `webhook:${endpoint.id}`, 'success', {
            delivery_id: d.id,
          });
          return made;
        });
        r.webhookDelivery.kick();
        return { id: row.id, event_id: row.event_id };
      },
    }),
    managementRoute({
      method: 'POST',
      url: '/api/v1/webhooks/:webhookId/test',
      tag: 'webhooks',
      permission: 'manage:webhooks',
      audit: 'webhook.tested',
      params: Type.Object({ webhookId: id }, { additionalProperties: false }),
      bodyOptional: true,
      body: emptyBody,
      summary: 'Send a webhook.test event to this endpoint (enabled ones only)',
      response: { status: 202, schema: partialObject({ deliveries: Type.Integer() }) },
      handler: async ({ actor, params }) => {
        await r.limit(actor);
        const endpoint = await r.existing(params.webhookId);
        if (!endpoint.enabled) throw new WardError('invalidParameter', { description: 'This endpoint is disabled' });
        const now = r.clock.now();
        const deliveries = await r.storage.transaction(async (tx) => {
          const n = await writeEvents(
            tx,
            [{ type: 'webhook.test', at: now, data: { endpoint_id: endpoint.id } }],
            now,
            endpoint.id,
          );
          await recordAudit(tx, now, actor, 'webhook.tested', `webhook:${endpoint.id}`, 'success');
          return n;
        });
        r.webhookDelivery.kick();
        return { deliveries };
      },
    }),
  ];
}
