import type { Kysely } from 'kysely';
import type { Database } from '../schema.js';
import type { NewUser } from './users.js';

/** What an import changes of an existing user: only the columns a line names. */
export type ImportedUserChange = Partial<Omit<NewUser, 'id' | 'role'>>;

const flag = (b: boolean | undefined) => (b === undefined ? undefined : b ? 1 : 0);

/** The writes of a bulk import (accounts/import/): users under their original dates, external ids. */
export function userImportRepo(db: Kysely<Database>) {
  return {
    /** Inserts an imported user created at `createdAt`; a duplicate email or phone is a unique violation. */
    async insertUser(u: NewUser, createdAt: number, now: number): Promise<void> {
      await db
        .insertInto('users')
        .values({
          ...u,
          email_verified: u.email_verified ? 1 : 0,
          phone_number_verified: u.phone_number_verified ? 1 : 0,
          disabled: u.disabled ? 1 : 0,
          created_at: createdAt,
          updated_at: now,
        })
        .execute();
    },
    async updateUser(id: string, change: ImportedUserChange, now: number): Promise<void> {
      const { email_verified, phone_number_verified, disabled, ...rest } = change;
      const set = {
        ...rest,
        ...(email_verified === undefined ? {} : { email_verified: flag(email_verified) }),
        ...(phone_number_verified === undefined ? {} : { phone_number_verified: flag(phone_number_verified) }),
        ...(disabled === undefined ? {} : { disabled: flag(disabled) }),
        updated_at: now,
      };
      await db.updateTable('users').set(set).where('id', '=', id).execute();
    },
    /** The user imported under this external id. */
    async userOfExternalId(externalId: string): Promise<string | undefined> {
      const r = await db
        .selectFrom('user_external_ids')
        .select('user_id')
        .where('external_id', '=', externalId)
        .executeTakeFirst();
      return r?.user_id;
    },
    async externalIdOf(userId: string): Promise<string | undefined> {
      const r = await db
        .selectFrom('user_external_ids')
        .select('external_id')
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return r?.external_id;
    },
    /** Names a new user's external id; one taken is a unique violation. */
    async addExternalId(userId: string, externalId: string, now: number): Promise<void> {
      await db
        .insertInto('user_external_ids')
        .values({ external_id: externalId, user_id: userId, created_at: now })
        .execute();
    },
    /** Names the user's external id (replacing theirs); another user's id is a unique violation. */
    async setExternalId(userId: string, externalId: string, now: number): Promise<void> {
      await db.deleteFrom('user_external_ids').where('user_id', '=', userId).execute();
      await db
        .insertInto('user_external_ids')
        .values({ external_id: externalId, user_id: userId, created_at: now })
        .execute();
    },
  };
}
