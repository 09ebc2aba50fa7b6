import type { Kysely } from 'kysely';

/**
 * API resources and audience-bound access tokens (issue 39, RFC 8707 / RFC 9068). Expand only:
 * `api_resources` holds the APIs an administrator registered (their identifier URI, scopes, token
 * format and access token lifetime); `grants.resource` and `authorization_codes.resource` carry the
 * resource a grant was made for (null: no resource named, the sealed tokens of before), so a refresh
 * keeps the audience. Code before this migration never reads the new columns.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('grants').addColumn('resource', 'varchar(2048)').execute();
  await db.schema.alterTable('authorization_codes').addColumn('resource', 'varchar(2048)').execute();
  await db.schema
    .createTable('api_resources')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('identifier', 'varchar(2048)', (c) => c.notNull().unique())
    .addColumn('name', 'varchar(200)', (c) => c.notNull())
    .addColumn('scopes', 'text', (c) => c.notNull())
    .addColumn('token_format', 'varchar(16)', (c) => c.notNull())
    .addColumn('access_token_ttl', 'integer')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('authorization_codes').dropColumn('resource').execute();
  await db.schema.alterTable('grants').dropColumn('resource').execute();
  await db.schema.dropTable('api_resources').execute();
}
