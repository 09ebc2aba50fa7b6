import type { Kysely, QueryCreator, Selectable } from 'kysely';
import type { Engine } from '../connect.js';
import { columnsOf, prepared } from '../prepared.js';
import type { Database, InteractionsTable } from '../schema.js';

export type InteractionRow = Selectable<InteractionsTable>;

/** What a step of the sign-in learns: who the user is, how they authenticated, where it stands. */
export type InteractionProgress = Pick<InteractionRow, 'step' | 'user_id' | 'amr' | 'auth_time'>;

// Every sign-in that goes on past /oauth/authorize runs these (hosted login, step-up): hot queries.
export const INTERACTION_COLUMNS = columnsOf<InteractionRow>()(
  'digest',
  'client_id',
  'request',
  'browser',
  'step',
  'user_id',
  'amr',
  'auth_time',
  'created_at',
  'expires_at',
);
export const insertInteraction = prepared((q, row: InteractionRow) => q.insertInto('interactions').values(row), {
  0: INTERACTION_COLUMNS,
});

const findLive = prepared((q, digest: string, now: number) =>
  q
    .selectFrom('interactions')
    .selectAll()
    .where('digest', '=', digest)
    .where('expires_at', '>', now)
    .where('step', '!=', 'done'),
);

const advanceLive = prepared(
  (
    q,
    digest: string,
    next: string,
    step: string,
    userId: string | null,
    amr: string | null,
    authTime: number | null,
    now: number,
  ) =>
    q
      .updateTable('interactions')
      .set({ step, user_id: userId, amr, auth_time: authTime, digest: next })
      .where('digest', '=', digest)
      .where('expires_at', '>', now)
      .where('step', '!=', 'done'),
);

/** Moves a live interaction to `done`: exactly one caller's statement changes the row. */
const finishing = (q: QueryCreator<Database>, digest: string, now: number) =>
  q
    .updateTable('interactions')
    .set({ step: 'done' })
    .where('digest', '=', digest)
    .where('expires_at', '>', now)
    .where('step', '!=', 'done');

const finishLive = prepared(finishing);

/**
 * Sign-ins in progress. A row lives until it expires (the janitor sweeps it); it is finished by
 * moving to step `done`, which exactly one caller wins, so a form posted twice completes once.
 */
export function interactionsRepo(db: Kysely<Database>, engine: Engine) {
  return {
    async insert(row: InteractionRow): Promise<void> {
      await insertInteraction(db, engine, row);
    },
    async findLive(digest: string, now: number): Promise<InteractionRow | undefined> {
      return (await findLive(db, engine, digest, now)).rows[0];
    },
    /**
     * Records progress on a live interaction under a new key (the handle changes at each step, so a
     * handle seen on an earlier page no longer works); false when it is gone, expired or finished.
     */
    async advance(digest: string, next: string, progress: InteractionProgress, now: number): Promise<boolean> {
      const { step, user_id, amr, auth_time } = progress;
      const r = await advanceLive(db, engine, digest, next, step, user_id, amr, auth_time, now);
      return Number(r.numAffectedRows) === 1;
    },
    /** Finishes it: true for exactly one caller. */
    async finish(digest: string, now: number): Promise<boolean> {
      return Number((await finishLive(db, engine, digest, now)).numAffectedRows) === 1;
    },
    async deleteExpired(before: number): Promise<void> {
      await db.deleteFrom('interactions').where('expires_at', '<', before).execute();
    },
  };
}
