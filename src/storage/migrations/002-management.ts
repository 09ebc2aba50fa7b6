import { sql, type Kysely } from 'kysely';

/** Management: client grant types and management scopes, the audit log, change versions. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('clients')
    .addColumn('grant_types', 'text', (c) => c.notNull().defaultTo('["authorization_code","refresh_token"]'))
    .execute();
  await db.schema
    .alterTable('clients')
    .addColumn('management_scopes', 'text', (c) => c.notNull().defaultTo('[]'))
    .execute();
  await db.schema
    .createTable('audit_events')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('at', 'bigint', (c) => c.notNull())
    .addColumn('actor_type', 'varchar(16)', (c) => c.notNull())
    .addColumn('actor_id', 'varchar(160)', (c) => c.notNull())
    .addColumn('action', 'varchar(64)', (c) => c.notNull())
    .addColumn('target', 'varchar(400)')
    .addColumn('ip', 'varchar(64)')
    .addColumn('outcome', 'varchar(16)', (c) => c.notNull())
    .addColumn('details', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('audit_events_at').on('audit_events').column('at').execute();
  await db.schema.createIndex('audit_events_action').on('audit_events').columns(['action', 'at']).execute();
  // One counter per cached area (keys, clients, account): bumped in the transaction that changes
  // it, polled by every process to refresh its caches.
  await db.schema
    .createTable('versions')
    .addColumn('area', 'varchar(32)', (c) => c.primaryKey())
    .addColumn('version', 'bigint', (c) => c.notNull())
    .execute();
  // PK-11: redemption looks for another code of the same client with the same challenge.
  await db.schema
    .createIndex('authorization_codes_challenge')
    .on('authorization_codes')
    .columns(['client_id', 'code_challenge'])
    .execute();
  await db.schema.createIndex('authorization_codes_expiry').on('authorization_codes').column('expires_at').execute();
  await db.schema.createIndex('one_time_tokens_expiry').on('one_time_tokens').column('expires_at').execute();
  await db.schema.createIndex('rate_counters_expiry').on('rate_counters').column('expires_at').execute();
  // At most one current key per key set, whatever the writers do.
  await sql`create unique index signing_keys_one_current on signing_keys (key_set) where status = 'current'`.execute(
    db,
  );
  await sql`insert into versions (area, version) values ('keys', 0), ('clients', 0), ('account', 0)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('signing_keys_one_current').execute();
  for (const i of [
    'authorization_codes_challenge',
    'authorization_codes_expiry',
    'one_time_tokens_expiry',
    'rate_counters_expiry',
  ])
    await db.schema.dropIndex(i).execute();
  await db.schema.dropTable('versions').execute();
  await db.schema.dropTable('audit_events').execute();
  await db.schema.alterTable('clients').dropColumn('management_scopes').execute();
  await db.schema.alterTable('clients').dropColumn('grant_types').execute();
}
