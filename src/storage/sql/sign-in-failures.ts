import type { Kysely, Selectable } from 'kysely';
import { sql } from 'kysely';
import type { Engine } from '../connect.js';
import { prepared } from '../prepared.js';
import type { Database, SignInFailuresTable } from '../schema.js';

export type SignInFailureRow = Selectable<SignInFailuresTable>;

/** Failed password sign-ins per identifier (accounts/sign-in-protection.ts), shared by every process. */
// Read before every password check: a hot query.
const findFailures = prepared((q, key: string) => q.selectFrom('sign_in_failures').selectAll().where('key', '=', key));

export function signInFailuresRepo(db: Kysely<Database>, engine: Engine) {
  return {
    async find(key: string): Promise<SignInFailureRow | undefined> {
      return (await findFailures(db, engine, key)).rows[0];
    },
    /**
     * Takes the next attempt of a throttled identifier (compare-and-set on `blocked_until`): of
     * parallel attempts that read the same row, one wins; the others are refused as too early.
     */
    async claim(key: string, seenBlockedUntil: number, blockedUntil: number): Promise<boolean> {
      const r = await db
        .updateTable('sign_in_failures')
        .set({ blocked_until: blockedUntil })
        .where('key', '=', key)
        .where('blocked_until', '=', seenBlockedUntil)
        .executeTakeFirst();
      return Number(r.numUpdatedRows) === 1;
    },
    /** Counts one failure (atomically) and answers the new count. */
    async fail(key: string, now: number, expiresAt: number): Promise<number> {
      const r = await db
        .insertInto('sign_in_failures')
        .values({ key, failures: 1, blocked_until: 0, locked_at: null, last_failure_at: now, expires_at: expiresAt })
        .onConflict((oc) =>
          oc.column('key').doUpdateSet({
            failures: sql<number>`sign_in_failures.failures + 1`,
            last_failure_at: now,
            expires_at: expiresAt,
          }),
        )
        .returning('failures')
        .executeTakeFirstOrThrow();
      return Number(r.failures);
    },
    /** Sets when the next attempt is allowed; `lockedAt` when this starts a lockout. */
    async block(key: string, blockedUntil: number, lockedAt: number | null, expiresAt: number): Promise<void> {
      await db
        .updateTable('sign_in_failures')
        .set({
          blocked_until: blockedUntil,
          expires_at: expiresAt,
          ...(lockedAt === null ? {} : { locked_at: lockedAt }),
        })
        .where('key', '=', key)
        .execute();
    },
    /** Forgets the failures of these identifiers (a success, an administrator's unlock, a deletion). */
    async clear(keys: string[]): Promise<number> {
      if (!keys.length) return 0;
      const r = await db.deleteFrom('sign_in_failures').where('key', 'in', keys).executeTakeFirst();
      return Number(r.numDeletedRows);
    },
    async deleteExpired(now: number): Promise<void> {
      await db.deleteFrom('sign_in_failures').where('expires_at', '<', now).execute();
    },
  };
}
