import { sql, type Kysely, type QueryCreator, type Selectable } from 'kysely';
import type { Engine } from '../connect.js';
import { prepared } from '../prepared.js';
import type { Database, UsersTable } from '../schema.js';
import { type EmailCursor, mayNeedNormalisation } from './email-forms.js';
import { bool } from './errors.js';
import { withoutColumns } from './joined-columns.js';

export interface User {
  id: string;
  email: string | null;
  phone_number: string | null;
  password_hash: string | null;
  given_name: string | null;
  family_name: string | null;
  email_verified: boolean;
  phone_number_verified: boolean;
  role: string | null;
  disabled: boolean;
  created_at: number;
  updated_at: number;
  /**
   * A lite profile (`user_profiles.lite_only`): kept without credentials, it cannot sign in. Read in the
   * same statement as the user (a left join on `user_profiles`, or a scalar subquery in a RETURNING).
   */
  lite: boolean;
}

/** A users row with its profile's `lite_only` (null: no profile, or not lite). */
type UserRow = Selectable<UsersTable> & { lite_only: number | null };

// Field by field: a spread would carry `lite_only` into the User.
const toUser = (r: UserRow): User => ({
  id: r.id,
  email: r.email,
  phone_number: r.phone_number,
  password_hash: r.password_hash,
  given_name: r.given_name,
  family_name: r.family_name,
  email_verified: bool(r.email_verified),
  phone_number_verified: bool(r.phone_number_verified),
  role: r.role,
  disabled: bool(r.disabled),
  created_at: r.created_at,
  updated_at: r.updated_at,
  lite: !!r.lite_only,
});

/** A user to create: a new user has no profile yet, so it is not lite. */
export type NewUser = Omit<User, 'created_at' | 'updated_at' | 'lite'>;

/**
 * The user's columns under `user_` names, for reading a user in the same statement as the row that
 * names it (`leftJoin('users', ...)` and `leftJoin('user_profiles', ...)` on the same user id, the
 * latter for `lite`): one round trip instead of two on the hot paths.
 */
export const JOINED_USER = [
  'users.id as user_row_id',
  'users.email as user_email',
  'users.phone_number as user_phone_number',
  'users.password_hash as user_password_hash',
  'users.given_name as user_given_name',
  'users.family_name as user_family_name',
  'users.email_verified as user_email_verified',
  'users.phone_number_verified as user_phone_number_verified',
  'users.role as user_role',
  'users.disabled as user_disabled',
  'users.created_at as user_created_at',
  'users.updated_at as user_updated_at',
  'user_profiles.lite_only as user_lite',
] as const;

type Joined = {
  [K in keyof UsersTable as K extends 'id' ? 'user_row_id' : `user_${K}`]: UsersTable[K] | null;
} & { user_lite: number | null };
export type JoinedUserColumns = Joined;

/**
 * JOINED_USER's columns as scalar subqueries on the user that `userIdColumn` names, for a RETURNING
 * clause (SQLite's may name only the updated table, so no join): read back with splitJoinedUser.
 */
export const userSubqueries = (userIdColumn: string) =>
  JOINED_USER.map((c) => {
    const [ref, alias] = c.split(' as ') as [string, string];
    const [table, column] = ref.split('.') as [string, string];
    const of = sql.ref(userIdColumn);
    return (
      table === 'users'
        ? sql`(select ${sql.ref(`u.${column}`)} from users u where u.id = ${of})`
        : sql`(select ${sql.ref(`p.${column}`)} from user_profiles p where p.user_id = ${of})`
    ).as(alias);
  });

const JOINED_USER_KEYS: ReadonlySet<keyof Joined> = new Set(
  JOINED_USER.map((c) => c.slice(c.indexOf(' as ') + 4) as keyof Joined),
);

/** The user of a row read with JOINED_USER (undefined when the join found none), and the row without those columns. */
export function splitJoinedUser<R extends Joined>(row: R): { user: User | undefined; rest: Omit<R, keyof Joined> } {
  const {
    user_row_id,
    user_email,
    user_phone_number,
    user_password_hash,
    user_given_name,
    user_family_name,
    user_email_verified,
    user_phone_number_verified,
    user_role,
    user_disabled,
    user_created_at,
    user_updated_at,
    user_lite,
  } = row;
  const rest = withoutColumns(row, JOINED_USER_KEYS);
  const user =
    user_row_id === null
      ? undefined
      : toUser({
          id: user_row_id,
          email: user_email,
          phone_number: user_phone_number,
          password_hash: user_password_hash,
          given_name: user_given_name,
          family_name: user_family_name,
          email_verified: user_email_verified!,
          phone_number_verified: user_phone_number_verified!,
          role: user_role,
          disabled: user_disabled!,
          created_at: user_created_at!,
          updated_at: user_updated_at!,
          lite_only: user_lite,
        });
  return { user, rest };
}

/** Users with their profile's `lite_only` (toUser's row): select from this, then filter on `users.` columns. */
const usersWithLite = (q: QueryCreator<Database>) =>
  q
    .selectFrom('users')
    .leftJoin('user_profiles', 'user_profiles.user_id', 'users.id')
    .selectAll('users')
    .select('user_profiles.lite_only');

const findById = prepared((q, id: string) => usersWithLite(q).where('users.id', '=', id));

export function usersRepo(db: Kysely<Database>, engine: Engine) {
  return {
    /** Inserts a user; a duplicate email or phone number throws a unique violation. */
    async create(u: NewUser, now: number): Promise<User> {
      const row = {
        ...u,
        email_verified: u.email_verified ? 1 : 0,
        phone_number_verified: u.phone_number_verified ? 1 : 0,
        disabled: u.disabled ? 1 : 0,
        created_at: now,
        updated_at: now,
      };
      await db.insertInto('users').values(row).execute();
      return { ...u, created_at: now, updated_at: now, lite: false };
    },
    async findById(id: string): Promise<User | undefined> {
      const [r] = (await findById(db, engine, id)).rows;
      return r && toUser(r);
    },
    async findByEmail(email: string): Promise<User | undefined> {
      const r = await usersWithLite(db).where('users.email', '=', email).executeTakeFirst();
      return r && toUser(r);
    },
    async findByPhone(phone: string): Promise<User | undefined> {
      const r = await usersWithLite(db).where('users.phone_number', '=', phone).executeTakeFirst();
      return r && toUser(r);
    },
    /** Sets the password hash (null: the account has no password any more). */
    async setPassword(id: string, hash: string | null, now: number): Promise<void> {
      await db.updateTable('users').set({ password_hash: hash, updated_at: now }).where('id', '=', id).execute();
    },
    /** Replaces the password hash only if it is still `from` (a rehash at sign-in); answers whether it was. */
    async replacePasswordHash(id: string, from: string, to: string, now: number): Promise<boolean> {
      const r = await db
        .updateTable('users')
        .set({ password_hash: to, updated_at: now })
        .where('id', '=', id)
        .where('password_hash', '=', from)
        .executeTakeFirst();
      return Number(r.numUpdatedRows) === 1;
    },
    /** Marks the email address or phone number verified or not (an administrator's decision). */
    async setVerification(
      id: string,
      flags: { email_verified?: boolean; phone_number_verified?: boolean },
      now: number,
    ): Promise<void> {
      const set: { updated_at: number; email_verified?: number; phone_number_verified?: number } = { updated_at: now };
      if (flags.email_verified !== undefined) set.email_verified = flags.email_verified ? 1 : 0;
      if (flags.phone_number_verified !== undefined) set.phone_number_verified = flags.phone_number_verified ? 1 : 0;
      await db.updateTable('users').set(set).where('id', '=', id).execute();
    },
    /** Marks an address verified if it is still the user's; answers whether it was. */
    async markVerified(id: string, field: 'email' | 'phone_number', address: string, now: number): Promise<boolean> {
      const flag = field === 'email' ? 'email_verified' : 'phone_number_verified';
      const r = await db
        .updateTable('users')
        .set({ [flag]: 1, updated_at: now })
        .where('id', '=', id)
        .where(field, '=', address)
        .executeTakeFirst();
      return Number(r.numUpdatedRows) === 1;
    },
    /** Replaces an email or phone number with a confirmed one; another user's address throws a unique violation. */
    async changeAddress(id: string, field: 'email' | 'phone_number', address: string, now: number): Promise<void> {
      const flag = field === 'email' ? 'email_verified' : 'phone_number_verified';
      await db
        .updateTable('users')
        .set({ [field]: address, [flag]: 1, updated_at: now })
        .where('id', '=', id)
        .execute();
    },
    /** Gives a user without a phone number this one, unverified (answers whether it did); taken: a unique violation. */
    async setPhoneIfNone(id: string, phone: string, now: number): Promise<boolean> {
      const r = await db
        .updateTable('users')
        .set({ phone_number: phone, phone_number_verified: 0, updated_at: now })
        .where('id', '=', id)
        .where('phone_number', 'is', null)
        .executeTakeFirst();
      return Number(r.numUpdatedRows) === 1;
    },
    /** Changes the given and family names a profile update named (others kept). */
    async setNames(id: string, names: { given_name?: string | null; family_name?: string | null }, now: number) {
      await db
        .updateTable('users')
        .set({ ...names, updated_at: now })
        .where('id', '=', id)
        .execute();
    },
    async setRole(id: string, role: string | null, now: number): Promise<void> {
      await db.updateTable('users').set({ role, updated_at: now }).where('id', '=', id).execute();
    },
    async setDisabled(id: string, disabled: boolean, now: number): Promise<void> {
      await db
        .updateTable('users')
        .set({ disabled: disabled ? 1 : 0, updated_at: now })
        .where('id', '=', id)
        .execute();
    },
    /** Users whose email, phone, name or id contains q (case-insensitive), newest first. */
    async search(q: string, limit: number): Promise<User[]> {
      const like = `%${q.toLowerCase().replace(/[%_\\]/g, (c) => `\\${c}`)}%`;
      let query = usersWithLite(db);
      if (q) {
        query = query.where((eb) =>
          eb.or([
            eb(eb.fn('lower', ['users.email']), 'like', like),
            eb('users.phone_number', 'like', like),
            eb(eb.fn('lower', ['users.given_name']), 'like', like),
            eb(eb.fn('lower', ['users.family_name']), 'like', like),
            eb('users.id', '=', q),
          ]),
        );
      }
      const rows = await query.orderBy('users.created_at', 'desc').limit(limit).execute();
      return rows.map(toUser);
    },
    /**
     * The users whose stored email may differ from its normalised form (non-ASCII or a trailing dot),
     * oldest first after `after`: one filtered read, empty on a database with nothing to rewrite.
     */
    async listEmailsNeedingNormalisation(
      after: EmailCursor | null,
      limit: number,
    ): Promise<Array<EmailCursor & { email: string }>> {
      let q = db
        .selectFrom('users')
        .select(['id', 'email', 'created_at'])
        .where('email', 'is not', null)
        .where(mayNeedNormalisation(engine, 'email'));
      if (after)
        q = q.where((eb) =>
          eb.or([
            eb('created_at', '>', after.created_at),
            eb.and([eb('created_at', '=', after.created_at), eb('id', '>', after.id)]),
          ]),
        );
      const rows = await q.orderBy('created_at').orderBy('id').limit(limit).execute();
      return rows as Array<EmailCursor & { email: string }>;
    },
    /**
     * Rewrites a user's email `from` to its normalised form `to`, only if the row still has `from` and
     * no other user has `to` (answers whether it did; nothing is merged). With it, the places where
     * that address is a lookup key follow: the user's email second factor (unless it also has `to`)
     * and the live codes and links sent to `from`. Meant for a transaction.
     */
    async rewriteEmail(id: string, from: string, to: string, now: number): Promise<boolean> {
      const r = await db
        .updateTable('users')
        .set({ email: to, updated_at: now })
        .where('id', '=', id)
        .where('email', '=', from)
        .where(({ not, exists, selectFrom }) =>
          not(exists(selectFrom('users as other').select('other.id').where('other.email', '=', to))),
        )
        .executeTakeFirst();
      if (Number(r.numUpdatedRows) !== 1) return false;
      await db
        .updateTable('mfa_credentials')
        .set({ destination: to })
        .where('user_id', '=', id)
        .where('type', '=', 'email')
        .where('destination', '=', from)
        .where(({ not, exists, selectFrom }) =>
          not(
            exists(
              selectFrom('mfa_credentials as m')
                .select('m.id')
                .where('m.user_id', '=', id)
                .where('m.type', '=', 'email')
                .where('m.destination', '=', to),
            ),
          ),
        )
        .execute();
      await db
        .updateTable('account_codes')
        .set({ destination: to })
        .where('channel', '=', 'email')
        .where('destination', '=', from)
        .where('consumed_at', 'is', null)
        .where('superseded_at', 'is', null)
        .execute();
      return true;
    },
    async countByRole(role: string): Promise<number> {
      const r = await db
        .selectFrom('users')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('role', '=', role)
        .executeTakeFirst();
      return Number(r?.n ?? 0);
    },
  };
}
