import { sql, type Expression, type Kysely, type Selectable, type SqlBool } from 'kysely';
import type { Engine } from '../connect.js';
import { columnsOf, prepared } from '../prepared.js';
import type { Database, IdentitiesTable, MfaCredentialsTable, UserProfilesTable, UsersTable } from '../schema.js';
import { PROFILE_COLUMNS, profileOf, type StoredProfile } from './profiles.js';
import type { NewUser } from './users.js';

/** A user an imported line may name (by external id, email or phone number), with their external id. */
export type ImportCandidate = Selectable<UsersTable> & { external_id: string | null };

const USER_COLUMNS = columnsOf<UsersTable>()(
  'id',
  'email',
  'phone_number',
  'password_hash',
  'given_name',
  'family_name',
  'email_verified',
  'phone_number_verified',
  'role',
  'disabled',
  'created_at',
  'updated_at',
);
const EXTERNAL_COLUMNS = ['external_id', 'user_id', 'created_at'] as const;

// The writes of one imported line are its hot queries: compiled once (storage/prepared.ts).
const candidates = prepared((q, externalId: string | null, email: string | null, phone: string | null) =>
  q
    .selectFrom('users')
    .leftJoin('user_external_ids', 'user_external_ids.user_id', 'users.id')
    .selectAll('users')
    .select('user_external_ids.external_id')
    .where((eb) =>
      eb.or([
        eb(
          'users.id',
          '=',
          eb.selectFrom('user_external_ids as x').select('x.user_id').where('x.external_id', '=', externalId),
        ),
        eb('users.email', '=', email),
        eb('users.phone_number', '=', phone),
      ]),
    ),
);
const insertUserRow = prepared((q, row: Selectable<UsersTable>) => q.insertInto('users').values(row), {
  0: USER_COLUMNS,
});
const insertProfileRow = prepared((q, row: UserProfilesTable) => q.insertInto('user_profiles').values(row), {
  0: PROFILE_COLUMNS,
});
const insertExternalId = prepared(
  (q, row: { external_id: string; user_id: string; created_at: number }) =>
    q.insertInto('user_external_ids').values(row),
  { 0: EXTERNAL_COLUMNS },
);

/** One page of users for a bulk export, with what the import shape holds of each (by user id). */
export interface ExportPage {
  users: Array<Selectable<UsersTable>>;
  identities: Array<Selectable<IdentitiesTable>>;
  factors: Array<Selectable<MfaCredentialsTable>>;
  externalIds: Array<{ user_id: string; external_id: string }>;
  /** The page's users' profiles, by user id (read with the other tables, in the same round). */
  profiles: Map<string, StoredProfile>;
}

/** What an import changes of an existing user: only the columns a line names. */
export type ImportedUserChange = Partial<Omit<NewUser, 'id' | 'role'>>;

const flag = (b: boolean | undefined) => (b === undefined ? undefined : b ? 1 : 0);

/** The writes of a bulk import (accounts/import/): users under their original dates, external ids. */
export function userImportRepo(db: Kysely<Database>, engine: Engine) {
  return {
    /**
     * In one query, the users a line may name: the one under `externalId`, the one with `email`, the
     * one with `phone` (at most three rows; a null matches nothing).
     */
    async candidates(
      externalId: string | null,
      email: string | null,
      phone: string | null,
    ): Promise<ImportCandidate[]> {
      return (await candidates(db, engine, externalId, email, phone)).rows as ImportCandidate[];
    },
    /** Which of these external ids, emails and phone numbers a user has (a batch of lines; one indexed query each). */
    async taken(
      externalIds: string[],
      emails: string[],
      phones: string[],
    ): Promise<{ externalIds: string[]; emails: string[]; phones: string[] }> {
      const x = externalIds.length
        ? await db
            .selectFrom('user_external_ids')
            .select('external_id')
            .where('external_id', 'in', externalIds)
            .execute()
        : [];
      const e = emails.length
        ? await db.selectFrom('users').select('email').where('email', 'in', emails).execute()
        : [];
      const p = phones.length
        ? await db.selectFrom('users').select('phone_number').where('phone_number', 'in', phones).execute()
        : [];
      return {
        externalIds: x.map((r) => r.external_id),
        emails: e.map((r) => r.email!),
        phones: p.map((r) => r.phone_number!),
      };
    },
    /** Inserts new users (rows complete), their profiles and external ids, each kind in one statement. */
    async insertMany(
      users: Array<Selectable<UsersTable>>,
      profiles: UserProfilesTable[],
      externalIds: Array<{ external_id: string; user_id: string; created_at: number }>,
    ): Promise<void> {
      if (users.length) await db.insertInto('users').values(users).execute();
      if (profiles.length) await db.insertInto('user_profiles').values(profiles).execute();
      if (externalIds.length) await db.insertInto('user_external_ids').values(externalIds).execute();
    },
    /** Inserts an imported user created at `createdAt`; a duplicate email or phone is a unique violation. */
    async insertUser(u: NewUser, createdAt: number, now: number): Promise<void> {
      await insertUserRow(db, engine, {
        id: u.id,
        email: u.email,
        phone_number: u.phone_number,
        password_hash: u.password_hash,
        given_name: u.given_name,
        family_name: u.family_name,
        email_verified: u.email_verified ? 1 : 0,
        phone_number_verified: u.phone_number_verified ? 1 : 0,
        role: u.role,
        disabled: u.disabled ? 1 : 0,
        created_at: createdAt,
        updated_at: now,
      });
    },
    /** The profile of a user just inserted (one who has none yet). */
    async insertProfile(row: UserProfilesTable): Promise<void> {
      await insertProfileRow(db, engine, row);
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
      if (!ids.length) return { users, identities: [], factors: [], externalIds: [], profiles: new Map() };
      // The page's rows in the other tables. Unfiltered, the page is every user in an id range, so a range
      // scan of each table's user_id index reads them (no list of 2,000 parameters to plan); filtered by
      // `since`, the range may hold users the page skipped, so the ids are listed.
      const last = ids[ids.length - 1]!;
      const inPage = (): Expression<SqlBool> =>
        since !== null
          ? sql<SqlBool>`user_id in (${sql.join(ids)})`
          : afterId === null
            ? sql<SqlBool>`user_id <= ${last}`
            : sql<SqlBool>`user_id > ${afterId} and user_id <= ${last}`;
      const [identities, factors, externalIds, profileRows] = await Promise.all([
        db.selectFrom('identities').selectAll().where(inPage()).orderBy('created_at').execute(),
        db
          .selectFrom('mfa_credentials')
          .selectAll()
          .where(inPage())
          .where('verified_at', 'is not', null)
          .orderBy('created_at')
          .execute(),
        db.selectFrom('user_external_ids').select(['user_id', 'external_id']).where(inPage()).execute(),
        db.selectFrom('user_profiles').selectAll().where(inPage()).execute(),
      ]);
      const profiles = new Map(profileRows.map((r) => [r.user_id, profileOf(r)]));
      return { users, identities, factors, externalIds, profiles };
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
      await insertExternalId(db, engine, { external_id: externalId, user_id: userId, created_at: now });
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
