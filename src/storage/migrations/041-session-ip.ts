import type { Kysely } from 'kysely';

/**
 * The address a session signed in from (issue 38, the user's sign-ins): the account's list of sessions
 * shows an approximate place for it when a local GeoIP database is configured (WARD_GEOIP_DATABASE).
 * Nullable (expand only): the sessions opened before it, and by code before it, show no place.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('sessions').addColumn('ip', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('sessions').dropColumn('ip').execute();
}
