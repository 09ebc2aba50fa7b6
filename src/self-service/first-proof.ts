// Account pre-hijacking (issue 33, item 5): someone may sign up with another person's address before
// that person ever proves it (a password, a passkey, a social identity of their own, a session).
// The first proof of the address (a magic link or emailed code, an SMS code, a password reset, an
// account recovery) is the first time the account's owner is known: what was made before it by
// someone who never proved the address ends there. The password is removed (a reset sets a new one),
// the passkeys and social identities are unlinked, every session, refresh token and trusted device
// ends. The signup verification link is the exception: it confirms the signup it was sent for
// (docs/security.md, "Account pre-hijacking").
import type { SecurityEvents } from '../audit/events.js';
import type { ClientService } from '../clients/service.js';
import type { Clock } from '../lib/clock.js';
import { endSessionsOfUser } from '../logout/backchannel.js';
import type { User } from '../storage/sql/users.js';
import type { Storage } from '../storage/storage.js';

export interface FirstProofDeps {
  storage: Storage;
  clock: Clock;
  clients: ClientService;
  events: SecurityEvents;
  logoutDelivery: { kick(): void };
}

/** Whether proving `address` now is the first proof of it: it is the user's, and not verified yet. */
export function isFirstProof(user: User, field: 'email' | 'phone_number', address: string): boolean {
  return field === 'email'
    ? user.email === address && !user.email_verified
    : user.phone_number === address && !user.phone_number_verified;
}

/**
 * Ends what was made before the first proof of an address. `keepPassword`: the caller sets a new one
 * at once (a reset).
 */
export async function endUnprovenAccess(
  deps: FirstProofDeps,
  user: User,
  field: 'email' | 'phone_number',
  opts: { keepPassword?: boolean } = {},
): Promise<void> {
  const { storage } = deps;
  const now = deps.clock.now();
  const hadPassword = !!user.password_hash && !opts.keepPassword;
  if (hadPassword) await storage.users.setPassword(user.id, null, now);
  const passkeys = await storage.passkeys.deleteOfUser(user.id);
  let identities = 0;
  for (const i of await storage.identities.listOfUser(user.id))
    if (await storage.identities.delete(i.id, user.id)) identities++;
  const devices = await storage.trustedDevices.revokeAllOfUser(user.id, now);
  const ended = await endSessionsOfUser({ ...deps, delivery: deps.logoutDelivery }, user.id);
  await deps.events.emit(
    'account.first_proof',
    { user_id: user.id, field, password_removed: hadPassword, passkeys, identities, devices, ...ended },
    'first proof of an address: earlier credentials and sessions ended',
  );
}
