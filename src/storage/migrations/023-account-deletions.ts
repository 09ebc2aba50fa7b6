import type { Kysely } from 'kysely';

/**
 * A user's own deletion of their account, waiting for its grace period (issue 36, account setting
 * self_service.deletion_grace_days): one row per user, erased with the user (storage/sql/user-erasure.ts).
 * The account is erased once `due_at` passes (self-service/account-deletion.ts); a sign-in removes the row.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('account_deletions')
    .addColumn('user_id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('requested_at', 'bigint', (c) => c.notNull())
    .addColumn('due_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('account_deletions_due').on('account_deletions').column('due_at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('account_deletions').execute();
}
