import { sql, type Kysely } from 'kysely';
import type { Database } from '../schema.js';

/** Fixed-window counters shared by every process on one database. */
export function countersRepo(db: Kysely<Database>) {
  return {
    /** Atomically adds one to (bucket, window) and returns the new count. */
    async hit(bucket: string, windowStart: number, expiresAt: number): Promise<number> {
      const r = await db
        .insertInto('rate_counters')
        .values({ bucket, window_start: windowStart, count: 1, expires_at: expiresAt })
        .onConflict((oc) => oc.columns(['bucket', 'window_start']).doUpdateSet({ count: sql<number>`rate_counters.count + 1` }))
        .returning('count')
        .executeTakeFirstOrThrow();
      return Number(r.count);
    },
    async deleteExpired(now: number): Promise<void> {
      await db.deleteFrom('rate_counters').where('expires_at', '<', now).execute();
    },
  };
}
