import type { Kysely, Selectable } from 'kysely';
import type { Database, IdentitiesTable } from '../schema.js';

export type IdentityRow = Selectable<IdentitiesTable>;

export function identitiesRepo(db: Kysely<Database>) {
  return {
    async find(provider: string, subject: string): Promise<IdentityRow | undefined> {
      return db
        .selectFrom('identities')
        .selectAll()
        .where('provider', '=', provider)
        .where('subject', '=', subject)
        .executeTakeFirst();
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

export type SocialProviderRow = import('kysely').Selectable<import('../schema.js').SocialProvidersTable>;

/** Stored social providers (definition without its secret; the secret sealed). */
export function socialProvidersRepo(db: Kysely<Database>) {
  return {
    async list(): Promise<SocialProviderRow[]> {
      return db.selectFrom('social_providers').selectAll().orderBy('created_at').orderBy('name').execute();
    },
    async find(name: string): Promise<SocialProviderRow | undefined> {
      return db.selectFrom('social_providers').selectAll().where('name', '=', name).executeTakeFirst();
    },
    async upsert(row: SocialProviderRow): Promise<void> {
      const { name: _n, created_at: _c, ...update } = row;
      await db
        .insertInto('social_providers')
        .values(row)
        .onConflict((oc) => oc.column('name').doUpdateSet(update))
        .execute();
    },
    async delete(name: string): Promise<boolean> {
      const r = await db.deleteFrom('social_providers').where('name', '=', name).executeTakeFirst();
      return Number(r.numDeletedRows) === 1;
    },
  };
}
