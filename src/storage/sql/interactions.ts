import type { Kysely, Selectable } from 'kysely';
import type { Database, InteractionsTable } from '../schema.js';

export type InteractionRow = Selectable<InteractionsTable>;

/** What a step of the sign-in learns: who the user is, how they authenticated, where it stands. */
export type InteractionProgress = Pick<InteractionRow, 'step' | 'user_id' | 'amr' | 'auth_time'>;

/**
 * Sign-ins in progress. A row lives until it expires (the janitor sweeps it); it is finished by
 * moving to step `done`, which exactly one caller wins, so a form posted twice completes once.
 */
export function interactionsRepo(db: Kysely<Database>) {
  return {
    async insert(row: InteractionRow): Promise<void> {
      await db.insertInto('interactions').values(row).execute();
    },
    async findLive(digest: string, now: number): Promise<InteractionRow | undefined> {
      return db
        .selectFrom('interactions')
        .selectAll()
        .where('digest', '=', digest)
        .where('expires_at', '>', now)
        .where('step', '!=', 'done')
        .executeTakeFirst();
    },
    /**
     * Records progress on a live interaction under a new key (the handle changes at each step, so a
     * handle seen on an earlier page no longer works); false when it is gone, expired or finished.
     */
    async advance(digest: string, next: string, progress: InteractionProgress, now: number): Promise<boolean> {
      const r = await db
        .updateTable('interactions')
        .set({ ...progress, digest: next })
        .where('digest', '=', digest)
        .where('expires_at', '>', now)
        .where('step', '!=', 'done')
        .executeTakeFirst();
      return Number(r.numUpdatedRows) === 1;
    },
    /** Finishes it: true for exactly one caller. */
    async finish(digest: string, now: number): Promise<boolean> {
      const r = await db
        .updateTable('interactions')
        .set({ step: 'done' })
        .where('digest', '=', digest)
        .where('expires_at', '>', now)
        .where('step', '!=', 'done')
        .executeTakeFirst();
      return Number(r.numUpdatedRows) === 1;
    },
    async deleteExpired(before: number): Promise<void> {
      await db.deleteFrom('interactions').where('expires_at', '<', before).execute();
    },
  };
}
