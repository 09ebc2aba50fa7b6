import { sql, type Kysely } from 'kysely';

/**
 * Users with a console role (few among many): every start asks whether an Administrator exists, and
 * without an index that is a scan of the whole users table (150 ms at a million users).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('users_role').on('users').column('role').where(sql.ref('role'), 'is not', null).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('users_role').execute();
}
