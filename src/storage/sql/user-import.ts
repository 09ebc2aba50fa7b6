import type { Kysely, Selectable } from 'kysely';
import type { Database, IdentitiesTable, MfaCredentialsTable, UsersTable } from '../schema.js';
import type { NewUser } from './users.js';

/** One page of users for a bulk export, with what the import shape holds of each (by user id). */
export interface ExportPage {
  users: Array<Selectable<UsersTable>>;
  identities: Array<Selectable<IdentitiesTable>>;
  factors: Array<Selectable<MfaCredentialsTable>>;
  externalIds: Array<{ user_id: string; external_id: string }>;
}

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
    /** Users after `afterId` in id order (changed since `since`, when given), with their rows. */
    async exportPage(afterId: string | null, limit: number, since: number | null): Promise<ExportPage> {
      let q = db.selectFrom('users').selectAll();
      if (afterId !== null) q = q.where('id', '>', afterId);
      if (since !== null) q = q.where('updated_at', '>=', since);
      const users = await q.orderBy('id').limit(limit).execute();
      const ids = users.map((u) => u.id);
      if (!ids.length) return { users, identities: [], factors: [], externalIds: [] };
      const [identities, factors, externalIds] = await Promise.all([
        db.selectFrom('identities').selectAll().where('user_id', 'in', ids).orderBy('created_at').execute(),
        db
          .selectFrom('mfa_credentials')
          .selectAll()
          .where('user_id', 'in', ids)
          .where('verified_at', 'is not', null)
          .orderBy('created_at')
          .execute(),
        db.selectFrom('user_external_ids').select(['user_id', 'external_id']).where('user_id', 'in', ids).execute(),
      ]);
      return { users, identities, factors, externalIds };
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
