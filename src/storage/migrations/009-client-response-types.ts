import type { Kysely } from 'kysely';

/** The response types each client may use at /oauth/authorize; existing clients keep `code` only. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('clients')
    .addColumn('response_types', 'text', (c) => c.notNull().defaultTo('["code"]'))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('clients').dropColumn('response_types').execute();
}
