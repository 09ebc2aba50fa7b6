// The password as a first factor (users.ts composes it into the user service): the user whose identifier
// and password match, with the per-account protection (sign-in-protection.ts), the rehash of an imported
// hash, the lockout notice, and the refusals that read like a wrong password: a disabled user, a lite
// profile (kept without credentials: it signs in with none, even one it somehow has).
import type { AccountSettings } from '../config/types.js';
import { WardError } from '../errors/ward-error.js';
import type { Clock } from '../lib/clock.js';
import type { User } from '../storage/sql/users.js';
import type { Repos, Storage } from '../storage/storage.js';
import type { LanguageFor } from '../texts/choose-language.js';
import { LITE_PROFILE } from './lite-profiles.js';
import { hashPassword, needsRehash, verifyPassword } from './passwords.js';
import { accountKey, createSignInProtection, identifierKey } from './sign-in-protection.js';
import { findBySignInIdentifier, type SignInIdentifier } from './sign-in-identifiers.js';

export interface PasswordSignInDeps {
  storage: Storage;
  clock: Clock;
  account: () => AccountSettings;
  /** Opens the imported (foreign) password hashes, sealed at rest. */
  masterKey: Buffer;
  /** Told when failed passwords lock a user's password sign-in (the lockout notice). */
  onLock?: (user: User, at: number, until: number, language?: LanguageFor) => void;
  /**
   * Writes what goes with a lockout in its transaction (its webhook event); answers what to do once
   * it committed.
   */
  lockedWithin?: (tx: Repos, user: User, at: number, until: number) => Promise<() => void>;
}

/** A password sign-in's outcome: the user, or none; `refused` says why a known user was (for the audit only). */
export interface PasswordCheck {
  user?: User;
  refused?: { reason: typeof LITE_PROFILE; userId: string };
}

export function createPasswordSignIn(deps: PasswordSignInDeps) {
  const { storage, clock } = deps;
  const protection = createSignInProtection({ storage, clock, account: deps.account });
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

  /**
   * The user whose identifier and password match, or none (same answer and time either way). Failed
   * attempts are counted per account, or per identifier of no account (sign-in-protection.ts): past
   * the account's thresholds this throws `signInDelayed` or `accountLocked` (429 with Retry-After),
   * account or not. A lite profile is refused like a wrong password, counted like one, and said so in
   * `refused`.
   */
  async function check(
    identifier: SignInIdentifier,
    password: unknown,
    /** The request's language rule, for the lockout notice (the user's stored locale takes its place in it). */
    language?: LanguageFor,
  ): Promise<PasswordCheck> {
    const named = await findBySignInIdentifier(storage, deps.account().sign_in_identifiers, identifier);
    const user = named?.user;
    // An account's failures count together, by any of its identifiers; an identifier of no account
    // counts on its own, with the same thresholds (the answers do not tell which).
    const key = user ? accountKey(user.id) : named ? identifierKey(named.kind, named.value) : null;
    let afterLock: (() => void) | undefined;
    let lite = false;
    const found = await protection.attempt(
      key,
      async () => {
        const given = typeof password === 'string' ? password : '';
        const owner = user && { userId: user.id, masterKey: deps.masterKey };
        const ok = await verifyPassword(user?.password_hash, given, owner);
        if (!ok || !user || user.disabled) return undefined;
        lite = user.lite;
        if (lite) return undefined;
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
    if (lite && user) return { refused: { reason: LITE_PROFILE, userId: user.id } };
    // Account setting: an email must be confirmed before a password signs in (the password was right).
    if (found && deps.account().self_service.email_verification === 'required' && found.email && !found.email_verified)
      throw new WardError('emailNotVerified');
    return { user: found };
  }

  return {
    /** Sign-in protection: unlock and read a user's state (management API). */
    protection,
    check,
    /** The user whose identifier and password match, or undefined (check, without the reason). */
    authenticate: async (identifier: SignInIdentifier, password: unknown, language?: LanguageFor) =>
      (await check(identifier, password, language)).user,
  };
}
