import type { Kysely, Selectable, Updateable } from 'kysely';
import type { Database, WebhookEndpointsTable } from '../schema.js';

export type WebhookEndpointRow = Selectable<WebhookEndpointsTable>;

/** The webhook endpoints a site registered (management API, config file). */
export function webhookEndpointsRepo(db: Kysely<Database>) {
  return {
    async insert(row: WebhookEndpointRow): Promise<void> {
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
