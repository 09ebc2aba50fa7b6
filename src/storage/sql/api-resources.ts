import type { Kysely, Selectable } from 'kysely';
import type { ApiResourcesTable, Database } from '../schema.js';
import { isUniqueViolation } from './errors.js';

export type ApiResourceRow = Selectable<ApiResourcesTable>;

/** The API resources an administrator registered (resources/service.ts validates what goes in). */
export function apiResourcesRepo(db: Kysely<Database>) {
  return {
    async list(): Promise<ApiResourceRow[]> {
      return db.selectFrom('api_resources').selectAll().orderBy('created_at').orderBy('id').execute();
    },
    async find(id: string): Promise<ApiResourceRow | undefined> {
      return db.selectFrom('api_resources').selectAll().where('id', '=', id).executeTakeFirst();
    },
    /** The resource a `resource` parameter names (compared exactly, as RFC 8707 2 asks of an absolute URI). */
    async findByIdentifier(identifier: string): Promise<ApiResourceRow | undefined> {
      return db.selectFrom('api_resources').selectAll().where('identifier', '=', identifier).executeTakeFirst();
    },
    /** False when another resource already has this identifier. */
    async insert(row: ApiResourceRow): Promise<boolean> {
      try {
        await db.insertInto('api_resources').values(row).execute();
        return true;
      } catch (e) {
        if (isUniqueViolation(e)) return false;
        throw e;
      }
    },
    /** The updated row; undefined when there is none; 'taken' when the new identifier is another's. */
    async update(
      id: string,
      changes: Partial<Omit<ApiResourceRow, 'id' | 'created_at'>>,
    ): Promise<ApiResourceRow | undefined | 'taken'> {
      try {
        await db.updateTable('api_resources').set(changes).where('id', '=', id).execute();
      } catch (e) {
        if (isUniqueViolation(e)) return 'taken';
        throw e;
      }
      return db.selectFrom('api_resources').selectAll().where('id', '=', id).executeTakeFirst();
    },
    async remove(id: string): Promise<boolean> {
      const r = await db.deleteFrom('api_resources').where('id', '=', id).executeTakeFirst();
      return Number(r.numDeletedRows) > 0;
    },
  };
}
