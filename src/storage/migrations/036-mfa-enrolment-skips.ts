import type { Kysely } from 'kysely';

/**
 * The skips of a required second-factor enrolment (account setting `mfa_enrollment: required`,
 * docs/mfa.md#requiring-enrolment): how many times a user without a factor chose "Later" at sign-in,
 * counted against `mfa_enrollment_grace_skips`. One row per user, made at the first skip (expand only:
 * a new table).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('mfa_enrolment_skips')
    .addColumn('user_id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('skips', 'integer', (c) => c.notNull())
    .addColumn('last_skipped_at', 'bigint', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('mfa_enrolment_skips').execute();
}
