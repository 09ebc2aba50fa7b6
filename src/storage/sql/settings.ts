import type { Kysely } from 'kysely';
import type { Database } from '../schema.js';

export function settingsRepo(db: Kysely<Database>) {
  return {
    async get<T>(key: string): Promise<T | undefined> {
      const r = await db.selectFrom('settings').select('value').where('key', '=', key).executeTakeFirst();
      return r ? (JSON.parse(r.value) as T) : undefined;
    },
    async put(key: string, value: unknown, now: number): Promise<void> {
      const v = JSON.stringify(value);
      await db
        .insertInto('settings')
        .values({ key, value: v, updated_at: now })
        .onConflict((oc) => oc.column('key').doUpdateSet({ value: v, updated_at: now }))
        .execute();
    },
  };
}
