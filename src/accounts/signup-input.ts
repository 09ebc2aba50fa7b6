// What a signup gives, read and checked before any user exists (users.ts creates them): its identifiers,
// its profile fields by the one profile validator (profile.ts), its consents, and the before.signup hooks'
// contract. Nothing here writes but storeSignupProfile, in the creating transaction.
import type { AccountSettings } from '../config/types.js';
import { invalidField, missingField } from '../errors/refusals.js';
import type { Repos } from '../storage/storage.js';
import type { ConsentChanges } from './consent-changes.js';
import { normalizeEmail, normalizePhone } from './identifiers.js';
import { applyProfile, readProfile, touchesProfile, type ProfileChange } from './profile.js';
import type { ConsentInput } from './user-consents.js';

export interface SignupData {
  [key: string]: unknown;
  email?: unknown;
  phone_number?: unknown;
  password?: unknown;
  given_name?: unknown;
  family_name?: unknown;
}

/** The email and phone number of a signup, normalized; at least one is required. */
export function identifiersOf(data: SignupData, field: string): { email: string | null; phone: string | null } {
  const email = data.email === undefined ? null : normalizeEmail(data.email);
  if (data.email !== undefined && !email) throw invalidField(`${field}.email`, 'must be a valid email address');
  const phone = data.phone_number === undefined ? null : normalizePhone(data.phone_number);
  if (data.phone_number !== undefined && !phone)
    throw invalidField(`${field}.phone_number`, 'must be an E.164 phone number such as +33612345678');
  if (!email && !phone) throw missingField(`${field}.email`);
  return { email, phone };
}

export interface PasswordlessProfile {
  email: string | null;
  /** Whether the email is already verified (a provider's verified email); false when absent. */
  email_verified?: boolean;
  phone_number: string | null;
  given_name: string | null;
  family_name: string | null;
  /** The other profile claims and custom fields of the signup, validated. */
  extra?: ProfileChange;
  /** The consents given with it, validated. */
  consents?: ConsentInput[];
}

/** What signup's data reads itself (the identifiers and the password), beside the profile fields. */
const SIGNUP_KEYS = ['email', 'phone_number', 'password', 'custom_identifier'];

/**
 * The profile fields of a signup, validated by the account's rules (required custom fields included).
 * `consents` are the user consents' own (consent-changes.ts), read apart.
 */
export function signupProfile(data: SignupData, field: string, account: AccountSettings, byAdministrator = false) {
  const { consents: _consents, ...rest } = data;
  return readProfile(rest, {
    customFields: account.custom_fields,
    writer: byAdministrator ? 'admin' : 'user',
    prefix: field,
    mode: byAdministrator ? 'update' : 'create',
    ignore: SIGNUP_KEYS,
  });
}

/** What a signup uses of users' consents (consent-changes.ts). */
export type SignupConsents = Pick<ConsentChanges, 'read' | 'require' | 'store' | 'sendConfirmations'>;

/** The consents of a signup: each known and active; by the user, every required one granted. */
export function signupConsents(data: SignupData, field: string, consents: SignupConsents | undefined, byUser: boolean) {
  if (!consents) return [];
  const given = consents.read(data.consents, `${field}.consents`);
  if (byUser) consents.require(given, `${field}.consents`);
  return given;
}

/**
 * Where a new user comes from, for the before.signup hooks: a sign-up method, or `administrator`
 * (made by Ward or through the management API, as an import: no hook is called).
 */
export type SignupOrigin =
  | { method: 'password' | 'passkey' | 'social' | 'passwordless'; provider?: string }
  | 'administrator';

/** What the before.signup hooks are told of a signup, and how the custom fields they set are checked. */
export interface SignupAttempt {
  method: 'password' | 'passkey' | 'social' | 'passwordless';
  provider?: string;
  /** The profile about to be created (never a password). */
  profile: Record<string, unknown>;
  /** The profile validator of the account's custom fields; throws a WardError when one is refused. */
  checkFields(fields: Record<string, unknown>): Record<string, unknown>;
}

/** The before.signup hooks (hooks/): the custom fields they set, or a throw that refuses the signup. */
export type BeforeSignup = (attempt: SignupAttempt) => Promise<Record<string, unknown>>;

export const NO_CHANGE: ProfileChange = { names: {}, claims: {}, custom_fields: {}, fields: [] };

/** A signup's profile change with the custom fields its hooks set. */
export function withFields(
  extra: ProfileChange | undefined,
  fields: Record<string, unknown>,
): ProfileChange | undefined {
  if (!Object.keys(fields).length) return extra;
  const base = extra ?? NO_CHANGE;
  return {
    ...base,
    custom_fields: { ...base.custom_fields, ...fields },
    fields: [...base.fields, ...Object.keys(fields).map((n) => `custom_fields.${n}`)],
  };
}

export async function storeSignupProfile(tx: Repos, userId: string, change: ProfileChange, now: number): Promise<void> {
  if (touchesProfile(change)) await tx.profiles.put(userId, applyProfile(undefined, change), now);
}

/** The profile a hook is shown: identifiers, names, the other claims and custom fields given. */
export const shownToHooks = (
  p: { email: string | null; phone_number: string | null; given_name: string | null; family_name: string | null },
  extra?: ProfileChange,
): Record<string, unknown> => ({
  email: p.email,
  phone_number: p.phone_number,
  given_name: p.given_name,
  family_name: p.family_name,
  ...(extra?.claims ?? {}),
  custom_fields: extra?.custom_fields ?? {},
});
