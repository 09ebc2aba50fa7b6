import type { Kysely } from 'kysely';

/** Step-up MFA: second factors, step_up tokens, verification challenges, trusted devices. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('mfa_credentials')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('user_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('type', 'varchar(8)', (c) => c.notNull())
    .addColumn('destination', 'varchar(320)', (c) => c.notNull())
    .addColumn('friendly_name', 'varchar(200)')
    .addColumn('verified_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('mfa_credentials_unique', ['user_id', 'type', 'destination'])
    .execute();
  await db.schema.createIndex('mfa_credentials_user').on('mfa_credentials').column('user_id').execute();

  await db.schema
    .createTable('step_ups')
    .addColumn('digest', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('user_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('client_id', 'varchar(128)', (c) => c.notNull())
    .addColumn('params', 'text', (c) => c.notNull())
    .addColumn('base_amr', 'text', (c) => c.notNull())
    .addColumn('requests', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('consumed_at', 'bigint')
    .execute();

  await db.schema
    .createTable('challenges')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('user_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('purpose', 'varchar(16)', (c) => c.notNull())
    .addColumn('step_up_digest', 'varchar(64)')
    .addColumn('credential_id', 'varchar(64)')
    .addColumn('channel', 'varchar(8)', (c) => c.notNull())
    .addColumn('destination', 'varchar(320)', (c) => c.notNull())
    .addColumn('code_hmac', 'varchar(64)', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('max_attempts', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('consumed_at', 'bigint')
    .addColumn('superseded_at', 'bigint')
    .execute();
  await db.schema.createIndex('challenges_step_up').on('challenges').column('step_up_digest').execute();
  await db.schema.createIndex('challenges_user').on('challenges').columns(['user_id', 'purpose']).execute();

  await db.schema
    .createTable('trusted_devices')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('user_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('digest', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('name', 'varchar(200)')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('revoked_at', 'bigint')
    .execute();
  await db.schema.createIndex('trusted_devices_user').on('trusted_devices').column('user_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const t of ['trusted_devices', 'challenges', 'step_ups', 'mfa_credentials'])
    await db.schema.dropTable(t).execute();
}
