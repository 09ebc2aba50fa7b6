import type { Kysely } from 'kysely';

/**
 * Webhook operations (issue #35): each endpoint's health, kept by the sender as attempts end (the
 * failures in a row, since when it has been failing, its last success and failure) and why and when
 * Ward disabled it on its own (an endpoint failing for a day). Columns with defaults or nullable, so
 * the code before them still runs (expand only). The `webhooks` change counter (its row is made at its
 * first bump, sql/versions.ts) tells every process's sender of a change made elsewhere.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('webhook_endpoints')
    .addColumn('consecutive_failures', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  for (const column of ['failing_since', 'last_success_at', 'last_failure_at', 'disabled_at'])
    await db.schema.alterTable('webhook_endpoints').addColumn(column, 'bigint').execute();
  await db.schema.alterTable('webhook_endpoints').addColumn('disabled_reason', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const column of [
    'disabled_reason',
    'disabled_at',
    'last_failure_at',
    'last_success_at',
    'failing_since',
    'consecutive_failures',
  ])
    await db.schema.alterTable('webhook_endpoints').dropColumn(column).execute();
}
