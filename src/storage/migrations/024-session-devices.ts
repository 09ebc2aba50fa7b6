import type { Kysely } from 'kysely';

/**
 * The browser of a session (issue 38, the user's sign-ins): the User-Agent header it signed in with, so
 * the account page and `/identity/v1/me/sessions` can say "Firefox on Linux". Nullable (expand only):
 * the sessions opened before it, and by code before it, simply show no browser. Two indexes let a user's
 * recent security events be read from the audit trail without scanning it: those they did (actor) and
 * those an administrator did to their account (target).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('sessions').addColumn('user_agent', 'text').execute();
  await db.schema.createIndex('audit_events_actor').on('audit_events').columns(['actor_id', 'at']).execute();
  await db.schema.createIndex('audit_events_target').on('audit_events').columns(['target', 'at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('audit_events_target').execute();
  await db.schema.dropIndex('audit_events_actor').execute();
  await db.schema.alterTable('sessions').dropColumn('user_agent').execute();
}
