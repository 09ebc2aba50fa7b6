import type { Kysely, Selectable } from 'kysely';
import type { Database, IdentitiesTable } from '../schema.js';

export type IdentityRow = Selectable<IdentitiesTable>;

export function identitiesRepo(db: Kysely<Database>) {
  return {
    async find(provider: string, subject: string): Promise<IdentityRow | undefined> {
      return db.selectFrom('identities').selectAll().where('provider', '=', provider).where('subject', '=', subject).executeTakeFirst();
    },
    async listOfUser(userId: string): Promise<IdentityRow[]> {
      return db.selectFrom('identities').selectAll().where('user_id', '=', userId).orderBy('created_at').execute();
    },
    /** Links an identity; a second link of the same provider subject is a unique violation. */
    async insert(i: IdentityRow): Promise<void> {
      await db.insertInto('identities').values(i).execute();
    },
    async delete(id: string, userId: string): Promise<boolean> {
      const r = await db.deleteFrom('identities').where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
      return Number(r.numDeletedRows) === 1;
    },
  };
}
