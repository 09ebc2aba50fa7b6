import type { Kysely } from 'kysely';

/**
 * First- and third-party clients and consent (issue 39). Client columns added with defaults so the
 * code before them still runs on the new schema (expand only): `first_party` (1 for every existing
 * client: nothing changes for them), and what a consent page shows of a third-party app (its logo and
 * links, null when not set). `consents`: the scopes a user granted a third-party client, one row per
 * user and client, widened when the user grants more; deleting the row is revoking the consent.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('clients')
    .addColumn('first_party', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
  for (const column of ['logo_uri', 'client_uri', 'policy_uri', 'tos_uri'])
    await db.schema.alterTable('clients').addColumn(column, 'text').execute();
  await db.schema
    .createTable('consents')
    .addColumn('user_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('client_id', 'varchar(128)', (c) => c.notNull())
    .addColumn('scopes', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('consents_pk', ['user_id', 'client_id'])
    .execute();
  await db.schema.createIndex('consents_client').on('consents').column('client_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('consents').execute();
  for (const column of ['tos_uri', 'policy_uri', 'client_uri', 'logo_uri', 'first_party'])
    await db.schema.alterTable('clients').dropColumn(column).execute();
}
