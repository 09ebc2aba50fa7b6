import type { Kysely } from 'kysely';

/**
 * Two client columns (issue 33), added with defaults so the code before them still runs on the new
 * schema (expand only): `custom_token_login`, whether the client accepts custom token sign-in (off
 * for every existing client); `tokens_not_before`, the time (ms) before which its client_credentials
 * access tokens are refused (0: none refused until its secret or scopes next change).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('clients')
    .addColumn('custom_token_login', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('clients')
    .addColumn('tokens_not_before', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('clients').dropColumn('tokens_not_before').execute();
  await db.schema.alterTable('clients').dropColumn('custom_token_login').execute();
}
