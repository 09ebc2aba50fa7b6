import { sql, type Kysely } from 'kysely';
import type { Engine } from '../connect.js';
import { prepared } from '../prepared.js';
import type { Database } from '../schema.js';

const hit = prepared((q, bucket: string, windowStart: number, expiresAt: number) =>
  q
    .insertInto('rate_counters')
    .values({ bucket, window_start: windowStart, count: 1, expires_at: expiresAt })
    .onConflict((oc) =>
      oc.columns(['bucket', 'window_start']).doUpdateSet({ count: sql<number>`rate_counters.count + 1` }),
    )
    .returning('count'),
);

/** Fixed-window counters shared by every process on one database. */
export function countersRepo(db: Kysely<Database>, engine: Engine) {
  return {
    /** Atomically adds one to (bucket, window) and returns the new count. */
    async hit(bucket: string, windowStart: number, expiresAt: number): Promise<number> {
      const [r] = (await hit(db, engine, bucket, windowStart, expiresAt)).rows;
      return Number(r!.count);
    },
    /** The count of (bucket, window) without adding to it (0 when none). */
    async read(bucket: string, windowStart: number): Promise<number> {
      const r = await db
        .selectFrom('rate_counters')
        .select('count')
        .where('bucket', '=', bucket)
        .where('window_start', '=', windowStart)
        .executeTakeFirst();
      return Number(r?.count ?? 0);
    },
    async deleteExpired(now: number): Promise<void> {
      await db.deleteFrom('rate_counters').where('expires_at', '<', now).execute();
    },
  };
}
