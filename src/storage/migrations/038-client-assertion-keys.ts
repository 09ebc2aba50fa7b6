import type { Kysely } from 'kysely';

/**
 * Client authentication by a signed JWT (RFC 7523, OpenID Connect Core 9) and Pushed Authorization
 * Requests (RFC 9126; issue 39 items 5 and 6). Client columns that the code before them never reads
 * (expand only): `token_endpoint_auth_method` (null: a secret, Basic or in the body, as before), the
 * client's public keys as a JWK Set (`jwks`, JSON) or where to fetch them (`jwks_uri`), and
 * `require_pushed_authorization_requests` (0 for every existing client). The used assertions' `jti` and
 * the pushed requests live in one_time_tokens.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  for (const column of ['token_endpoint_auth_method', 'jwks', 'jwks_uri'])
    await db.schema.alterTable('clients').addColumn(column, 'text').execute();
  await db.schema
    .alterTable('clients')
    .addColumn('require_pushed_authorization_requests', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('clients').dropColumn('require_pushed_authorization_requests').execute();
  for (const column of ['jwks_uri', 'jwks', 'token_endpoint_auth_method'])
    await db.schema.alterTable('clients').dropColumn(column).execute();
}
