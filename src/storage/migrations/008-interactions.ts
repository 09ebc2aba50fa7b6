import type { Kysely } from 'kysely';

const ms = 'bigint' as const;

/**
 * One stored sign-in interaction: the authorization request validated once at /oauth/authorize (or
 * at the step-up API), continued by id from any process. Step-up tokens reference it instead of
 * carrying a copy of the request; step-ups begun before this migration are dropped (they live
 * minutes; the user signs in again).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('interactions')
    .addColumn('digest', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('client_id', 'varchar(128)', (c) => c.notNull())
    .addColumn('request', 'text', (c) => c.notNull())
    .addColumn('browser', 'varchar(64)')
    .addColumn('step', 'varchar(20)', (c) => c.notNull())
    .addColumn('user_id', 'varchar(64)')
    .addColumn('amr', 'text')
    .addColumn('auth_time', ms)
    .addColumn('created_at', ms, (c) => c.notNull())
    .addColumn('expires_at', ms, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('interactions_expiry').on('interactions').column('expires_at').execute();
  await db.deleteFrom('step_ups' as never).execute();
  await db.schema.alterTable('step_ups').addColumn('interaction_digest', 'varchar(64)').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('step_ups').dropColumn('interaction_digest').execute();
  await db.schema.dropTable('interactions').execute();
}
