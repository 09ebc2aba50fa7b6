import type { Kysely } from 'kysely';

const ms = 'bigint' as const;

/**
 * Blocking hooks (issue #35, item 5): the URLs a site registered for a pre-event (`before.signup`,
 * `before.token`), each with its timeout, failure policy and signing secret (sealed with the master
 * key), and one row per call Ward made to a hook: its outcome, the answer's status, latency and first
 * kilobyte, as webhook attempts are kept.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('hooks')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('event', 'varchar(32)', (c) => c.notNull())
    .addColumn('timeout_ms', 'integer', (c) => c.notNull())
    .addColumn('failure_policy', 'varchar(16)', (c) => c.notNull())
    .addColumn('enabled', 'integer', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('secret_sealed', 'text', (c) => c.notNull())
    .addColumn('created_at', ms, (c) => c.notNull())
    .addColumn('updated_at', ms, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('hooks_event').on('hooks').columns(['event', 'enabled']).execute();
  await db.schema
    .createTable('hook_calls')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('hook_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('event', 'varchar(32)', (c) => c.notNull())
    .addColumn('at', ms, (c) => c.notNull())
    .addColumn('seq', ms, (c) => c.notNull())
    .addColumn('outcome', 'varchar(16)', (c) => c.notNull())
    .addColumn('status', 'integer')
    .addColumn('latency_ms', 'integer', (c) => c.notNull())
    .addColumn('error', 'text')
    .addColumn('response', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('hook_calls_hook').on('hook_calls').columns(['hook_id', 'seq']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('hook_calls').execute();
  await db.schema.dropTable('hooks').execute();
}
