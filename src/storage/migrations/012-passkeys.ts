import type { Kysely } from 'kysely';

/**
 * Passkeys (WebAuthn credentials): one row per registered authenticator credential, its public key,
 * sign counter and backup flags. Ceremony challenges live in one_time_tokens (their own kinds).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('passkeys')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('user_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('credential_id', 'varchar(1400)', (c) => c.notNull().unique())
    .addColumn('public_key', 'text', (c) => c.notNull())
    .addColumn('counter', 'bigint', (c) => c.notNull())
    .addColumn('transports', 'text', (c) => c.notNull())
    .addColumn('backed_up', 'integer', (c) => c.notNull())
    .addColumn('device_type', 'varchar(16)', (c) => c.notNull())
    .addColumn('friendly_name', 'varchar(200)', (c) => c.notNull())
    .addColumn('aaguid', 'varchar(36)')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('last_used_at', 'bigint')
    .execute();
  await db.schema.createIndex('passkeys_user').on('passkeys').column('user_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('passkeys').execute();
}
