import { recordAudit, type Actor } from '../audit/record.js';
import { WardError } from '../errors/ward-error.js';
import type { AccountSettings } from '../config/types.js';
import type { Clock } from '../lib/clock.js';
import type { Storage } from '../storage/storage.js';

/**
 * Removes one linked social identity of a user (by its id, or the user's identity at a provider), unless it is
 * their last way to sign in: no password, no other linked identity, no passkey, no passwordless first factor on
 * one of their addresses. Checked and removed in one transaction (the user's row locked on PostgreSQL), so two
 * concurrent unlinks cannot leave the account with none. Audited.
 */
export async function unlinkIdentity(
  deps: { storage: Storage; clock: Clock; account: () => AccountSettings },
  userId: string,
  target: { id?: string; provider?: string },
  actor: Actor,
): Promise<void> {
  await deps.storage.transaction(async (tx) => {
    await tx.passkeys.lockUser(userId);
    const user = await tx.users.findById(userId);
    const identities = await tx.identities.listOfUser(userId);
    const identity = identities.find((i) =>
      target.id !== undefined ? i.id === target.id : i.provider === target.provider,
    );
    if (!user || !identity) throw new WardError('identityNotFound');
    // A passwordless first factor the account allows, on an address the user has, is a way in too.
    const pl = deps.account().passwordless;
    const passwordless = (pl.magic_link && !!user.email) || (pl.sms && !!user.phone_number);
    const others =
      !!user.password_hash ||
      passwordless ||
      identities.length > 1 ||
      (await tx.passkeys.listOfUser(userId)).length > 0;
    if (!others) throw new WardError('lastIdentity');
    await tx.identities.delete(identity.id, userId);
    await recordAudit(tx, deps.clock.now(), actor, 'user.identity_unlinked', `user:${userId}`, 'success', {
      identity_id: identity.id,
      provider: identity.provider,
    });
  });
}
