import { sql, type Kysely } from 'kysely';

/** Social providers in the store (config file and management API), the secret sealed. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('social_providers')
    .addColumn('name', 'varchar(40)', (c) => c.primaryKey())
    .addColumn('definition', 'text', (c) => c.notNull())
    .addColumn('secret_sealed', 'text', (c) => c.notNull())
    .addColumn('source', 'varchar(16)', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await sql`insert into versions (area, version) values ('social', 0)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`delete from versions where area = 'social'`.execute(db);
  await db.schema.dropTable('social_providers').execute();
}
