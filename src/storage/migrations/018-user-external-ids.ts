import type { Kysely } from 'kysely';

/**
 * The id a user had in the system they were imported from (issue 36): an import in `upsert` mode
 * finds them by it again. One per user, unique across users; it goes with the user when erased.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('user_external_ids')
    .addColumn('external_id', 'varchar(255)', (c) => c.primaryKey())
    .addColumn('user_id', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('user_external_ids').execute();
}
