import { Type } from 'typebox';
import { anyObject, nullable, partialObject, stringEnum } from '../http/schema-types.js';
import { managementRoute, type ManagementRoute } from './route.js';
import type { SecurityEvents } from '../audit/events.js';
import type { Storage } from '../storage/storage.js';

/** The services this module uses (registry.ts builds them; the composition passes them in). */
export interface AuditRoutesDeps {
  events: SecurityEvents;
  storage: Storage;
}

const eventSchema = partialObject({
  id: Type.String(),
  at: Type.String({ format: 'date-time' }),
  actor_type: Type.String(),
  actor_id: Type.String(),
  action: Type.String(),
  target: nullable(Type.String()),
  ip: nullable(Type.String()),
  outcome: stringEnum(['success', 'denied', 'failed']),
  details: anyObject(),
});

/** The audit log of management actions, newest first, filterable; paged by the cursor before (+ before_id). */
export function auditRoutes(r: AuditRoutesDeps): ManagementRoute[] {
  return [
    managementRoute({
      method: 'GET',
      url: '/api/v1/audit',
      tag: 'audit',
      permission: 'read:audit',
      summary: 'List audit events (newest first)',
      query: partialObject(
        {
          action: Type.String({ maxLength: 64 }),
          actor: Type.String({ maxLength: 160 }),
          target: Type.String({ maxLength: 400 }),
          since: Type.String({ format: 'date-time' }),
          until: Type.String({ format: 'date-time' }),
          before: Type.String({ format: 'date-time' }),
          before_id: Type.String({ pattern: '^[A-Za-z0-9_-]{1,64}$' }),
          limit: Type.String({ pattern: '^[0-9]{1,3}$' }),
        },
        { additionalProperties: false },
      ),
      response: { status: 200, schema: partialObject({ events: Type.Array(eventSchema) }) },
      handler: async ({ query }) => {
        // The security events of the public endpoints are written in batches: include the pending ones.
        await r.events.flush();
        const time = (v: string | undefined) => (v === undefined ? undefined : Date.parse(v));
        const rows = await r.storage.audit.list({
          action: query.action,
          actorId: query.actor,
          target: query.target,
          since: time(query.since),
          until: time(query.until),
          before: time(query.before),
          beforeId: query.before === undefined ? undefined : query.before_id,
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
    }),
  ];
}
