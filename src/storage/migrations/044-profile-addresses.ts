import type { Kysely } from 'kysely';

/**
 * The rest of the ReachFive profile (issue 37, item 2) on `user_profiles`: `addresses` (a JSON array of
 * ReachFive postal addresses), `company`, `bio` and `lite_only` (a profile without credentials). Nullable
 * columns only: adding them changes no row and takes no long lock; a release that does not know them
 * neither reads nor writes them.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  // One statement per column: SQLite adds one column per ALTER TABLE.
  await db.schema.alterTable('user_profiles').addColumn('addresses', 'text').execute();
  await db.schema.alterTable('user_profiles').addColumn('company', 'varchar(200)').execute();
  await db.schema.alterTable('user_profiles').addColumn('bio', 'text').execute();
  await db.schema.alterTable('user_profiles').addColumn('lite_only', 'integer').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const c of ['addresses', 'company', 'bio', 'lite_only'])
    await db.schema.alterTable('user_profiles').dropColumn(c).execute();
}
