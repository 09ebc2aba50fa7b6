import type { Kysely } from 'kysely';

/** The step-up action of an authorization code (033 has why it is a migration of its own). */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('authorization_codes').addColumn('step_up_action', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('authorization_codes').dropColumn('step_up_action').execute();
}
