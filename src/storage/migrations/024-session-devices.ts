import type { Kysely } from 'kysely';

/**
 * The browser of a session (issue 38, the user's sign-ins): the User-Agent header it signed in with, so
 * the account's list of sessions can say "Firefox on Linux". Nullable (expand only): the sessions opened
 * before it, and by code before it, simply show no browser.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('sessions').addColumn('user_agent', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('sessions').dropColumn('user_agent').execute();
}
