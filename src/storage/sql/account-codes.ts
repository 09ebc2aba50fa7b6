import { sql, type Kysely, type Selectable } from 'kysely';
import type { Engine } from '../connect.js';
import type { AccountCodesTable, Database } from '../schema.js';
import { mayNeedNormalisation } from './email-forms.js';

export type AccountCodeRow = Selectable<AccountCodesTable>;

/**
 * Codes and links sent to an address (migration 013). Every method is one statement; `issue` is
 * meant for a transaction that first locks the user (`lockUser`), so parallel requests leave one
 * live row per user and purpose.
 */
export function accountCodesRepo(db: Kysely<Database>, engine: Engine) {
  return {
    /** Takes the user's row lock: one writer of codes at a time per user (PostgreSQL; SQLite has one writer). */
    async lockUser(userId: string): Promise<void> {
      await db.updateTable('users').set({ id: sql<string>`id` }).where('id', '=', userId).execute();
    },
    /** Stores a new row and supersedes the live ones of the same purpose and user, or address. */
    async issue(row: AccountCodeRow, now: number): Promise<void> {
      const userId = row.user_id;
      await db
        .updateTable('account_codes')
        .set({ superseded_at: now })
        .where((eb) =>
          userId === null
            ? eb('destination', '=', row.destination)
            : eb.or([eb('user_id', '=', userId), eb('destination', '=', row.destination)]),
        )
        .where('purpose', '=', row.purpose)
        .where('consumed_at', 'is', null)
        .where('superseded_at', 'is', null)
        .execute();
      await db.insertInto('account_codes').values(row).execute();
    },
    /** The rows of a purpose sent to an address that are neither used nor superseded, newest first. */
    async liveForAddress(purpose: string, destination: string): Promise<AccountCodeRow[]> {
      return db
        .selectFrom('account_codes')
        .selectAll()
        .where('purpose', '=', purpose)
        .where('destination', '=', destination)
        .where('consumed_at', 'is', null)
        .where('superseded_at', 'is', null)
        .orderBy('created_at', 'desc')
        .limit(5)
        .execute();
    },
    /** The newest row of a user, of one of `purposes`, neither used nor superseded (expired or not). */
    async newestLiveOfUser(userId: string, purposes: string[]): Promise<AccountCodeRow | undefined> {
      return db
        .selectFrom('account_codes')
        .selectAll()
        .where('user_id', '=', userId)
        .where('purpose', 'in', purposes)
        .where('consumed_at', 'is', null)
        .where('superseded_at', 'is', null)
        .orderBy('created_at', 'desc')
        .limit(1)
        .executeTakeFirst();
    },
    async findByLink(linkDigest: string): Promise<AccountCodeRow | undefined> {
      return db.selectFrom('account_codes').selectAll().where('link_digest', '=', linkDigest).executeTakeFirst();
    },
    /** Counts one attempt at a code atomically and answers the row as counted (undefined: gone). */
    async countAttempt(id: string): Promise<AccountCodeRow | undefined> {
      return db
        .updateTable('account_codes')
        .set({ attempts: sql<number>`attempts + 1` })
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirst();
    },
    /** Marks a live row used; of concurrent callers exactly one gets true. */
    async consume(id: string, now: number): Promise<boolean> {
      const r = await db
        .updateTable('account_codes')
        .set({ consumed_at: now })
        .where('id', '=', id)
        .where('consumed_at', 'is', null)
        .where('superseded_at', 'is', null)
        .executeTakeFirst();
      return Number(r.numUpdatedRows) === 1;
    },
    /** Kills one row (a message that could not be sent). */
    async supersede(id: string, now: number): Promise<void> {
      await db.updateTable('account_codes').set({ superseded_at: now }).where('id', '=', id).execute();
    },
    /** Kills every live row of a user (all purposes, or one): after a reset, a deletion, a change. */
    async supersedeOfUser(userId: string, now: number, purpose?: string): Promise<void> {
      let q = db
        .updateTable('account_codes')
        .set({ superseded_at: now })
        .where('user_id', '=', userId)
        .where('consumed_at', 'is', null)
        .where('superseded_at', 'is', null);
      if (purpose) q = q.where('purpose', '=', purpose);
      await q.execute();
    },
    /**
     * Kills the live email rows sent to an address that may differ from its normalised form and that is
     * no user's (one statement; issue 33): a pending change to, or a passwordless sign-in of, such an
     * address would otherwise be confirmed in the old form. The user asks again. Answers how many.
     */
    async supersedeLiveToUnnormalisedEmails(now: number): Promise<number> {
      const r = await db
        .updateTable('account_codes')
        .set({ superseded_at: now })
        .where('channel', '=', 'email')
        .where('consumed_at', 'is', null)
        .where('superseded_at', 'is', null)
        .where(mayNeedNormalisation(engine, 'destination'))
        .where(({ not, exists, selectFrom }) =>
          not(exists(selectFrom('users').select('users.id').whereRef('users.email', '=', 'account_codes.destination'))),
        )
        .executeTakeFirst();
      return Number(r.numUpdatedRows);
    },
    async deleteOfUser(userId: string): Promise<void> {
      await db.deleteFrom('account_codes').where('user_id', '=', userId).execute();
    },
    async deleteExpired(before: number): Promise<void> {
      await db
        .deleteFrom('account_codes')
        .where('link_expires_at', '<', before)
        .where('code_expires_at', '<', before)
        .execute();
    },
  };
}
