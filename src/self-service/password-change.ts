// A signed-in user changes (or, without one yet, sets) their password: the current one is required
// when there is one; a user with a second factor needs a fresh step-up; the new one meets the policy.
// Every other session and grant of the user ends (the caller's own stay: its grant and session, or its
// session), and the user is told.
import { enforcePasswordPolicy } from '../accounts/password-policy.js';
import { hashPassword, verifyPassword } from '../accounts/passwords.js';
import { accountKey, createSignInProtection } from '../accounts/sign-in-protection.js';
import type { SecurityEvents, StagedEvent } from '../audit/events.js';
import type { ClientService } from '../clients/service.js';
import type { AccountSettings } from '../config/types.js';
import { missingField } from '../errors/refusals.js';
import { WardError } from '../errors/ward-error.js';
import type { Delivery } from '../integrations/delivery.js';
import type { Background } from '../lib/background.js';
import type { Clock } from '../lib/clock.js';
import type { Outbound } from '../lib/outbound/client.js';
import { endSessionsOfUser } from '../logout/backchannel.js';
import { requireFreshStepUp } from '../stepup/factors.js';
import type { Storage } from '../storage/storage.js';
import type { User } from '../storage/sql/users.js';
import { tellPasswordChanged } from './password-notice.js';

export interface PasswordChangeDeps {
  storage: Storage;
  clock: Clock;
  account: () => AccountSettings;
  delivery: Pick<Delivery, 'sendAccountMessage'>;
  background: Background;
  events: SecurityEvents;
  clients: ClientService;
  logoutDelivery: { kick(): void };
  /** The guarded client of the breached-password check. */
  outbound: Pick<Outbound, 'fetch'>;
  /** Opens an imported (foreign) password hash, sealed at rest. */
  masterKey: Buffer;
}

export interface PasswordChanger {
  user: User;
  /**
   * What stays signed in: the caller's grant (an API call with an access token), with the session it
   * was issued in; or the caller's session (the hosted account page), with its grants. Every other
   * session and grant of the user ends.
   */
  keep: { grant: string } | { session: string };
  amr: string[];
  authTime: number | null;
}

export async function changePassword(
  deps: PasswordChangeDeps,
  who: PasswordChanger,
  input: { oldPassword: unknown; password: unknown },
): Promise<void> {
  const { user } = who;
  if (typeof input.password !== 'string' || input.password === '') throw missingField('password');
  if (user.password_hash) {
    if (typeof input.oldPassword !== 'string' || input.oldPassword === '') throw missingField('old_password');
    // The current password is a password check like a sign-in: counted, and slowed down or locked alike.
    const oldPassword = input.oldPassword;
    const hash = user.password_hash;
    const right = await createSignInProtection(deps).attempt(accountKey(user.id), async () =>
      (await verifyPassword(hash, oldPassword, { userId: user.id, masterKey: deps.masterKey })) ? true : undefined,
    );
    if (!right) {
      await deps.events.emit('account.password_change_refused', { user_id: user.id }, 'wrong current password');
      throw new WardError('invalidOldPassword');
    }
  }
  await requireFreshStepUp(
    { storage: deps.storage, now: deps.clock.now() },
    { userId: user.id, amr: who.amr, authTime: who.authTime },
  );
  await enforcePasswordPolicy(deps.account(), input.password, user, 'password', { outbound: deps.outbound });
  const hash = await hashPassword(input.password);
  const keep =
    'grant' in who.keep
      ? { grant: who.keep.grant, session: (await deps.storage.tokens.findGrant(who.keep.grant))?.session_id ?? null }
      : { grant: null, session: who.keep.session };
  // The new password, the other sessions' end and the webhook event in one transaction.
  let changed: StagedEvent | undefined;
  await endSessionsOfUser({ ...deps, delivery: deps.logoutDelivery }, user.id, keep, async (tx, ended) => {
    await tx.users.setPassword(user.id, hash, deps.clock.now());
    changed = await deps.events.stage(tx, 'account.password_changed', { user_id: user.id, ...ended });
  });
  tellPasswordChanged(deps, user, deps.clock.now());
  if (changed) deps.events.emitStaged(changed, 'password changed');
}
