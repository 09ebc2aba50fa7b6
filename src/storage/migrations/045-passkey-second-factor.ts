import type { Kysely } from 'kysely';

/**
 * Marks a WebAuthn credential registered as a second factor (issue 38: the required enrolment page's
 * security key), which `mfa_required: always` then asks at sign-in. Defaulted to 0 (expand only): every
 * passkey registered before, and every passkey registered as a first factor, stays unmarked.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('passkeys')
    .addColumn('second_factor', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('passkeys').dropColumn('second_factor').execute();
}
