import type { Kysely } from 'kysely';

/**
 * The Device Authorization Grant (RFC 8628, issue 39): one row per device authorization request. The
 * device code is kept as its SHA-256 digest only (the device holds the secret); the user code likewise
 * (normalised first), so neither is in the database in clear. `status`: pending, approved, denied or
 * consumed; once approved it names its grant (the token family the device's tokens belong to) and
 * its user. `interval_seconds` grows by 5 with each slow_down; `last_polled_at` is the last poll.
 * A new table only: expand-only.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('device_authorizations')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('device_code_digest', 'varchar(128)', (c) => c.notNull().unique())
    .addColumn('user_code_digest', 'varchar(128)', (c) => c.notNull())
    .addColumn('client_id', 'varchar(128)', (c) => c.notNull())
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('resource', 'text')
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('interval_seconds', 'integer', (c) => c.notNull())
    .addColumn('last_polled_at', 'bigint')
    .addColumn('user_id', 'varchar(64)')
    .addColumn('grant_id', 'varchar(64)')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('device_authorizations_user_code')
    .on('device_authorizations')
    .column('user_code_digest')
    .execute();
  await db.schema
    .createIndex('device_authorizations_expiry')
    .on('device_authorizations')
    .column('expires_at')
    .execute();
  await db.schema.createIndex('device_authorizations_user').on('device_authorizations').column('user_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('device_authorizations').execute();
}
