import type { Kysely } from 'kysely';

/**
 * Bulk imports run as jobs (issue 36, accounts/import/import-jobs.ts): one row per job with its state
 * and counts, read by `GET /api/v1/users/import/:id` from any process; and the lines worth a look
 * (refused, skipped, weak hashes), at most 10,000 per job. New tables only (expand-only).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('user_import_jobs')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('mode', 'varchar(16)', (c) => c.notNull())
    .addColumn('format', 'varchar(16)', (c) => c.notNull())
    .addColumn('actor', 'varchar(200)', (c) => c.notNull())
    .addColumn('lines', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('updated', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('skipped', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('refused', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('weak_hashes', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('lines_kept', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('error_code', 'varchar(64)')
    .addColumn('error_message', 'varchar(500)')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('heartbeat_at', 'bigint', (c) => c.notNull())
    .addColumn('finished_at', 'bigint')
    .execute();
  await db.schema.createIndex('user_import_jobs_status').on('user_import_jobs').column('status').execute();
  await db.schema
    .createTable('user_import_job_lines')
    .addColumn('job_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('line', 'integer', (c) => c.notNull())
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('code', 'varchar(64)')
    .addColumn('message', 'varchar(500)')
    .addColumn('user_id', 'varchar(64)')
    .addColumn('weak_hash', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('user_import_job_lines_pk', ['job_id', 'line'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('user_import_job_lines').execute();
  await db.schema.dropTable('user_import_jobs').execute();
}
