import type { AccountSettings } from '../config/types.js';
import { WardError } from '../errors/ward-error.js';
import type { Repos, Storage } from '../storage/storage.js';
import type { CredentialRow } from '../storage/sql/mfa.js';

/** The verified second factors of a user (a pending registration is no factor). */
export async function verifiedFactors(
  storage: Pick<Repos, 'mfaCredentials'>,
  userId: string,
): Promise<CredentialRow[]> {
  return (await storage.mfaCredentials.listOfUser(userId)).filter((c) => c.verified_at !== null);
}

/**
 * MFA required = Always and the user has a verified factor, or (passkeys on) a key registered as a
 * second factor (the required enrolment page's; a passkey registered to sign in does not count) and
 * did not sign in with a key: a password alone does not sign in.
 */
export async function stepUpRequiredAtLogin(
  storage: Storage,
  account: AccountSettings,
  userId: string,
  amr: string[] = [],
): Promise<boolean> {
  if (account.mfa_required !== 'always') return false;
  if ((await verifiedFactors(storage, userId)).length > 0) return true;
  // A sign-in with a key is already the key: it is not asked again.
  if (amr.includes('webauthn')) return false;
  return account.passkeys.enabled && (await storage.passkeys.hasSecondFactor(userId));
}

/** Whether the user has a strong factor: an authenticator app, or a key registered as a second factor. */
export async function hasStrongFactor(storage: Pick<Repos, 'mfaCredentials' | 'passkeys'>, userId: string) {
  const factors = await verifiedFactors(storage, userId);
  return factors.some((f) => f.type === 'totp') || (await storage.passkeys.hasSecondFactor(userId));
}

/**
 * The amr of a step-up: what the user did before, plus mfa and the factor (RFC 8176): `email`, `sms`,
 * `otp` for an authenticator app; a recovery code adds mfa only (RFC 8176 has no value for it); a
 * security key or passkey adds `hwk` (a hardware-bound key) or `swk` (a key that may be synced).
 */
export function steppedUpAmr(
  base: string[],
  channel: 'email' | 'sms' | 'totp' | 'recovery_code' | 'hwk' | 'swk',
): string[] {
  const kept = base.filter((m) => m !== 'mfa' && m !== 'email' && m !== 'sms');
  if (channel === 'totp') return [...new Set([...kept, 'mfa', 'otp'])];
  if (channel === 'recovery_code') return [...new Set([...kept, 'mfa'])];
  return [...new Set([...kept, 'mfa', channel])];
}

/** How recent a step-up must be for a sensitive change of the account. */
export const STEP_UP_FRESH_MS = 5 * 60_000;

/**
 * A sensitive change (a factor, the password, the email or phone) by a user who has a verified factor,
 * or a key registered as a second factor, needs an access token that came out of a step-up (amr has
 * mfa) done within 5 minutes (its auth_time): a refresh, or a new code from the SSO session the step-up
 * left, keeps the old auth_time. Without a factor there is nothing to step up with: the token alone is
 * enough (a passkey registered to sign in is no second factor: the seed's rule).
 */
export async function requireFreshStepUp(
  deps: { storage: Pick<Repos, 'mfaCredentials' | 'passkeys'>; now: number },
  who: { userId: string; amr: string[]; authTime: number | null },
): Promise<void> {
  if (
    (await verifiedFactors(deps.storage, who.userId)).length === 0 &&
    !(await deps.storage.passkeys.hasSecondFactor(who.userId))
  )
    return;
  if (!freshFromStepUp(who, deps.now)) throw new WardError('stepUpRequired');
}

/** Whether a credential came out of a step-up (amr has mfa) done within STEP_UP_FRESH_MS of `now`. */
export function freshFromStepUp(who: { amr: string[]; authTime: number | null }, now: number): boolean {
  return who.amr.includes('mfa') && who.authTime !== null && now - who.authTime <= STEP_UP_FRESH_MS;
}
