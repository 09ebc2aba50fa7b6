import type { Kysely } from 'kysely';

/**
 * A user's custom identifier (issue 37, item 3): a name of the site's choosing (a member number, a
 * username) the user may sign in with where the account allows it. One per user, unique across users,
 * stored normalised (accounts/identifiers.ts). Its own table rather than a column of `users`: a unique
 * index on the existing `users` table would lock it for its build (docs/operations.md#upgrades). It goes
 * with the user when erased.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('user_custom_identifiers')
    .addColumn('custom_identifier', 'varchar(255)', (c) => c.primaryKey())
    .addColumn('user_id', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('user_custom_identifiers').execute();
}
