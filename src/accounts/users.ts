import type { Logger } from 'pino';
import type { LanguageFor } from '../texts/choose-language.js';
import type { AccountSettings } from '../config/types.js';
import { WardError } from '../errors/ward-error.js';
import { invalidField, missingField } from '../errors/refusals.js';
import type { Clock } from '../lib/clock.js';
import type { Outbound } from '../lib/outbound/client.js';
import { randomId } from '../lib/random.js';
import type { Repos, Storage } from '../storage/storage.js';
import { isUniqueViolation } from '../storage/sql/errors.js';
import type { NewUser, User } from '../storage/sql/users.js';
import { normalizeEmail, normalizePhone } from './identifiers.js';
import { readCustomIdentifier, storeCustomIdentifier } from './custom-identifiers.js';
import { findBySignInIdentifier, type SignInIdentifier } from './sign-in-identifiers.js';
import { enforcePasswordPolicy } from './password-policy.js';
import { hashPassword, needsRehash, verifyPassword } from './passwords.js';
import { accountKey, createSignInProtection, identifierKey } from './sign-in-protection.js';
import { applyProfile, readProfile, touchesProfile, type ProfileChange } from './profile.js';
import type { ConsentChanges } from './consent-changes.js';
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
function identifiersOf(data: SignupData, field: string): { email: string | null; phone: string | null } {
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
function signupProfile(data: SignupData, field: string, account: AccountSettings, byAdministrator = false) {
  const { consents: _consents, ...rest } = data;
  return readProfile(rest, {
    customFields: account.custom_fields,
    writer: byAdministrator ? 'admin' : 'user',
    prefix: field,
    mode: byAdministrator ? 'update' : 'create',
    ignore: SIGNUP_KEYS,
  });
}

/** The consents of a signup: each known and active; by the user, every required one granted. */
function signupConsents(data: SignupData, field: string, consents: SignupConsents | undefined, byUser: boolean) {
  if (!consents) return [];
  const given = consents.read(data.consents, `${field}.consents`);
  if (byUser) consents.require(given, `${field}.consents`);
  return given;
}

/** What a signup uses of users' consents (consent-changes.ts). */
export type SignupConsents = Pick<ConsentChanges, 'read' | 'require' | 'store' | 'sendConfirmations'>;

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

const NO_CHANGE: ProfileChange = { names: {}, claims: {}, custom_fields: {}, fields: [] };

/** A signup's profile change with the custom fields its hooks set. */
function withFields(extra: ProfileChange | undefined, fields: Record<string, unknown>): ProfileChange | undefined {
  if (!Object.keys(fields).length) return extra;
  const base = extra ?? NO_CHANGE;
  return {
    ...base,
    custom_fields: { ...base.custom_fields, ...fields },
    fields: [...base.fields, ...Object.keys(fields).map((n) => `custom_fields.${n}`)],
  };
}

async function storeSignupProfile(tx: Repos, userId: string, change: ProfileChange, now: number): Promise<void> {
  if (touchesProfile(change)) await tx.profiles.put(userId, applyProfile(undefined, change), now);
}

export function createUserService(deps: {
  storage: Storage;
  clock: Clock;
  account: () => AccountSettings;
  /** Opens the imported (foreign) password hashes, sealed at rest. */
  masterKey: Buffer;
  log?: Pick<Logger, 'warn'>;
  /** The guarded client of the breached-password check. */
  outbound: Pick<Outbound, 'fetch'>;
  /** Told when failed passwords lock a user's password sign-in (the lockout notice). */
  onLock?: (user: User, at: number, until: number, language?: LanguageFor) => void;
  /**
   * Writes what goes with a lockout in its transaction (its webhook event); answers what to do once
   * it committed.
   */
  lockedWithin?: (tx: Repos, user: User, at: number, until: number) => Promise<() => void>;
  /** The before.signup hooks, asked before any user is created but by an administrator. */
  beforeSignup?: BeforeSignup;
  /** Users' consents given at signup. */
  consents?: SignupConsents;
}) {
  const { storage, clock } = deps;
  /** Custom fields a hook sets, checked as an administrator's (it may write admin-only fields). */
  const hookFields = (fields: Record<string, unknown>): Record<string, unknown> =>
    readProfile(
      { custom_fields: fields },
      { customFields: deps.account().custom_fields, writer: 'admin', prefix: 'hook', mode: 'update' },
    ).custom_fields;
  /** Asks the before.signup hooks (none for an administrator's user): the custom fields they set. */
  async function askHooks(origin: SignupOrigin, profile: Record<string, unknown>): Promise<Record<string, unknown>> {
    if (origin === 'administrator' || !deps.beforeSignup) return {};
    const fields = await deps.beforeSignup({ ...origin, profile, checkFields: hookFields });
    return Object.keys(fields).length ? hookFields(fields) : {};
  }
  /** The profile a hook is shown: identifiers, names, the other claims and custom fields given. */
  const shown = (
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
  const protection = createSignInProtection({ storage, clock, account: deps.account });
  async function create(user: NewUser, repos: Pick<Repos, 'users'> = storage): Promise<User> {
    try {
      return await repos.users.create(user, clock.now());
    } catch (e) {
      if (isUniqueViolation(e)) throw new WardError(user.email ? 'emailInUse' : 'phoneNumberInUse');
      throw e;
    }
  }
  /**
   * An imported hash that just matched is replaced with Ward's argon2id and dropped, unless the
   * password changed meanwhile (compare-and-set on the old value).
   */
  async function rehashed(user: User, password: string): Promise<User> {
    const hash = await hashPassword(password);
    const now = clock.now();
    if (await storage.users.replacePasswordHash(user.id, user.password_hash!, hash, now))
      return { ...user, password_hash: hash, updated_at: now };
    return user;
  }
  return {
    async signup(
      data: SignupData,
      role: string | null = null,
      opts: {
        generatedPassword?: boolean;
        /** Made by Ward or an administrator: admin-only fields may be written, required ones may wait. */
        byAdministrator?: boolean;
        /** What must be written with the user, in its transaction (its audit row and webhook event). */
        within?: (tx: Repos, user: User) => Promise<void>;
      } = {},
    ): Promise<User> {
      const { email, phone } = identifiersOf(data, 'data');
      if (typeof data.password !== 'string') throw missingField('data.password');
      const asked = signupProfile(data, 'data', deps.account(), opts.byAdministrator);
      const consents = signupConsents(data, 'data', deps.consents, !opts.byAdministrator && !opts.generatedPassword);
      const custom = readCustomIdentifier(data.custom_identifier, 'data.custom_identifier');
      const given_name = asked.names.given_name ?? null;
      const family_name = asked.names.family_name ?? null;
      // A password Ward generated itself (the first administrator's) is random: no policy to meet.
      if (!opts.generatedPassword)
        await enforcePasswordPolicy(
          deps.account(),
          data.password,
          { email, given_name, family_name },
          'data.password',
          {
            outbound: deps.outbound,
            onUnavailable: () =>
              deps.log?.warn({ event: 'password.breach_check_unavailable' }, 'breached-password check unavailable'),
          },
        );
      const origin = opts.byAdministrator || opts.generatedPassword ? 'administrator' : { method: 'password' as const };
      const set = await askHooks(origin, shown({ email, phone_number: phone, given_name, family_name }, asked));
      const extra = withFields(asked, set) ?? asked;
      const user = {
        id: randomId(),
        email,
        phone_number: phone,
        password_hash: await hashPassword(data.password),
        given_name,
        family_name,
        email_verified: false,
        phone_number_verified: false,
        role,
        disabled: false,
      };
      let pending: Awaited<ReturnType<SignupConsents['store']>> = [];
      const made = await storage.transaction(async (tx) => {
        const created = await create(user, tx);
        await storeSignupProfile(tx, created.id, extra, clock.now());
        if (custom) await storeCustomIdentifier(tx, created.id, custom, clock.now());
        if (consents.length) {
          const reporter = opts.byAdministrator ? 'managed' : 'end_user';
          const actor = { type: 'user' as const, id: created.id, ip: null };
          pending = await deps.consents!.store(tx, created.id, consents, reporter, actor);
        }
        await opts.within?.(tx, created);
        return created;
      });
      deps.consents?.sendConfirmations(made, pending);
      return made;
    },
    /**
     * The profile of a signup without a password (a passkey signup), checked before the ceremony:
     * an identifier, names, and no account with that identifier yet.
     */
    async passwordlessProfile(data: SignupData, field = 'profile'): Promise<PasswordlessProfile> {
      const { email, phone } = identifiersOf(data, field);
      const extra = signupProfile(data, field, deps.account());
      const consents = signupConsents(data, field, deps.consents, true);
      const profile = {
        email,
        phone_number: phone,
        given_name: extra.names.given_name ?? null,
        family_name: extra.names.family_name ?? null,
        extra,
        ...(consents.length ? { consents } : {}),
      };
      const taken = email ? await storage.users.findByEmail(email) : await storage.users.findByPhone(phone!);
      if (taken) throw new WardError(email ? 'emailInUse' : 'phoneNumberInUse');
      return profile;
    },
    /**
     * Creates a user without a password under a chosen id (a passkey's user handle names it, or a
     * social signup token), and what must exist with it (its passkey, its identity) in the same transaction.
     */
    async createPasswordless(
      id: string,
      profile: PasswordlessProfile,
      within: (tx: Repos, user: User) => Promise<void>,
      origin: SignupOrigin,
    ): Promise<User> {
      const set = await askHooks(origin, shown(profile, profile.extra));
      let pending: Awaited<ReturnType<SignupConsents['store']>> = [];
      const made = await storage.transaction(async (tx) => {
        const { extra: given, email_verified, consents, ...identity } = profile;
        const extra = withFields(given, set);
        const user = await create(
          {
            id,
            ...identity,
            password_hash: null,
            email_verified: !!identity.email && email_verified === true,
            phone_number_verified: false,
            role: null,
            disabled: false,
          },
          tx,
        );
        if (extra) await storeSignupProfile(tx, user.id, extra, clock.now());
        if (consents?.length) {
          const actor = { type: 'user' as const, id: user.id, ip: null };
          pending = await deps.consents!.store(tx, user.id, consents, 'end_user', actor);
        }
        await within(tx, user);
        return user;
      });
      deps.consents?.sendConfirmations(made, pending);
      return made;
    },
    /**
     * The user whose identifier and password match, or undefined (same time either way). Failed
     * attempts are counted per account, or per identifier of no account (sign-in-protection.ts): past
     * the account's thresholds this throws `signInDelayed` or `accountLocked` (429 with Retry-After),
     * account or not.
     */
    async authenticate(
      identifier: SignInIdentifier,
      password: unknown,
      /** The request's language rule, for the lockout notice (the user's stored locale takes its place in it). */
      language?: LanguageFor,
    ): Promise<User | undefined> {
      const named = await findBySignInIdentifier(storage, deps.account().sign_in_identifiers, identifier);
      const user = named?.user;
      // An account's failures count together, by any of its identifiers; an identifier of no account
      // counts on its own, with the same thresholds (the answers do not tell which).
      const key = user ? accountKey(user.id) : named ? identifierKey(named.kind, named.value) : null;
      let afterLock: (() => void) | undefined;
      const found = await protection.attempt(
        key,
        async () => {
          const given = typeof password === 'string' ? password : '';
          const owner = user && { userId: user.id, masterKey: deps.masterKey };
          const ok = await verifyPassword(user?.password_hash, given, owner);
          if (!ok || !user || user.disabled) return undefined;
          return needsRehash(user.password_hash) ? rehashed(user, given) : user;
        },
        (at, until) => {
          if (user) deps.onLock?.(user, at, until, language);
          afterLock?.();
        },
        user && deps.lockedWithin
          ? async (tx, at, until) => {
              afterLock = await deps.lockedWithin!(tx, user, at, until);
            }
          : undefined,
      );
      // Account setting: an email must be confirmed before a password signs in (the password was right).
      if (
        found &&
        deps.account().self_service.email_verification === 'required' &&
        found.email &&
        !found.email_verified
      )
        throw new WardError('emailNotVerified');
      return found;
    },
    /**
     * A user created by a first passwordless sign-in: no password, the address that received the
     * code as its only, verified identifier. An address taken meanwhile answers that account.
     */
    async createByAddress(
      field: 'email' | 'phone_number',
      address: string,
      /** What must be written with the user, in its transaction (its webhook event). */
      within?: (tx: Repos, user: User) => Promise<void>,
    ): Promise<User> {
      const email = field === 'email' ? address : null;
      const phone_number = field === 'phone_number' ? address : null;
      const set = await askHooks(
        { method: 'passwordless' },
        shown({ email, phone_number, given_name: null, family_name: null }),
      );
      try {
        return await storage.transaction(async (tx) => {
          const user = await tx.users.create(
            {
              id: randomId(),
              email,
              phone_number,
              password_hash: null,
              given_name: null,
              family_name: null,
              email_verified: field === 'email',
              phone_number_verified: field === 'phone_number',
              role: null,
              disabled: false,
            },
            clock.now(),
          );
          const extra = withFields(undefined, set);
          if (extra) await storeSignupProfile(tx, user.id, extra, clock.now());
          await within?.(tx, user);
          return user;
        });
      } catch (e) {
        const found =
          field === 'email' ? await storage.users.findByEmail(address) : await storage.users.findByPhone(address);
        if (isUniqueViolation(e) && found) return found;
        throw e;
      }
    },
    /** Sign-in protection: unlock and read a user's state (management API). */
    protection,
    /** A user created by a first social login: no password; the email only when the provider verified it. */
    async createFederated(
      profile: {
        email?: string;
        email_verified: boolean;
        given_name?: string;
        family_name?: string;
      },
      provider: string,
      /** What must be written with the user, in its transaction (its webhook event). */
      within?: (tx: Repos, user: User) => Promise<void>,
    ): Promise<User> {
      const email = profile.email_verified ? normalizeEmail(profile.email) : null;
      const given_name = profile.given_name?.slice(0, 200) ?? null;
      const family_name = profile.family_name?.slice(0, 200) ?? null;
      const set = await askHooks(
        { method: 'social', provider },
        shown({ email, phone_number: null, given_name, family_name }),
      );
      return storage.transaction(async (tx) => {
        const user = await tx.users.create(
          {
            id: randomId(),
            email,
            phone_number: null,
            password_hash: null,
            given_name,
            family_name,
            email_verified: !!email,
            phone_number_verified: false,
            role: null,
            disabled: false,
          },
          clock.now(),
        );
        const extra = withFields(undefined, set);
        if (extra) await storeSignupProfile(tx, user.id, extra, clock.now());
        await within?.(tx, user);
        return user;
      });
    },
    find: (id: string) => storage.users.findById(id),
  };
}

export type UserService = ReturnType<typeof createUserService>;
