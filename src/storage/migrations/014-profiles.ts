import type { Kysely } from 'kysely';

/**
 * User profiles: the standard OIDC claims beyond the names the users table keeps (middle name, nickname,
 * birthdate, gender, locale, picture, website, zoneinfo, postal address as JSON) and the account's custom
 * fields (JSON object). One row per user who has any; no row means an empty profile.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('user_profiles')
    .addColumn('user_id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('middle_name', 'varchar(200)')
    .addColumn('nickname', 'varchar(200)')
    .addColumn('birthdate', 'varchar(10)')
    .addColumn('gender', 'varchar(40)')
    .addColumn('locale', 'varchar(35)')
    .addColumn('picture', 'varchar(2048)')
    .addColumn('website', 'varchar(2048)')
    .addColumn('zoneinfo', 'varchar(64)')
    .addColumn('address', 'text')
    .addColumn('custom_fields', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('user_profiles').execute();
}
