import type { Kysely } from 'kysely';

/**
 * Signed request objects (RFC 9101), DPoP-bound clients (RFC 9449 5.2) and API resources for
 * client_credentials (RFC 8707; issue 39 items 3 and 6). Client columns that the code before them
 * never reads (expand only): `request_object_signing_alg` (null: any of Ward's request object
 * algorithms), `require_signed_request_object` and `dpop_bound_access_tokens` (0 for every existing
 * client), and `client_credentials_resources` (JSON: the API resources, and their scopes, a
 * client_credentials token may be for; null: none).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  for (const column of ['request_object_signing_alg', 'client_credentials_resources'])
    await db.schema.alterTable('clients').addColumn(column, 'text').execute();
  for (const column of ['require_signed_request_object', 'dpop_bound_access_tokens'])
    await db.schema
      .alterTable('clients')
      .addColumn(column, 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const column of [
    'dpop_bound_access_tokens',
    'require_signed_request_object',
    'client_credentials_resources',
    'request_object_signing_alg',
  ])
    await db.schema.alterTable('clients').dropColumn(column).execute();
}
