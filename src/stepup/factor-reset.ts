// An administrator's view of a user's factors and the reset of all of them (issue 38, item 6): for a
// user who lost their factors and proved who they are outside Ward. Only the user makes new ones
// (an administrator never sees a secret, a recovery code or a passkey's key).
import { type Actor, recordAudit } from '../audit/record.js';
import type { Clock } from '../lib/clock.js';
import type { Storage } from '../storage/storage.js';
import type { User } from '../storage/sql/users.js';
import type { FactorNotices } from './factor-notices.js';
import { verifiedFactors } from './factors.js';

export interface FactorResetDeps {
  clock: Clock;
  notices: Pick<FactorNotices, 'factorChanged'>;
  storage: Storage;
}

export interface FactorListing {
  factors: Array<{
    id: string;
    type: 'email' | 'sms' | 'totp' | 'passkey';
    /** The address of an email or SMS factor (null for an app or a passkey). */
    destination: string | null;
    /** A passkey's name. */
    name: string | null;
    verified: boolean;
    /** Whether it answers a second factor: a verified code factor or app, any passkey or security key. */
    secondFactor: boolean;
    createdAt: number;
    lastUsedAt: number | null;
  }>;
  recoveryCodesLeft: number;
}

/** Every factor of a user: email and SMS codes, the authenticator app, passkeys, and the recovery codes left. */
export async function listFactors(d: Pick<FactorResetDeps, 'storage'>, userId: string): Promise<FactorListing> {
  const credentials = await d.storage.mfaCredentials.listOfUser(userId);
  const passkeys = await d.storage.passkeys.listOfUser(userId);
  return {
    factors: [
      ...credentials.map((c) => ({
        id: c.id,
        type: c.type as 'email' | 'sms' | 'totp',
        destination: c.type === 'totp' ? null : c.destination,
        name: null,
        verified: c.verified_at !== null,
        secondFactor: c.verified_at !== null,
        createdAt: c.created_at,
        lastUsedAt: null,
      })),
      ...passkeys.map((k) => ({
        id: k.id,
        type: 'passkey' as const,
        destination: null,
        name: k.friendly_name,
        verified: true,
        // A security key or passkey answers the second factor too (after a password, or a step-up).
        secondFactor: true,
        createdAt: k.created_at,
        lastUsedAt: k.last_used_at,
      })),
    ],
    recoveryCodesLeft: await d.storage.recoveryCodes.countUnused(userId),
  };
}

/**
 * Removes every factor of the user at once (email and SMS factors, the authenticator app and its
 * secret, recovery codes, passkeys) and the trust given to their devices, audited with the
 * administrator's reason in the same transaction; the user is told at the addresses the account had.
 * Answers what was removed.
 */
export async function resetFactors(
  d: FactorResetDeps,
  actor: Actor,
  user: User,
  reason: string,
): Promise<{ factors: number; passkeys: number; recoveryCodes: number }> {
  const before = await verifiedFactors(d.storage, user.id);
  const now = d.clock.now();
  const removed = await d.storage.transaction(async (tx) => {
    const credentials = await tx.mfaCredentials.listOfUser(user.id);
    for (const c of credentials) {
      await tx.mfaCredentials.delete(c.id);
      if (c.type === 'totp') await tx.totpSecrets.delete(c.id);
    }
    const recoveryCodes = await tx.recoveryCodes.countUnused(user.id);
    await tx.recoveryCodes.deleteAllOfUser(user.id);
    const passkeys = await tx.passkeys.deleteOfUser(user.id);
    await tx.trustedDevices.revokeAllOfUser(user.id, now);
    const counts = { factors: credentials.length, passkeys, recoveryCodes };
    await recordAudit(tx, now, actor, 'user.factors_reset', `user:${user.id}`, 'success', { reason, ...counts });
    return counts;
  });
  if (removed.factors + removed.passkeys + removed.recoveryCodes > 0) {
    const locale = (await d.storage.profiles.find(user.id))?.locale ?? undefined;
    d.notices.factorChanged({ user, change: 'factors_reset', factor: { type: 'all' }, before, at: now, locale });
  }
  return removed;
}
