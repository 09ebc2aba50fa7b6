import type { Registry } from '../registry.js';
import type { ManagementRoute } from './route.js';

const eventSchema = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    at: { type: 'string', format: 'date-time' },
    actor_type: { type: 'string' },
    actor_id: { type: 'string' },
    action: { type: 'string' },
    target: { type: ['string', 'null'] },
    ip: { type: ['string', 'null'] },
    outcome: { type: 'string', enum: ['success', 'denied', 'failed'] },
    details: { type: 'object' },
  },
};

/** The audit log of management actions, newest first, filterable; paged by the cursor before (+ before_id). */
export function auditRoutes(r: Pick<Registry, 'events' | 'storage'>): ManagementRoute[] {
  return [
    {
      method: 'GET',
      url: '/api/v1/audit',
      tag: 'audit',
      permission: 'read:audit',
      summary: 'List audit events (newest first)',
      query: {
        type: 'object',
        additionalProperties: false,
        properties: {
          action: { type: 'string', maxLength: 64 },
          actor: { type: 'string', maxLength: 160 },
          target: { type: 'string', maxLength: 400 },
          since: { type: 'string', format: 'date-time' },
          until: { type: 'string', format: 'date-time' },
          before: { type: 'string', format: 'date-time' },
          before_id: { type: 'string', pattern: '^[A-Za-z0-9_-]{1,64}$' },
          limit: { type: 'string', pattern: '^[0-9]{1,3}$' },
        },
      },
      response: {
        status: 200,
        schema: { type: 'object', properties: { events: { type: 'array', items: eventSchema } } },
      },
      handler: async ({ query }) => {
        // The security events of the public endpoints are written in batches: include the pending ones.
        await r.events.flush();
        const time = (v: unknown) => (typeof v === 'string' ? Date.parse(v) : undefined);
        const rows = await r.storage.audit.list({
          action: query.action as string | undefined,
          actorId: query.actor as string | undefined,
          target: query.target as string | undefined,
          since: time(query.since),
          until: time(query.until),
          before: time(query.before),
          beforeId: query.before === undefined ? undefined : (query.before_id as string | undefined),
          limit: Math.min(Math.max(Number(query.limit ?? 50), 1), 500),
        });
        return {
          events: rows.map((e) => ({
            ...e,
            at: new Date(e.at).toISOString(),
            details: JSON.parse(e.details) as object,
          })),
        };
      },
    },
  ];
}
