import { sql, type Kysely } from 'kysely';
import type { Database } from '../schema.js';

/** The skips of a required enrolment of a second factor ("Later" at sign-in), one row per user. */
export function enrolmentSkipsRepo(db: Kysely<Database>) {
  return {
    /** How many times the user skipped (0: never). */
    async count(userId: string): Promise<number> {
      const r = await db
        .selectFrom('mfa_enrolment_skips')
        .select('skips')
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return r?.skips ?? 0;
    },
    /**
     * Counts one more skip while fewer than `max` were taken; answers the new count, or null when none
     * is left (of parallel callers at the last one, exactly one wins).
     */
    async take(userId: string, max: number, now: number): Promise<number | null> {
      if (max <= 0) return null;
      const r = await db
        .insertInto('mfa_enrolment_skips')
        .values({ user_id: userId, skips: 1, last_skipped_at: now })
        .onConflict((oc) =>
          oc
            .column('user_id')
            .doUpdateSet({ skips: sql`mfa_enrolment_skips.skips + 1`, last_skipped_at: now })
            .where('mfa_enrolment_skips.skips', '<', max),
        )
        .returning('skips')
        .executeTakeFirst();
      return r?.skips ?? null;
    },
  };
}
