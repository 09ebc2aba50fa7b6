// The user service: password sign-in (password-sign-in.ts), password signups and a lite profile's claim
// (lite-profiles.ts), the users made without a password (users-without-password.ts), all with the same
// before.signup hooks and the same insert.
import type { Logger } from 'pino';
import { WardError } from '../errors/ward-error.js';
import { missingField } from '../errors/refusals.js';
import type { Outbound } from '../lib/outbound/client.js';
import { randomId } from '../lib/random.js';
import type { Repos } from '../storage/storage.js';
import { isUniqueViolation } from '../storage/sql/errors.js';
import type { NewUser, User } from '../storage/sql/users.js';
import { readCustomIdentifier, storeCustomIdentifier } from './custom-identifiers.js';
import type { LiteClaim } from './lite-profiles.js';
import { enforcePasswordPolicy } from './password-policy.js';
import { hashPassword } from './passwords.js';
import { createPasswordSignIn, type PasswordSignInDeps } from './password-sign-in.js';
import { createUsersWithoutPassword } from './users-without-password.js';
import { readProfile, type ProfileChange } from './profile.js';
import {
  type BeforeSignup,
  identifiersOf,
  type SignupConsents,
  type SignupData,
  type SignupOrigin,
  shownToHooks,
  signupConsents,
  signupProfile,
  storeSignupProfile,
  withFields,
} from './signup-input.js';
import type { ConsentInput } from './user-consents.js';

export type {
  BeforeSignup,
  PasswordlessProfile,
  SignupAttempt,
  SignupConsents,
  SignupData,
  SignupOrigin,
} from './signup-input.js';

/** A password signup checked whole (identifiers, profile, consents, policy, hooks): the user it would create. */
interface CheckedSignup {
  user: NewUser & { password_hash: string };
  extra: ProfileChange;
  custom: string | null | undefined;
  consents: ConsentInput[];
  byAdministrator: boolean;
}

export interface SignupOptions {
  generatedPassword?: boolean;
  /** Made by Ward or an administrator: admin-only fields may be written, required ones may wait. */
  byAdministrator?: boolean;
  /** What must be written with the user, in its transaction (its audit row and webhook event). */
  within?: (tx: Repos, user: User) => Promise<void>;
}

export function createUserService(
  deps: PasswordSignInDeps & {
    log?: Pick<Logger, 'warn'>;
    /** The guarded client of the breached-password check. */
    outbound: Pick<Outbound, 'fetch'>;
    /** The before.signup hooks, asked before any user is created but by an administrator. */
    beforeSignup?: BeforeSignup;
    /** Users' consents given at signup. */
    consents?: SignupConsents;
  },
) {
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
  async function create(user: NewUser, repos: Pick<Repos, 'users'> = storage): Promise<User> {
    try {
      return await repos.users.create(user, clock.now());
    } catch (e) {
      if (isUniqueViolation(e)) throw new WardError(user.email ? 'emailInUse' : 'phoneNumberInUse');
      throw e;
    }
  }

  /** Checks a password signup whole, before anything is written (every refusal a WardError). */
  async function check(data: SignupData, role: string | null, opts: SignupOptions): Promise<CheckedSignup> {
    const { email, phone } = identifiersOf(data, 'data');
    if (typeof data.password !== 'string') throw missingField('data.password');
    const asked = signupProfile(data, 'data', deps.account(), opts.byAdministrator);
    const consents = signupConsents(data, 'data', deps.consents, !opts.byAdministrator && !opts.generatedPassword);
    const custom = readCustomIdentifier(data.custom_identifier, 'data.custom_identifier');
    const given_name = asked.names.given_name ?? null;
    const family_name = asked.names.family_name ?? null;
    // A password Ward generated itself (the first administrator's) is random: no policy to meet.
    if (!opts.generatedPassword)
      await enforcePasswordPolicy(deps.account(), data.password, { email, given_name, family_name }, 'data.password', {
        outbound: deps.outbound,
        onUnavailable: () =>
          deps.log?.warn({ event: 'password.breach_check_unavailable' }, 'breached-password check unavailable'),
      });
    const byAdministrator = !!opts.byAdministrator || !!opts.generatedPassword;
    const origin = byAdministrator ? 'administrator' : { method: 'password' as const };
    const set = await askHooks(origin, shownToHooks({ email, phone_number: phone, given_name, family_name }, asked));
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
    return { user, extra: withFields(asked, set) ?? asked, custom, consents, byAdministrator: !!opts.byAdministrator };
  }

  /** Creates the user of a checked signup, with its profile, custom identifier and consents, in one transaction. */
  async function store(s: CheckedSignup, within: SignupOptions['within']): Promise<User> {
    let pending: Awaited<ReturnType<SignupConsents['store']>> = [];
    const made = await storage.transaction(async (tx) => {
      const created = await create(s.user, tx);
      await storeSignupProfile(tx, created.id, s.extra, clock.now());
      if (s.custom) await storeCustomIdentifier(tx, created.id, s.custom, clock.now());
      if (s.consents.length) {
        const reporter = s.byAdministrator ? 'managed' : 'end_user';
        const actor = { type: 'user' as const, id: created.id, ip: null };
        pending = await deps.consents!.store(tx, created.id, s.consents, reporter, actor);
      }
      await within?.(tx, created);
      return created;
    });
    deps.consents?.sendConfirmations(made, pending);
    return made;
  }

  return {
    ...createPasswordSignIn(deps),
    /** A password signup: the user it created (an email or phone number of another user is a 409). */
    async signup(data: SignupData, role: string | null = null, opts: SignupOptions = {}): Promise<User> {
      return store(await check(data, role, opts), opts.within);
    },
    /**
     * A user's own password signup (the API, the hosted page): the user it created, or, when its email is
     * a lite profile's, that profile's claim handed to `claim` (lite-profiles.ts), nothing written yet.
     */
    async signupOrClaim(
      data: SignupData,
      opts: Pick<SignupOptions, 'within'> & {
        claim: (lite: User & { email: string }, claim: LiteClaim) => Promise<void>;
      },
    ): Promise<{ user: User } | { claimed: string }> {
      const s = await check(data, null, {});
      const holder = s.user.email ? await storage.users.findByEmail(s.user.email) : undefined;
      if (holder?.email && !holder.disabled && holder.lite) {
        const { password_hash, phone_number } = s.user;
        // Its other identifiers are checked now, as any signup's: another user's is a 409.
        const phoneHolder = phone_number ? await storage.users.findByPhone(phone_number) : undefined;
        if (phoneHolder && phoneHolder.id !== holder.id) throw new WardError('phoneNumberInUse');
        const customHolder = s.custom ? await storage.customIdentifiers.userOf(s.custom) : undefined;
        if (customHolder && customHolder !== holder.id) throw new WardError('customIdentifierInUse');
        await opts.claim(
          { ...holder, email: holder.email },
          {
            password_hash,
            phone_number,
            custom_identifier: s.custom ?? null,
            extra: s.extra,
            consents: s.consents,
          },
        );
        return { claimed: holder.email };
      }
      return { user: await store(s, opts.within) };
    },
    ...createUsersWithoutPassword({ storage, clock, account: deps.account, consents: deps.consents, askHooks, create }),
    find: (id: string) => storage.users.findById(id),
  };
}

export type UserService = ReturnType<typeof createUserService>;
