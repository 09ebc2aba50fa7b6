/**
 * Per-account protection of password sign-in (NIST SP 800-63B 5.2.2). Failures are counted per
 * account when the identifier (email or phone) belongs to one, so its email and its phone number
 * share one count, and per normalized identifier when none has it, with the same thresholds, so the
 * answers never tell whether an account exists (keys are SHA-256, never an address in clear); the
 * per-IP limit (http/rate-limit.ts) counts beside it.
 *
 * - Past `sign_in_delay_after` failures each attempt must wait: `sign_in_delay_seconds`, doubled at
 *   each further failure. The wait is a refusal with Retry-After, never a server-side sleep, so waiting
 *   attempts hold nothing on the server and no password is even checked for them.
 * - Past `sign_in_lock_after` failures password sign-in stops for `sign_in_lock_seconds` (a lockout)
 *   and the user is told once per lockout. After it one attempt is allowed; a failure locks again.
 * - A refused attempt is not a failure (an attacker cannot lengthen a wait by hammering), a success
 *   forgets every failure, failures are forgotten `sign_in_failure_memory_seconds` after the last one,
 *   and an administrator can unlock. Nothing is permanent, and other ways to sign in (passkeys,
 *   social login, a password reset) are not touched.
 * - Once an identifier has a failure, each attempt first takes it with a compare-and-set on its row
 *   (held for the wait that a failure would bring, at least CHECK_LEASE_MS): of parallel attempts one
 *   checks its password, the others are refused as too early. So past the first failure the guesses
 *   on one identifier are one at a time whatever the number of addresses; a lease left by a crashed
 *   process ends by itself.
 */
import type { AccountSettings } from '../config/types.js';
import { WardError } from '../errors/ward-error.js';
import type { Clock } from '../lib/clock.js';
import { sha256 } from '../lib/secrets.js';
import type { Repos, Storage } from '../storage/storage.js';
import type { SignInFailureRow } from '../storage/sql/sign-in-failures.js';

type Settings = Pick<
  AccountSettings,
  | 'sign_in_delay_after'
  | 'sign_in_delay_seconds'
  | 'sign_in_lock_after'
  | 'sign_in_lock_seconds'
  | 'sign_in_failure_memory_seconds'
>;

/** The key of an identifier (already normalized): `email`, `phone` or `custom`, never stored in clear. */
export const identifierKey = (kind: 'email' | 'phone' | 'custom', normalized: string): string =>
  sha256(`${kind}:${normalized}`);

/** The key of an account: its failures count together, whichever of its identifiers named it. */
export const accountKey = (userId: string): string => sha256(`user:${userId}`);

/**
 * The keys of a user (to unlock them, or forget them with the user): the account's first, then its
 * identifiers' (counted apart before issue 33; such rows end with their memory).
 */
export function keysOfUser(u: { id: string; email: string | null; phone_number: string | null }): string[] {
  const keys: string[] = [accountKey(u.id)];
  if (u.email) keys.push(identifierKey('email', u.email));
  if (u.phone_number) keys.push(identifierKey('phone', u.phone_number));
  return keys;
}

/** How long one attempt holds an identifier that has failures while its password is checked. */
export const CHECK_LEASE_MS = 10_000;

/** How long the attempt after `failures` failures must wait, ms (0: none). */
export function penaltyMs(failures: number, s: Settings): number {
  if (failures >= s.sign_in_lock_after) return s.sign_in_lock_seconds * 1000;
  if (failures < s.sign_in_delay_after) return 0;
  const doubled = s.sign_in_delay_seconds * 2 ** Math.min(failures - s.sign_in_delay_after, 30);
  return Math.min(doubled, s.sign_in_lock_seconds) * 1000;
}

/** What an administrator and the user's data export see of an identifier's state. */
export interface ProtectionState {
  failures: number;
  locked: boolean;
  blocked_until: number | null;
}

export function createSignInProtection(deps: {
  storage: Pick<Storage, 'signInFailures' | 'transaction'>;
  clock: Clock;
  account: () => Settings;
}) {
  const { storage, clock } = deps;
  const refusal = (row: SignInFailureRow, now: number, s: Settings) =>
    new WardError(row.failures >= s.sign_in_lock_after ? 'accountLocked' : 'signInDelayed', {
      headers: { 'Retry-After': String(Math.max(1, Math.ceil((row.blocked_until - now) / 1000))) },
    });

  return {
    /**
     * Runs one password attempt for the identifier `key` (null: no identifier an account could have,
     * nothing counted): refuses it while the identifier must wait (429 with Retry-After), else runs
     * `check`, forgets the failures on success, counts one on failure. When this failure starts a
     * lockout, `lockedWithin` writes what goes with it in the lockout's transaction (its webhook
     * event), and `onLock(at, until)` is called once it committed.
     */
    async attempt<T>(
      key: string | null,
      check: () => Promise<T | undefined>,
      onLock: (at: number, until: number) => void = () => {},
      lockedWithin?: (tx: Repos, at: number, until: number) => Promise<void>,
    ): Promise<T | undefined> {
      if (key === null) return check();
      const s = deps.account();
      const now = clock.now();
      const row = await storage.signInFailures.find(key);
      if (row && row.blocked_until > now) throw refusal(row, now, s);
      const wait = row ? penaltyMs(row.failures + 1, s) : 0;
      const lease = now + Math.max(wait, CHECK_LEASE_MS);
      if (row && !(await storage.signInFailures.claim(key, row.blocked_until, lease)))
        throw refusal({ ...row, blocked_until: now + wait }, now, s);
      const result = await check();
      if (result !== undefined) {
        if (row) await storage.signInFailures.clear([key]);
        return result;
      }
      const at = clock.now();
      const memory = at + s.sign_in_failure_memory_seconds * 1000;
      const failures = await storage.signInFailures.fail(key, at, memory);
      const penalty = penaltyMs(failures, s);
      const locks = failures >= s.sign_in_lock_after;
      // Also ends this attempt's lease when no wait follows.
      const block = (repos: Pick<Repos, 'signInFailures'>) =>
        repos.signInFailures.block(key, at + penalty, locks ? at : null, Math.max(memory, at + penalty));
      if (locks) {
        await storage.transaction(async (tx) => {
          await block(tx);
          await lockedWithin?.(tx, at, at + penalty);
        });
        onLock(at, at + penalty);
      } else if (penalty > 0 || row) await block(storage);
      return undefined;
    },
    /**
     * Forgets the failures of these identifiers (an administrator's unlock); answers whether any were
     * counted. With `repos`, in the caller's transaction.
     */
    async unlock(keys: string[], repos: Pick<Repos, 'signInFailures'> = storage): Promise<boolean> {
      return (await repos.signInFailures.clear(keys)) > 0;
    },
    /** The state of the most restricted of these identifiers. */
    async state(keys: string[]): Promise<ProtectionState> {
      const s = deps.account();
      const now = clock.now();
      let out: ProtectionState = { failures: 0, locked: false, blocked_until: null };
      for (const key of keys) {
        const row = await storage.signInFailures.find(key);
        if (!row || row.failures <= out.failures) continue;
        const blocked = row.blocked_until > now;
        out = {
          failures: row.failures,
          locked: blocked && row.failures >= s.sign_in_lock_after,
          blocked_until: blocked ? row.blocked_until : null,
        };
      }
      return out;
    },
  };
}

export type SignInProtection = ReturnType<typeof createSignInProtection>;
