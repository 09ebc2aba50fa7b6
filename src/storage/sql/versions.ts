import { sql, type Kysely } from 'kysely';
import type { Database } from '../schema.js';

export type Area = 'keys' | 'clients' | 'account' | 'social' | 'webhooks' | 'hooks';

/** Change counters: a writer bumps its area inside its transaction; every process polls them. */
export function versionsRepo(db: Kysely<Database>) {
  return {
    async bump(area: Area): Promise<void> {
      // An area added after the first release (webhooks, hooks) gets its row at its first bump.
      await db
        .insertInto('versions')
        .values({ area, version: 1 })
        .onConflict((oc) => oc.column('area').doUpdateSet({ version: sql<number>`versions.version + 1` }))
        .execute();
    },
    async all(): Promise<Record<string, number>> {
      const rows = await db.selectFrom('versions').selectAll().execute();
      return Object.fromEntries(rows.map((r) => [r.area, Number(r.version)]));
    },
  };
}
