import type { Kysely, Selectable } from 'kysely';
import type { Engine } from '../connect.js';
import type { Database, LogoutDeliveriesTable } from '../schema.js';

export type LogoutDeliveryRow = Selectable<LogoutDeliveriesTable>;

/**
 * The durable queue of Back-Channel Logout deliveries. A process claims the rows that are due by
 * moving their next attempt past a lease (and counting the attempt) in one statement; on PostgreSQL
 * the rows are locked with SKIP LOCKED, so processes claiming together each get different rows. A
 * process that dies while sending leaves its rows to be claimed again once the lease has passed.
 */
export function logoutDeliveriesRepo(db: Kysely<Database>, engine: Engine) {
  return {
    async enqueue(rows: LogoutDeliveryRow[]): Promise<void> {
      if (rows.length) await db.insertInto('logout_deliveries').values(rows).execute();
    },
    /** Up to `limit` due rows, claimed until `leaseUntil`, their attempt counted. */
    async claimDue(now: number, leaseUntil: number, limit: number): Promise<LogoutDeliveryRow[]> {
      return db
        .updateTable('logout_deliveries')
        .set((eb) => ({ next_attempt_at: leaseUntil, attempts: eb('attempts', '+', 1) }))
        .where('id', 'in', (eb) => {
          const due = eb
            .selectFrom('logout_deliveries')
            .select('id')
            .where('next_attempt_at', '<=', now)
            .orderBy('next_attempt_at')
            .limit(limit);
          return engine === 'postgres' ? due.forUpdate().skipLocked() : due;
        })
        .returningAll()
        .execute();
    },
    /** Delivered, or given up: the row goes. */
    async remove(id: string): Promise<void> {
      await db.deleteFrom('logout_deliveries').where('id', '=', id).execute();
    },
    async retryAt(id: string, at: number, error: string): Promise<void> {
      await db
        .updateTable('logout_deliveries')
        .set({ next_attempt_at: at, last_error: error.slice(0, 500) })
        .where('id', '=', id)
        .execute();
    },
    /** How many deliveries wait (a metric). */
    async count(): Promise<number> {
      const row = await db
        .selectFrom('logout_deliveries')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .executeTakeFirst();
      return Number(row?.n ?? 0);
    },
    /** The queue as it stands (operators, tests), oldest first. */
    async list(limit = 100): Promise<LogoutDeliveryRow[]> {
      return db.selectFrom('logout_deliveries').selectAll().orderBy('created_at').limit(limit).execute();
    },
  };
}
