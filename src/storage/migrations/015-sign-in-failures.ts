import type { Kysely } from 'kysely';

/**
 * Per-account protection (NIST SP 800-63B 5.2.2): the failed password sign-ins of one identifier,
 * whether or not an account has it. `key` is the SHA-256 of the normalized identifier (no address in
 * clear); `blocked_until` is when the next attempt is allowed (a growing delay, then a lockout);
 * `locked_at` is when the current lockout began (one notice per lockout). A success deletes the row.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('sign_in_failures')
    .addColumn('key', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('failures', 'integer', (c) => c.notNull())
    .addColumn('blocked_until', 'bigint', (c) => c.notNull())
    .addColumn('locked_at', 'bigint')
    .addColumn('last_failure_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sign_in_failures_expiry').on('sign_in_failures').column('expires_at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('sign_in_failures').execute();
}
