// The users made without a password (users.ts composes them into the user service): a passkey signup's
// (its profile checked before the ceremony), a first passwordless sign-in's, a first social login's. Each
// asks the before.signup hooks (users.ts's askHooks) and writes the user and what goes with it in one
// transaction.
import { WardError } from '../errors/ward-error.js';
import type { Clock } from '../lib/clock.js';
import { randomId } from '../lib/random.js';
import type { Repos, Storage } from '../storage/storage.js';
import { isUniqueViolation } from '../storage/sql/errors.js';
import type { NewUser, User } from '../storage/sql/users.js';
import { normalizeEmail } from './identifiers.js';
import {
  identifiersOf,
  type PasswordlessProfile,
  type SignupConsents,
  type SignupData,
  type SignupOrigin,
  shownToHooks,
  signupConsents,
  signupProfile,
  storeSignupProfile,
  withFields,
} from './signup-input.js';
import type { AccountSettings } from '../config/types.js';

export interface WithoutPasswordDeps {
  storage: Storage;
  clock: Clock;
  account: () => AccountSettings;
  consents?: SignupConsents;
  /** The before.signup hooks' custom fields for a new user of this origin. */
  askHooks(origin: SignupOrigin, profile: Record<string, unknown>): Promise<Record<string, unknown>>;
  /** Inserts a user; a taken email or phone number is a 409. */
  create(user: NewUser, repos?: Pick<Repos, 'users'>): Promise<User>;
}

export function createUsersWithoutPassword(deps: WithoutPasswordDeps) {
  const { storage, clock, askHooks, create } = deps;
  return {
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
      const set = await askHooks(origin, shownToHooks(profile, profile.extra));
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
      const shown = shownToHooks({ email, phone_number, given_name: null, family_name: null });
      const set = await askHooks({ method: 'passwordless' }, shown);
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
      const shown = shownToHooks({ email, phone_number: null, given_name, family_name });
      const set = await askHooks({ method: 'social', provider }, shown);
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
  };
}
