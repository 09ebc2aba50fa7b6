import type { Kysely } from 'kysely';

/**
 * Every change of a user's consent (issue 37, item 1), kept: the new state, the version and language,
 * who reported it (end_user, managed, import) and when. Shown by the management API and in the user's
 * data download; it goes with the user when erased. A new table: nothing existing is locked.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('user_consent_history')
    .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
    .addColumn('user_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('consent_key', 'varchar(64)', (c) => c.notNull())
    .addColumn('granted', 'integer', (c) => c.notNull())
    .addColumn('waiting_double_accept', 'integer', (c) => c.notNull())
    .addColumn('consent_type', 'varchar(20)', (c) => c.notNull())
    .addColumn('version_id', 'integer', (c) => c.notNull())
    .addColumn('language', 'varchar(35)', (c) => c.notNull())
    .addColumn('reporter', 'varchar(20)', (c) => c.notNull())
    .addColumn('at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('user_consent_history_user')
    .on('user_consent_history')
    .columns(['user_id', 'at'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('user_consent_history').execute();
}
