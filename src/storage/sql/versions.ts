import { sql, type Kysely } from 'kysely';
import type { Database } from '../schema.js';

export type Area = 'keys' | 'clients' | 'account' | 'social' | 'webhooks';

/** Change counters: a writer bumps its area inside its transaction; every process polls them. */
export function versionsRepo(db: Kysely<Database>) {
  return {
    async bump(area: Area): Promise<void> {
      await db.updateTable('versions').set({ version: sql<number>`version + 1` }).where('area', '=', area).execute();
    },
    async all(): Promise<Record<string, number>> {
      const rows = await db.selectFrom('versions').selectAll().execute();
      return Object.fromEntries(rows.map((r) => [r.area, Number(r.version)]));
    },
  };
}
