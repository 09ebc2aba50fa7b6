import type { Kysely } from 'kysely';

/**
 * Dynamic Client Registration (RFC 7591 / 7592, issue 39): one row per client that registered itself,
 * beside its row of `clients`. It holds what the client's row has no column for: the digest of its
 * registration access token (never the token), its token endpoint authentication method, and the
 * rest of the metadata it registered (client_name, contacts, software_id, ...), as JSON. Expand only.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('client_registrations')
    .addColumn('client_id', 'varchar(128)', (c) => c.primaryKey())
    .addColumn('token_digest', 'varchar(128)', (c) => c.notNull())
    .addColumn('auth_method', 'varchar(32)', (c) => c.notNull())
    .addColumn('metadata', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('client_registrations').execute();
}
