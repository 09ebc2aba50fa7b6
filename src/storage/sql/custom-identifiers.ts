import type { Kysely } from 'kysely';
import type { Database } from '../schema.js';

/** Users' custom identifiers, normalised (migration 040); one per user, unique across users. */
export function customIdentifiersRepo(db: Kysely<Database>) {
  return {
    /** The user a custom identifier names. */
    async userOf(customIdentifier: string): Promise<string | undefined> {
      const r = await db
        .selectFrom('user_custom_identifiers')
        .select('user_id')
        .where('custom_identifier', '=', customIdentifier)
        .executeTakeFirst();
      return r?.user_id;
    },

    /** The user's custom identifier, if they have one. */
    async ofUser(userId: string): Promise<string | undefined> {
      const r = await db
        .selectFrom('user_custom_identifiers')
        .select('custom_identifier')
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return r?.custom_identifier;
    },

    /** The custom identifiers of these users, by user id. */
    async ofUsers(userIds: readonly string[]): Promise<Map<string, string>> {
      if (!userIds.length) return new Map();
      const rows = await db
        .selectFrom('user_custom_identifiers')
        .select(['user_id', 'custom_identifier'])
        .where('user_id', 'in', userIds)
        .execute();
      return new Map(rows.map((r) => [r.user_id, r.custom_identifier]));
    },

    /**
     * Sets (or, with null, removes) the user's custom identifier; one taken by another user is a unique
     * violation. Run it in a transaction: it deletes, then inserts.
     */
    async set(userId: string, customIdentifier: string | null, now: number): Promise<void> {
      await db.deleteFrom('user_custom_identifiers').where('user_id', '=', userId).execute();
      if (customIdentifier === null) return;
      await db
        .insertInto('user_custom_identifiers')
        .values({ custom_identifier: customIdentifier, user_id: userId, created_at: now })
        .execute();
    },
  };
}
