import type { Kysely } from 'kysely';

/**
 * The kind of second factor each user answered with last (issue 38, item 4): the hosted second-factor
 * page preselects it. A new table (expand only), one row per user, replaced at each second factor.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('mfa_last_factors')
    .addColumn('user_id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('kind', 'varchar(20)', (c) => c.notNull())
    .addColumn('used_at', 'bigint', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('mfa_last_factors').execute();
}
