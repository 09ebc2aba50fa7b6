import type { Kysely } from 'kysely';

/**
 * Users' consents (issue 37, item 1): one row per user and consent definition key (the account's
 * `consents` settings), the state the Core SDK reads (granted, waiting for a double opt-in, the
 * version and language agreed to, who reported it). Not the OAuth consents of table `consents`
 * (scopes granted to clients). A new table: nothing existing is locked. It goes with the user when erased.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('user_consents')
    .addColumn('user_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('consent_key', 'varchar(64)', (c) => c.notNull())
    .addColumn('granted', 'integer', (c) => c.notNull())
    .addColumn('waiting_double_accept', 'integer', (c) => c.notNull())
    .addColumn('consent_type', 'varchar(20)', (c) => c.notNull())
    .addColumn('version_id', 'integer', (c) => c.notNull())
    .addColumn('language', 'varchar(35)', (c) => c.notNull())
    .addColumn('reporter', 'varchar(20)', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('user_consents_pk', ['user_id', 'consent_key'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('user_consents').execute();
}
