import type { Kysely } from 'kysely';

/**
 * The step-up action (issue 37, item 6): the sensitive operation a step-up was done for, carried from
 * the step-up to its grant and so to every token of the grant. A nullable column (expand only): grants
 * made before, or without an action, carry none. One table per migration: a migration that locked
 * grants and authorization_codes together deadlocked with a running release's code-and-grant insert
 * (docs/operations.md#upgrades); 034 does the codes.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('grants').addColumn('step_up_action', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('grants').dropColumn('step_up_action').execute();
}
