import { type Kysely } from 'kysely';

const ms = 'bigint' as const;

/**
 * Access tokens become sealed and self-contained (protocol/access-token-codec.ts): no row per token.
 * What remains is the list of tokens revoked one by one (RFC 7009), kept until they would expire.
 * Tokens issued before this migration stop working (their rows are gone): clients use their refresh
 * token or sign in again.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('revoked_access_tokens')
    .addColumn('jti', 'varchar(32)', (c) => c.primaryKey())
    .addColumn('expires_at', ms, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('revoked_access_tokens_expiry')
    .on('revoked_access_tokens')
    .column('expires_at')
    .execute();
  await db.schema.dropTable('access_tokens').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('access_tokens')
    .addColumn('digest', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('grant_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('client_id', 'varchar(128)', (c) => c.notNull())
    .addColumn('user_id', 'varchar(64)')
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('auth_time', ms)
    .addColumn('amr', 'text', (c) => c.notNull())
    .addColumn('created_at', ms, (c) => c.notNull())
    .addColumn('expires_at', ms, (c) => c.notNull())
    .addColumn('revoked_at', ms)
    .execute();
  await db.schema.createIndex('access_tokens_grant').on('access_tokens').column('grant_id').execute();
  await db.schema.dropTable('revoked_access_tokens').execute();
}
