import type { Kysely } from 'kysely';

const ms = 'bigint' as const;

/**
 * Logout (OpenID Connect RP-Initiated and Back-Channel Logout 1.0): each client's registered
 * post_logout_redirect_uris and back-channel endpoint, and the durable queue of logout tokens still to
 * be delivered (one row per client and ended session, retried until delivered or given up). A row
 * holds who and which session; the logout_token is signed at each attempt, fresh and with the current key.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('clients')
    .addColumn('post_logout_redirect_uris', 'text', (c) => c.notNull().defaultTo('[]'))
    .execute();
  await db.schema.alterTable('clients').addColumn('backchannel_logout_uri', 'text').execute();
  await db.schema
    .alterTable('clients')
    .addColumn('backchannel_logout_session_required', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createTable('logout_deliveries')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('client_id', 'varchar(128)', (c) => c.notNull())
    .addColumn('user_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('sid', 'varchar(64)', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', ms, (c) => c.notNull())
    .addColumn('last_error', 'text')
    .addColumn('created_at', ms, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('logout_deliveries_due').on('logout_deliveries').column('next_attempt_at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('logout_deliveries').execute();
  await db.schema.alterTable('clients').dropColumn('backchannel_logout_session_required').execute();
  await db.schema.alterTable('clients').dropColumn('backchannel_logout_uri').execute();
  await db.schema.alterTable('clients').dropColumn('post_logout_redirect_uris').execute();
}
