import type { Kysely } from 'kysely';

/**
 * Account codes: what Ward sends to an address to prove it is the user's (email and phone
 * verification, password reset, a change of email or phone). One row per message: a short code the
 * user types and a long link token, each stored only as a keyed hash, bound to a purpose, a user and
 * the address it went to (and to a user, except a passwordless sign-in that may create one); a newer
 * row of the same purpose and user, or address, supersedes it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('account_codes')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('purpose', 'varchar(32)', (c) => c.notNull())
    .addColumn('user_id', 'varchar(64)')
    .addColumn('channel', 'varchar(8)', (c) => c.notNull())
    .addColumn('destination', 'varchar(320)', (c) => c.notNull())
    .addColumn('code_hmac', 'varchar(64)', (c) => c.notNull())
    .addColumn('link_digest', 'varchar(64)', (c) => c.unique())
    .addColumn('client_id', 'varchar(255)')
    .addColumn('data', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull())
    .addColumn('max_attempts', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('code_expires_at', 'bigint', (c) => c.notNull())
    .addColumn('link_expires_at', 'bigint', (c) => c.notNull())
    .addColumn('consumed_at', 'bigint')
    .addColumn('superseded_at', 'bigint')
    .execute();
  await db.schema
    .createIndex('account_codes_address')
    .on('account_codes')
    .columns(['purpose', 'destination'])
    .execute();
  await db.schema.createIndex('account_codes_user').on('account_codes').columns(['user_id', 'purpose']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('account_codes').execute();
}
