import type { AccountSettings } from '../../config/types.js';
import type { Repos, Storage } from '../../storage/storage.js';
import type { CredentialRow } from '../../storage/sql/mfa.js';

/** The verified second factors of a user (a pending registration is no factor). */
export async function verifiedFactors(
  storage: Pick<Repos, 'mfaCredentials'>,
  userId: string,
): Promise<CredentialRow[]> {
  return (await storage.mfaCredentials.listOfUser(userId)).filter((c) => c.verified_at !== null);
}

/** MFA required = Always and the user has a verified factor: a password alone does not sign in. */
export async function stepUpRequiredAtLogin(
  storage: Storage,
  account: AccountSettings,
  userId: string,
): Promise<boolean> {
  return account.mfa_required === 'always' && (await verifiedFactors(storage, userId)).length > 0;
}

/** The amr of a step-up: what the user did before, plus mfa and the factor (RFC 8176). */
export function steppedUpAmr(base: string[], channel: 'email' | 'sms'): string[] {
  return [...new Set([...base.filter((m) => m !== 'mfa' && m !== 'email' && m !== 'sms'), 'mfa', channel])];
}
