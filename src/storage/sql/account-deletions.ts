import type { Kysely } from 'kysely';
import type { AccountDeletionsTable, Database } from '../schema.js';

export type AccountDeletionRow = AccountDeletionsTable;

/** Deletions of their own account that users asked for, waiting for the grace period (migration 023). */
export function accountDeletionsRepo(db: Kysely<Database>) {
  return {
    /** Schedules (or moves) the user's deletion. */
    async schedule(userId: string, requestedAt: number, dueAt: number): Promise<void> {
      await db
        .insertInto('account_deletions')
        .values({ user_id: userId, requested_at: requestedAt, due_at: dueAt })
        .onConflict((oc) => oc.column('user_id').doUpdateSet({ requested_at: requestedAt, due_at: dueAt }))
        .execute();
    },

    find: (userId: string): Promise<AccountDeletionRow | undefined> =>
      db.selectFrom('account_deletions').selectAll().where('user_id', '=', userId).executeTakeFirst(),

    /** Cancels the user's deletion; answers whether one was waiting. */
    async cancel(userId: string): Promise<boolean> {
      const r = await db.deleteFrom('account_deletions').where('user_id', '=', userId).executeTakeFirst();
      return Number(r.numDeletedRows) > 0;
    },

    /** The deletions whose grace period has passed, oldest first. */
    due: (now: number, limit: number): Promise<AccountDeletionRow[]> =>
      db
        .selectFrom('account_deletions')
        .selectAll()
        .where('due_at', '<=', now)
        .orderBy('due_at')
        .limit(limit)
        .execute(),
  };
}
