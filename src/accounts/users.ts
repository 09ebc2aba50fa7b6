import type { Logger } from 'pino';
import type { AccountSettings } from '../config/types.js';
import { WardError } from '../errors/ward-error.js';
import { invalidField, missingField } from '../errors/refusals.js';
import type { Clock } from '../lib/clock.js';
import { randomId } from '../lib/random.js';
import type { Repos, Storage } from '../storage/storage.js';
import { isUniqueViolation } from '../storage/sql/errors.js';
import type { NewUser, User } from '../storage/sql/users.js';
import { normalizeEmail, normalizePhone } from './identifiers.js';
import { enforcePasswordPolicy } from './password-policy.js';
import { hashPassword, verifyPassword } from './passwords.js';
import { createSignInProtection, identifierKey } from './sign-in-protection.js';

export interface SignupData {
  email?: unknown;
  phone_number?: unknown;
  password?: unknown;
  given_name?: unknown;
  family_name?: unknown;
}

const optionalName = (field: string, v: unknown): string | null => {
  if (v === undefined || v === null || v === '') return null;
  if (typeof v !== 'string' || v.length > 200 || v.includes('\u0000'))
    throw invalidField(field, 'must be a string of at most 200 characters, without NUL characters');
  return v;
};

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
  phone_number: string | null;
  given_name: string | null;
  family_name: string | null;
}

export function createUserService(deps: {
  storage: Storage;
  clock: Clock;
  account: () => AccountSettings;
  log?: Pick<Logger, 'warn'>;
  /** Told when failed passwords lock a user's password sign-in (the lockout notice). */
  onLock?: (user: User, at: number, until: number, locale?: string) => void;
}) {
  const { storage, clock } = deps;
  const protection = createSignInProtection({ storage, clock, account: deps.account });
  async function create(user: NewUser, repos: Pick<Repos, 'users'> = storage): Promise<User> {
    try {
      return await repos.users.create(user, clock.now());
    } catch (e) {
      if (isUniqueViolation(e)) throw new WardError(user.email ? 'emailInUse' : 'phoneNumberInUse');
      throw e;
    }
  }
  return {
    async signup(
      data: SignupData,
      role: string | null = null,
      opts: { generatedPassword?: boolean } = {},
    ): Promise<User> {
      const { email, phone } = identifiersOf(data, 'data');
      if (typeof data.password !== 'string') throw missingField('data.password');
      const given_name = optionalName('data.given_name', data.given_name);
      const family_name = optionalName('data.family_name', data.family_name);
      // A password Ward generated itself (the first administrator's) is random: no policy to meet.
      if (!opts.generatedPassword)
        await enforcePasswordPolicy(
          deps.account(),
          data.password,
          { email, given_name, family_name },
          'data.password',
          () => deps.log?.warn({ event: 'password.breach_check_unavailable' }, 'breached-password check unavailable'),
        );
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
      return create(user);
    },
    /**
     * The profile of a signup without a password (a passkey signup), checked before the ceremony:
     * an identifier, names, and no account with that identifier yet.
     */
    async passwordlessProfile(data: SignupData, field = 'profile'): Promise<PasswordlessProfile> {
      const { email, phone } = identifiersOf(data, field);
      const profile = {
        email,
        phone_number: phone,
        given_name: optionalName(`${field}.given_name`, data.given_name),
        family_name: optionalName(`${field}.family_name`, data.family_name),
      };
      const taken = email ? await storage.users.findByEmail(email) : await storage.users.findByPhone(phone!);
      if (taken) throw new WardError(email ? 'emailInUse' : 'phoneNumberInUse');
      return profile;
    },
    /**
     * Creates a user without a password under a chosen id (a passkey's user handle names it), and
     * what must exist with it (its passkey) in the same transaction.
     */
    createPasswordless: (
      id: string,
      profile: PasswordlessProfile,
      within: (tx: Repos, user: User) => Promise<void>,
    ): Promise<User> =>
      storage.transaction(async (tx) => {
        const user = await create(
          {
            id,
            ...profile,
            password_hash: null,
            email_verified: false,
            phone_number_verified: false,
            role: null,
            disabled: false,
          },
          tx,
        );
        await within(tx, user);
        return user;
      }),
    /**
     * The user whose identifier and password match, or undefined (same time either way). Failed
     * attempts are counted per identifier (sign-in-protection.ts): past the account's thresholds this
     * throws `signInDelayed` or `accountLocked` (429 with Retry-After), account or not.
     */
    async authenticate(
      identifier: { email?: unknown; phone_number?: unknown },
      password: unknown,
      /** The request's language (Accept-Language), for the lockout notice. */
      locale?: string,
    ): Promise<User | undefined> {
      const email = normalizeEmail(identifier.email);
      const phone = email ? null : normalizePhone(identifier.phone_number);
      const key = email ? identifierKey('email', email) : phone ? identifierKey('phone', phone) : null;
      let user: User | undefined;
      const found = await protection.attempt(
        key,
        async () => {
          user = email
            ? await storage.users.findByEmail(email)
            : phone
              ? await storage.users.findByPhone(phone)
              : undefined;
          const ok = await verifyPassword(user?.password_hash, typeof password === 'string' ? password : '');
          return ok && user && !user.disabled ? user : undefined;
        },
        (at, until) => {
          if (user) deps.onLock?.(user, at, until, locale);
        },
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
    async createByAddress(field: 'email' | 'phone_number', address: string): Promise<User> {
      try {
        return await storage.users.create(
          {
            id: randomId(),
            email: field === 'email' ? address : null,
            phone_number: field === 'phone_number' ? address : null,
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
    async createFederated(profile: {
      email?: string;
      email_verified: boolean;
      given_name?: string;
      family_name?: string;
    }): Promise<User> {
      const email = profile.email_verified ? normalizeEmail(profile.email) : null;
      return storage.users.create(
        {
          id: randomId(),
          email,
          phone_number: null,
          password_hash: null,
          given_name: profile.given_name?.slice(0, 200) ?? null,
          family_name: profile.family_name?.slice(0, 200) ?? null,
          email_verified: !!email,
          phone_number_verified: false,
          role: null,
          disabled: false,
        },
        clock.now(),
      );
    },
    find: (id: string) => storage.users.findById(id),
  };
}

export type UserService = ReturnType<typeof createUserService>;
