import type { Kysely, Selectable } from 'kysely';
import type { Engine } from '../connect.js';
import type { Database, WebhookAttemptsTable, WebhookDeliveriesTable, WebhookEventsTable } from '../schema.js';

export type WebhookEventRow = Selectable<WebhookEventsTable>;
export type WebhookDeliveryRow = Selectable<WebhookDeliveriesTable>;
export type WebhookAttemptRow = Selectable<WebhookAttemptsTable>;

/**
 * The webhook outbox: events, their deliveries (one per matching endpoint) and the attempts. The
 * deliveries are a durable queue like logout_deliveries (sql/logout-deliveries.ts): a process claims
 * the due rows by moving their next attempt past a lease in one statement, with SKIP LOCKED on
 * PostgreSQL so processes claiming together get different rows. Unlike that queue, a row is claimable
 * only while no earlier pending row of its endpoint exists: each endpoint gets its events in order,
 * one at a time, whichever process sends them.
 */
export function webhookDeliveriesRepo(db: Kysely<Database>, engine: Engine) {
  return {
    /** Events and their deliveries, in the caller's transaction (the outbox). */
    async enqueue(events: WebhookEventRow[], deliveries: WebhookDeliveryRow[]): Promise<void> {
      if (events.length) await db.insertInto('webhook_events').values(events).execute();
      if (deliveries.length) await db.insertInto('webhook_deliveries').values(deliveries).execute();
    },
    /** Up to `limit` due deliveries, each the oldest pending one of its endpoint, claimed until `leaseUntil`. */
    async claimDue(now: number, leaseUntil: number, limit: number): Promise<WebhookDeliveryRow[]> {
      return db
        .updateTable('webhook_deliveries')
        .set((eb) => ({ next_attempt_at: leaseUntil, attempts: eb('attempts', '+', 1) }))
        .where('id', 'in', (eb) => {
          const due = eb
            .selectFrom('webhook_deliveries as d')
            .select('d.id')
            .where('d.status', '=', 'pending')
            .where('d.next_attempt_at', '<=', now)
            .where(({ not, exists, selectFrom }) =>
              not(
                exists(
                  selectFrom('webhook_deliveries as e')
                    .select('e.id')
                    .whereRef('e.endpoint_id', '=', 'd.endpoint_id')
                    .where('e.status', '=', 'pending')
                    .whereRef('e.seq', '<', 'd.seq'),
                ),
              ),
            )
            .orderBy('d.seq')
            .limit(limit);
          return engine === 'postgres' ? due.forUpdate().skipLocked() : due;
        })
        .returningAll()
        .execute();
    },
    async findEvent(id: string): Promise<WebhookEventRow | undefined> {
      return db.selectFrom('webhook_events').selectAll().where('id', '=', id).executeTakeFirst();
    },
    async find(id: string): Promise<WebhookDeliveryRow | undefined> {
      return db.selectFrom('webhook_deliveries').selectAll().where('id', '=', id).executeTakeFirst();
    },
    async recordAttempt(a: WebhookAttemptRow): Promise<void> {
      await db.insertInto('webhook_attempts').values(a).execute();
    },
    /** Delivered or given up: the row is kept, finished. */
    async finish(id: string, status: 'delivered' | 'failed', at: number, error: string | null): Promise<void> {
      await db
        .updateTable('webhook_deliveries')
        .set({ status, finished_at: at, last_error: error?.slice(0, 500) ?? null })
        .where('id', '=', id)
        .execute();
    },
    async retryAt(id: string, at: number, error: string): Promise<void> {
      await db
        .updateTable('webhook_deliveries')
        .set({ next_attempt_at: at, last_error: error.slice(0, 500) })
        .where('id', '=', id)
        .execute();
    },
    /** An endpoint's deliveries, newest first, with their event's type. */
    async listOfEndpoint(endpointId: string, limit: number) {
      return db
        .selectFrom('webhook_deliveries as d')
        .innerJoin('webhook_events as ev', 'ev.id', 'd.event_id')
        .selectAll('d')
        .select(['ev.type', 'ev.at'])
        .where('d.endpoint_id', '=', endpointId)
        .orderBy('d.seq', 'desc')
        .limit(limit)
        .execute();
    },
    async attemptsOf(deliveryId: string): Promise<WebhookAttemptRow[]> {
      return db
        .selectFrom('webhook_attempts')
        .selectAll()
        .where('delivery_id', '=', deliveryId)
        .orderBy('at')
        .orderBy('id')
        .execute();
    },
    /** An endpoint removed: its deliveries and their attempts go with it. */
    async removeOfEndpoint(endpointId: string): Promise<void> {
      const ids = db.selectFrom('webhook_deliveries').select('id').where('endpoint_id', '=', endpointId);
      await db.deleteFrom('webhook_attempts').where('delivery_id', 'in', ids).execute();
      await db.deleteFrom('webhook_deliveries').where('endpoint_id', '=', endpointId).execute();
    },
    /** Whether any delivery waits (the sender keeps polling until none does). */
    async anyPending(): Promise<boolean> {
      const row = await db
        .selectFrom('webhook_deliveries')
        .select('id')
        .where('status', '=', 'pending')
        .limit(1)
        .executeTakeFirst();
      return row !== undefined;
    },
    /** The events an endpoint was sent (or was to be sent) between two times, oldest first, each once. */
    async eventsOfEndpointBetween(endpointId: string, from: number, to: number, limit: number): Promise<string[]> {
      const rows = await db
        .selectFrom('webhook_deliveries as d')
        .innerJoin('webhook_events as ev', 'ev.id', 'd.event_id')
        .select('d.event_id')
        .select((eb) => eb.fn.min('d.seq').as('first'))
        .where('d.endpoint_id', '=', endpointId)
        .where('ev.at', '>=', from)
        .where('ev.at', '<=', to)
        .groupBy('d.event_id')
        .orderBy('first')
        .limit(limit)
        .execute();
      return rows.map((r) => r.event_id);
    },
    /** An endpoint's attempts since a time: how many, and how many answered 2xx (its recent health). */
    async attemptStats(endpointId: string, since: number): Promise<{ total: number; succeeded: number }> {
      const r = await db
        .selectFrom('webhook_attempts as a')
        .innerJoin('webhook_deliveries as d', 'd.id', 'a.delivery_id')
        .select((eb) => [
          eb.fn.countAll<number>().as('total'),
          eb.fn
            .sum<number>(
              eb
                .case()
                .when(eb.and([eb('a.status', '>=', 200), eb('a.status', '<', 300)]))
                .then(1)
                .else(0)
                .end(),
            )
            .as('succeeded'),
        ])
        .where('d.endpoint_id', '=', endpointId)
        .where('a.at', '>=', since)
        .executeTakeFirstOrThrow();
      return { total: Number(r.total), succeeded: Number(r.succeeded ?? 0) };
    },
    /** Pending deliveries and the creation time of the oldest: all of them, or one endpoint's. */
    async backlog(endpointId?: string): Promise<{ pending: number; oldest: number | null }> {
      let q = db
        .selectFrom('webhook_deliveries')
        .select((eb) => [eb.fn.countAll<number>().as('pending'), eb.fn.min('created_at').as('oldest')])
        .where('status', '=', 'pending');
      if (endpointId) q = q.where('endpoint_id', '=', endpointId);
      const r = await q.executeTakeFirstOrThrow();
      return { pending: Number(r.pending), oldest: r.oldest === null ? null : Number(r.oldest) };
    },
  };
}
