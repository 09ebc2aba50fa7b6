import type { Kysely, Selectable, Updateable } from 'kysely';
import type { Database, HookCallsTable, HooksTable } from '../schema.js';

export type HookRow = Selectable<HooksTable>;
export type HookCallRow = Selectable<HookCallsTable>;

/** The blocking hooks a site registered (management API). */
export function hooksRepo(db: Kysely<Database>) {
  return {
    async insert(row: HookRow): Promise<void> {
      await db.insertInto('hooks').values(row).execute();
    },
    async find(id: string): Promise<HookRow | undefined> {
      return db.selectFrom('hooks').selectAll().where('id', '=', id).executeTakeFirst();
    },
    async list(): Promise<HookRow[]> {
      return db.selectFrom('hooks').selectAll().orderBy('created_at').orderBy('id').execute();
    },
    /** The enabled hooks of one event, in the order they run (oldest first). */
    async enabledFor(event: string): Promise<HookRow[]> {
      return db
        .selectFrom('hooks')
        .selectAll()
        .where('event', '=', event)
        .where('enabled', '=', 1)
        .orderBy('created_at')
        .orderBy('id')
        .execute();
    },
    async update(id: string, patch: Updateable<HooksTable>): Promise<boolean> {
      const r = await db.updateTable('hooks').set(patch).where('id', '=', id).executeTakeFirst();
      return Number(r.numUpdatedRows) > 0;
    },
    async remove(id: string): Promise<boolean> {
      const r = await db.deleteFrom('hooks').where('id', '=', id).executeTakeFirst();
      return Number(r.numDeletedRows) > 0;
    },
  };
}

/** Every call Ward made to a hook, kept like a webhook attempt. */
export function hookCallsRepo(db: Kysely<Database>) {
  return {
    async record(row: HookCallRow): Promise<void> {
      await db.insertInto('hook_calls').values(row).execute();
    },
    /** A hook's most recent calls, newest first. */
    async listOfHook(hookId: string, limit: number): Promise<HookCallRow[]> {
      return db
        .selectFrom('hook_calls')
        .selectAll()
        .where('hook_id', '=', hookId)
        .orderBy('seq', 'desc')
        .limit(limit)
        .execute();
    },
    async removeOfHook(hookId: string): Promise<void> {
      await db.deleteFrom('hook_calls').where('hook_id', '=', hookId).execute();
    },
  };
}
