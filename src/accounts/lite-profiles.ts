// Lite profiles (docs/profiles.md, "Lite profiles"): a profile kept without credentials, as ReachFive's
// lite accounts (a newsletter subscriber, a guest order), made by an administrator or an import. It
// signs in with nothing (password-sign-in.ts and every other method refuse it like an unknown user).
// Someone who signs up with its email claims it: nothing of it changes, and nothing of it is shown,
// until the mailed link is opened and the signup's own password typed there (self-service/lite-claim.ts);
// then the profile keeps its id, consents and data, takes the password, and the signup fills only what it
// lacked. Until then the signup waits, sealed, in the link's row (its password hash is a secret).
import { seal, unseal } from '../lib/secrets.js';
import type { StoredProfile } from '../storage/sql/profiles.js';
import type { User } from '../storage/sql/users.js';
import type { ProfileChange } from './profile.js';
import type { ConsentInput } from './user-consents.js';

/** The audit's reason for a sign-in refused because the profile is lite (the answer reads like an unknown user's). */
export const LITE_PROFILE = 'lite_profile';

/** The signup that claims a lite profile, validated, waiting for the email's proof. */
export interface LiteClaim {
  password_hash: string;
  phone_number: string | null;
  custom_identifier: string | null;
  /** The signup's profile fields (names, claims, custom fields, those of its hooks included). */
  extra: ProfileChange;
  consents: ConsentInput[];
}

const aad = (userId: string) => `lite-claim:${userId}`;

/** The claim as the link's row keeps it: encrypted and bound to the profile's id. */
export const sealClaim = (masterKey: Buffer, userId: string, claim: LiteClaim): string =>
  seal(masterKey, JSON.stringify(claim), aad(userId));

/** The claim a link's row keeps, or undefined when it cannot be opened (another key, another user). */
export function openClaim(masterKey: Buffer, userId: string, sealed: string | undefined): LiteClaim | undefined {
  if (!sealed) return undefined;
  try {
    return JSON.parse(unseal(masterKey, sealed, aad(userId)).toString('utf8')) as LiteClaim;
  } catch {
    return undefined;
  }
}

const isEmpty = (v: unknown) => v === null || v === undefined || v === '' || (Array.isArray(v) && v.length === 0);

/**
 * The profile change a claim makes: `lite_only` false, and of the signup's fields only those the lite
 * profile lacks (what it holds is kept: the signup is not its owner's word until the email is proven,
 * and even then it does not overwrite).
 */
export function claimChange(user: User, profile: StoredProfile | undefined, extra: ProfileChange): ProfileChange {
  const names: ProfileChange['names'] = {};
  for (const [k, v] of Object.entries(extra.names) as Array<[keyof ProfileChange['names'], string | null]>)
    if (v !== null && isEmpty(user[k])) names[k] = v;
  const claims: Record<string, unknown> = {};
  const held = (profile ?? {}) as Record<string, unknown>;
  for (const [k, v] of Object.entries(extra.claims))
    if (k !== 'lite_only' && !isEmpty(v) && isEmpty(held[k])) claims[k] = v;
  claims.lite_only = false;
  const custom_fields: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(extra.custom_fields))
    if (v !== null && profile?.custom_fields[k] === undefined) custom_fields[k] = v;
  return {
    names,
    claims: claims as ProfileChange['claims'],
    custom_fields,
    fields: [
      ...Object.keys(names),
      ...Object.keys(claims),
      ...Object.keys(custom_fields).map((n) => `custom_fields.${n}`),
    ],
  };
}
