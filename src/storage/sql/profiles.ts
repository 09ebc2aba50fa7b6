import type { Kysely } from 'kysely';
import type { Engine } from '../connect.js';
import { columnsOf, prepared } from '../prepared.js';
import { splitPrefixed } from './joined-columns.js';
import type { Database, UserProfilesTable } from '../schema.js';

/** A postal address (OIDC Core 5.1.1): every part optional. */
export interface PostalAddress {
  formatted?: string;
  street_address?: string;
  locality?: string;
  region?: string;
  postal_code?: string;
  country?: string;
}

/** A ReachFive postal address (the Core SDK's ProfileAddress), as stored: every part optional. */
export interface ProfileAddress {
  title?: string;
  default?: boolean;
  address_type?: 'billing' | 'delivery';
  street_address?: string;
  address_complement?: string;
  locality?: string;
  region?: string;
  postal_code?: string;
  country?: string;
  raw?: string;
  delivery_note?: string;
  recipient?: string;
  company?: string;
  phone_number?: string;
}

/** The profile claims a user keeps beyond email, phone and names, and their custom fields. */
export interface StoredProfile {
  middle_name: string | null;
  nickname: string | null;
  birthdate: string | null;
  gender: string | null;
  locale: string | null;
  picture: string | null;
  website: string | null;
  zoneinfo: string | null;
  address: PostalAddress | null;
  /** ReachFive addresses (at most one `default`); [] when none. */
  addresses: ProfileAddress[];
  company: string | null;
  bio: string | null;
  /** A lite profile: kept without credentials, it cannot sign in. */
  lite_only: boolean;
  /** The full name as written (the `name` claim; without it the claim joins the names). */
  name: string | null;
  /** The `profile` claim: an http(s) URL of the user's profile page. */
  profile_url: string | null;
  /** The `preferred_username` claim: not unique, not a sign-in identifier. */
  username: string | null;
  custom_fields: Record<string, unknown>;
  updated_at: number;
}

export const EMPTY_PROFILE: Omit<StoredProfile, 'updated_at'> = {
  middle_name: null,
  nickname: null,
  birthdate: null,
  gender: null,
  locale: null,
  picture: null,
  website: null,
  zoneinfo: null,
  address: null,
  addresses: [],
  company: null,
  bio: null,
  lite_only: false,
  name: null,
  profile_url: null,
  username: null,
  custom_fields: {},
};

// Read for every ID token whose scopes release profile claims: a hot query.
const findProfile = prepared((q, userId: string) =>
  q.selectFrom('user_profiles').selectAll().where('user_id', '=', userId),
);

type ProfileRow = UserProfilesTable;

/** A stored row as the profile it holds (field by field: a rest spread copies slowly, and this is hot). */
export function profileOf(r: ProfileRow): StoredProfile {
  return {
    middle_name: r.middle_name,
    nickname: r.nickname,
    birthdate: r.birthdate,
    gender: r.gender,
    locale: r.locale,
    picture: r.picture,
    website: r.website,
    zoneinfo: r.zoneinfo,
    address: r.address === null ? null : (JSON.parse(r.address) as PostalAddress),
    addresses: r.addresses === null ? [] : (JSON.parse(r.addresses) as ProfileAddress[]),
    company: r.company,
    bio: r.bio,
    lite_only: !!r.lite_only,
    name: r.name,
    profile_url: r.profile_url,
    username: r.username,
    custom_fields: JSON.parse(r.custom_fields) as Record<string, unknown>,
    updated_at: Number(r.updated_at),
  };
}

/** The OIDC claims a profile keeps beyond the names (accounts/profile.ts reads and validates them). */
export const PROFILE_CLAIM_COLUMNS = [
  'middle_name',
  'nickname',
  'birthdate',
  'gender',
  'locale',
  'picture',
  'website',
  'zoneinfo',
  'address',
] as const satisfies readonly (keyof ProfileRow)[];

/** Every column of a stored profile (the import's insert lists them too). */
export const PROFILE_COLUMNS = columnsOf<ProfileRow>()(
  'user_id',
  ...PROFILE_CLAIM_COLUMNS,
  'custom_fields',
  'updated_at',
  'addresses',
  'company',
  'bio',
  'lite_only',
  'name',
  'profile_url',
  'username',
);

/** A profile as the row that stores it (JSON columns serialised). */
export const profileRow = (userId: string, p: Omit<StoredProfile, 'updated_at'>, now: number): ProfileRow => ({
  user_id: userId,
  middle_name: p.middle_name,
  nickname: p.nickname,
  birthdate: p.birthdate,
  gender: p.gender,
  locale: p.locale,
  picture: p.picture,
  website: p.website,
  zoneinfo: p.zoneinfo,
  address: p.address === null ? null : JSON.stringify(p.address),
  custom_fields: JSON.stringify(p.custom_fields),
  updated_at: now,
  addresses: p.addresses.length ? JSON.stringify(p.addresses) : null,
  company: p.company,
  bio: p.bio,
  lite_only: p.lite_only ? 1 : null,
  name: p.name,
  profile_url: p.profile_url,
  username: p.username,
});

/**
 * The user's profile columns for a read that left-joins `user_profiles` (the token grants read it
 * with the user, so signing the ID token reads nothing more): read back with splitJoinedProfile.
 */
export const JOINED_PROFILE = [
  'user_profiles.user_id as profile_user_id',
  'user_profiles.middle_name as profile_middle_name',
  'user_profiles.nickname as profile_nickname',
  'user_profiles.birthdate as profile_birthdate',
  'user_profiles.gender as profile_gender',
  'user_profiles.locale as profile_locale',
  'user_profiles.picture as profile_picture',
  'user_profiles.website as profile_website',
  'user_profiles.zoneinfo as profile_zoneinfo',
  'user_profiles.address as profile_address',
  'user_profiles.custom_fields as profile_custom_fields',
  'user_profiles.updated_at as profile_updated_at',
  'user_profiles.addresses as profile_addresses',
  'user_profiles.company as profile_company',
  'user_profiles.bio as profile_bio',
  'user_profiles.lite_only as profile_lite_only',
  'user_profiles.name as profile_name',
  'user_profiles.profile_url as profile_profile_url',
  'user_profiles.username as profile_username',
] as const satisfies readonly `user_profiles.${(typeof PROFILE_COLUMNS)[number]} as profile_${string}`[];

const JOINED_PROFILE_KEYS: ReadonlySet<keyof JoinedProfileColumns> = new Set(
  PROFILE_COLUMNS.map((c) => `profile_${c}` as const),
);

export type JoinedProfileColumns = { [K in keyof ProfileRow as `profile_${K}`]: ProfileRow[K] | null };

/** The profile of a row read with JOINED_PROFILE (null when none is stored), and the row without those columns. */
export function splitJoinedProfile<R extends JoinedProfileColumns>(
  row: R,
): { profile: StoredProfile | null; rest: Omit<R, keyof JoinedProfileColumns> } {
  const { part, rest } = splitPrefixed(row, 'profile_', PROFILE_COLUMNS, JOINED_PROFILE_KEYS, 'user_id');
  const profile = part && profileOf(part as unknown as ProfileRow);
  return { profile, rest };
}

export function profilesRepo(db: Kysely<Database>, engine: Engine) {
  return {
    /** The user's profile, or undefined when they have none stored. */
    async find(userId: string): Promise<StoredProfile | undefined> {
      const r = (await findProfile(db, engine, userId)).rows[0];
      return r ? profileOf(r) : undefined;
    },
    /** Whether the user's profile is a lite one (kept without credentials: it signs in with none). */
    async isLite(userId: string): Promise<boolean> {
      const r = await db
        .selectFrom('user_profiles')
        .select('lite_only')
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return !!r?.lite_only;
    },
    /** The profiles of these users (a page of a bulk export), by user id; those with none are absent. */
    async findMany(userIds: readonly string[]): Promise<Map<string, StoredProfile>> {
      if (!userIds.length) return new Map();
      const rows = await db.selectFrom('user_profiles').selectAll().where('user_id', 'in', userIds).execute();
      return new Map(rows.map((r) => [r.user_id, profileOf(r)]));
    },
    /** Writes the whole profile of a user (made at its first write). */
    async put(userId: string, p: Omit<StoredProfile, 'updated_at'>, now: number): Promise<void> {
      const { user_id: _u, ...row } = profileRow(userId, p, now);
      await db
        .insertInto('user_profiles')
        .values({ user_id: userId, ...row })
        .onConflict((oc) => oc.column('user_id').doUpdateSet(row))
        .execute();
    },
    /** Forgets a user's profile (their deletion). */
    async delete(userId: string): Promise<boolean> {
      const r = await db.deleteFrom('user_profiles').where('user_id', '=', userId).executeTakeFirst();
      return Number(r.numDeletedRows) === 1;
    },
  };
}
