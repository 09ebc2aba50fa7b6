import type { Kysely } from 'kysely';

/**
 * Authenticator apps (TOTP, RFC 6238) and recovery codes. A TOTP factor is an `mfa_credentials` row of
 * type `totp` (pending until a first code is verified); its secret lives here, sealed with the master
 * key, with the last time step a code was accepted for (a code is used once). Recovery codes: only
 * their SHA-256, single use, a new set replacing the old.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('mfa_totp_secrets')
    .addColumn('credential_id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('user_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('secret_sealed', 'text', (c) => c.notNull())
    .addColumn('last_step', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('mfa_totp_secrets_user').on('mfa_totp_secrets').column('user_id').execute();

  await db.schema
    .createTable('mfa_recovery_codes')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('user_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('code_hash', 'varchar(64)', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('used_at', 'bigint')
    .execute();
  await db.schema.createIndex('mfa_recovery_codes_user').on('mfa_recovery_codes').column('user_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const t of ['mfa_recovery_codes', 'mfa_totp_secrets']) await db.schema.dropTable(t).execute();
}
