import { type Insertable, type Kysely, type Selectable, sql, type Updateable } from 'kysely';
import type { Database, WebhookEndpointsTable } from '../schema.js';

export type WebhookEndpointRow = Selectable<WebhookEndpointsTable>;

/** The webhook endpoints a site registered (management API, config file). */
export function webhookEndpointsRepo(db: Kysely<Database>) {
  return {
    async insert(row: Insertable<WebhookEndpointsTable>): Promise<void> {
      await db.insertInto('webhook_endpoints').values(row).execute();
    },
    async find(id: string): Promise<WebhookEndpointRow | undefined> {
      return db.selectFrom('webhook_endpoints').selectAll().where('id', '=', id).executeTakeFirst();
    },
    async list(): Promise<WebhookEndpointRow[]> {
      return db.selectFrom('webhook_endpoints').selectAll().orderBy('created_at').orderBy('id').execute();
    },
    /** The endpoints that take events now, with only what fanning an event out needs. */
    async enabled(): Promise<Array<{ id: string; events: string }>> {
      return db.selectFrom('webhook_endpoints').select(['id', 'events']).where('enabled', '=', 1).execute();
    },
    /** Whether any endpoint takes events now (the sender polls its queue only then). */
    async anyEnabled(): Promise<boolean> {
      const row = await db
        .selectFrom('webhook_endpoints')
        .select('id')
        .where('enabled', '=', 1)
        .limit(1)
        .executeTakeFirst();
      return row !== undefined;
    },
    /** An attempt succeeded: the endpoint's failure streak ends. */
    async succeeded(id: string, at: number): Promise<void> {
      await db
        .updateTable('webhook_endpoints')
        .set({ consecutive_failures: 0, failing_since: null, last_success_at: at })
        .where('id', '=', id)
        .execute();
    },
    /** An attempt failed: the streak grows (started now if there was none). Answers the endpoint after it. */
    async failed(id: string, at: number): Promise<WebhookEndpointRow | undefined> {
      await db
        .updateTable('webhook_endpoints')
        .set({
          consecutive_failures: sql<number>`consecutive_failures + 1`,
          failing_since: sql<number>`coalesce(failing_since, ${at})`,
          last_failure_at: at,
        })
        .where('id', '=', id)
        .execute();
      return db.selectFrom('webhook_endpoints').selectAll().where('id', '=', id).executeTakeFirst();
    },
    /**
     * Disabled by Ward itself, once: answers false when it was no longer enabled (another process, or
     * an operator, came first), so the notice goes out once.
     */
    async disableFailing(id: string, at: number): Promise<boolean> {
      const r = await db
        .updateTable('webhook_endpoints')
        .set({ enabled: 0, disabled_reason: 'failing', disabled_at: at, updated_at: at })
        .where('id', '=', id)
        .where('enabled', '=', 1)
        .executeTakeFirst();
      return Number(r.numUpdatedRows) > 0;
    },
    async update(id: string, patch: Updateable<WebhookEndpointsTable>): Promise<boolean> {
      const r = await db.updateTable('webhook_endpoints').set(patch).where('id', '=', id).executeTakeFirst();
      return Number(r.numUpdatedRows) > 0;
    },
    async remove(id: string): Promise<boolean> {
      const r = await db.deleteFrom('webhook_endpoints').where('id', '=', id).executeTakeFirst();
      return Number(r.numDeletedRows) > 0;
    },
  };
}
