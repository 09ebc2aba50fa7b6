import type { Kysely } from 'kysely';

/**
 * The last names of the ReachFive profile (issue 37, item 2) on `user_profiles`: `name` (the full name as
 * the user writes it; the OpenID `name` claim), `profile_url` (the `profile` claim) and `username` (the
 * `preferred_username` claim: a display name, not unique and not a sign-in identifier). Nullable columns
 * only: adding them changes no row and takes no long lock; a release that does not know them neither reads
 * nor writes them.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  // One statement per column: SQLite adds one column per ALTER TABLE.
  await db.schema.alterTable('user_profiles').addColumn('name', 'varchar(300)').execute();
  await db.schema.alterTable('user_profiles').addColumn('profile_url', 'varchar(2048)').execute();
  await db.schema.alterTable('user_profiles').addColumn('username', 'varchar(100)').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const c of ['name', 'profile_url', 'username'])
    await db.schema.alterTable('user_profiles').dropColumn(c).execute();
}
