// A user leaves (GDPR article 17). The erasure itself is the administrators' (management DELETE
// /api/v1/users/:id): every row of the user in one transaction, the clients with Back-Channel Logout
// told, one `user.deleted` audit event (and webhook) with counts only. A user's own deletion first
// proves it is them (their password, or a code sent to their address when they have none; the
// caller checks the step-up when they have a second factor), needs an explicit confirmation, and is
// refused when the account setting turns it off. With a grace period (self_service.deletion_grace_days)
// the account is signed out everywhere at once and erased by `eraseDue` once the days pass; a sign-in
// meanwhile cancels it (`cancel`). The user is told by email (or SMS) in their language.
import type { AccountCodes } from '../accounts/codes.js';
import { accountKey, createSignInProtection, keysOfUser } from '../accounts/sign-in-protection.js';
import { verifyPassword } from '../accounts/passwords.js';
import type { SecurityEvents } from '../audit/events.js';
import { type Actor, recordAudit } from '../audit/record.js';
import type { ClientService } from '../clients/service.js';
import type { AccountSettings } from '../config/types.js';
import { WardError } from '../errors/ward-error.js';
import type { Delivery } from '../integrations/delivery.js';
import type { Background } from '../lib/background.js';
import type { Clock } from '../lib/clock.js';
import { deliveriesForUser, endSessionsOfUser } from '../logout/backchannel.js';
import type { Storage } from '../storage/storage.js';
import type { ErasedCounts } from '../storage/sql/user-erasure.js';
import type { User } from '../storage/sql/users.js';
import { sendAccountCode } from './send-code.js';

const DAY = 24 * 3600_000;
/** Most accounts erased by one run of the job. */
const ERASE_BATCH = 100;

/** What the complete erasure uses. */
export interface ErasureDeps {
  storage: Storage;
  clients: ClientService;
  clock: Clock;
  logoutDelivery: { kick(): void };
}

/**
 * Deletes a user completely (every table of storage/sql/user-erasure.ts), queues the logout tokens of
 * their open sessions' clients, and records `user.deleted` (a webhook event) with the counts and
 * `details`, never a personal value. Answers the counts.
 */
export async function eraseUser(
  deps: ErasureDeps,
  u: User,
  actor: Actor,
  details: Record<string, unknown> = {},
): Promise<ErasedCounts> {
  const logouts = await deliveriesForUser(deps, u.id);
  const now = deps.clock.now();
  const erased = await deps.storage.transaction(async (tx) => {
    const counts = await tx.userErasure.erase(u.id, keysOfUser(u));
    await tx.logoutDeliveries.enqueue(logouts);
    await recordAudit(tx, now, actor, 'user.deleted', `user:${u.id}`, 'success', { erased: counts, ...details });
    return counts;
  });
  if (logouts.length) deps.logoutDelivery.kick();
  return erased;
}

export interface AccountDeletionDeps extends ErasureDeps {
  account: () => AccountSettings;
  codes: AccountCodes;
  delivery: Pick<Delivery, 'sendAccountMessage'>;
  background: Background;
  events: SecurityEvents;
  /** Opens an imported (foreign) password hash, sealed at rest. */
  masterKey: Buffer;
}

/** Where a user without a password gets their code, and their notices: a verified address first. */
export function deletionAddressOf(u: User): { channel: 'email' | 'sms'; to: string } | null {
  if (u.email && u.email_verified) return { channel: 'email', to: u.email };
  if (u.phone_number && u.phone_number_verified) return { channel: 'sms', to: u.phone_number };
  if (u.email) return { channel: 'email', to: u.email };
  return u.phone_number ? { channel: 'sms', to: u.phone_number } : null;
}

/** How the user proves it is them: their password, or the code sent to them (no password). */
export interface DeletionProof {
  password?: unknown;
  code?: unknown;
  /** The explicit confirmation ("yes, delete my account"). */
  confirmed: boolean;
}

export function createAccountDeletion(deps: AccountDeletionDeps) {
  const { storage, clock } = deps;
  const userActor = (u: User): Actor => ({ type: 'user', id: u.id, ip: null });

  function requireEnabled(): void {
    if (!deps.account().self_service.account_deletion) throw new WardError('accountDeletionDisabled');
  }

  /** Tells the user, in the background (the account is gone or going: nothing to wait for). */
  function tell(u: User, kind: 'account_deleted' | 'account_deletion_scheduled', at: number, locale?: string) {
    const to = deletionAddressOf(u);
    if (to) deps.background.run(() => deps.delivery.sendAccountMessage({ kind, ...to, at, locale }));
  }

  async function prove(u: User, proof: DeletionProof): Promise<void> {
    if (u.password_hash) {
      const hash = u.password_hash;
      const given = typeof proof.password === 'string' ? proof.password : '';
      // Like the current password of a password change: counted, slowed down and locked alike.
      const right =
        given !== '' &&
        (await createSignInProtection(deps).attempt(accountKey(u.id), async () =>
          (await verifyPassword(hash, given, { userId: u.id, masterKey: deps.masterKey })) ? true : undefined,
        ));
      if (!right) {
        await deps.events.emit('account.deletion_refused', { user_id: u.id }, 'wrong password at account deletion');
        throw new WardError('invalidOldPassword');
      }
      return;
    }
    const to = deletionAddressOf(u);
    if (!to) throw new WardError('invalidVerificationCode');
    const row = await deps.codes.checkCode({
      purpose: 'delete_account',
      destination: to.to,
      code: proof.code,
      userId: u.id,
    });
    await deps.codes.consume(row);
  }

  const api = {
    /** Whether users may delete their own account (the account setting). */
    enabled: (): boolean => deps.account().self_service.account_deletion,

    /** A user without a password: a code to their address (masked in the answer). */
    async sendCode(u: User, locale?: string): Promise<{ channel: 'email' | 'sms'; to: string }> {
      requireEnabled();
      if (u.password_hash) throw new WardError('invalidRequest', { description: 'the account has a password' });
      const to = deletionAddressOf(u);
      if (!to) throw new WardError('invalidRequest', { description: 'the account has no address' });
      await sendAccountCode(deps, {
        userId: u.id,
        purpose: 'delete_account',
        channel: to.channel,
        address: to.to,
        locale,
        linkUrl: () => undefined,
      });
      await deps.events.emit(
        'account.deletion_code_sent',
        { user_id: u.id, channel: to.channel },
        'a code to confirm the deletion of the account was sent',
      );
      return to;
    },

    /**
     * The user's own deletion, once proven and confirmed (the caller checked any step-up owed): erased
     * at once, or signed out everywhere and erased once the grace period passes. The last
     * administrator cannot leave. Answers when it will be erased (null: it is).
     */
    async request(u: User, proof: DeletionProof, locale?: string): Promise<{ dueAt: number | null }> {
      requireEnabled();
      if (!proof.confirmed) throw new WardError('deletionNotConfirmed');
      await prove(u, proof);
      if (u.role === 'administrator' && (await storage.users.countByRole('administrator')) <= 1)
        throw new WardError('lastAdministrator');
      const days = deps.account().self_service.deletion_grace_days;
      const now = clock.now();
      if (days === 0) {
        await eraseUser(deps, u, userActor(u), { by: 'user' });
        tell(u, 'account_deleted', now, locale);
        return { dueAt: null };
      }
      const dueAt = now + days * DAY;
      await storage.accountDeletions.schedule(u.id, now, dueAt);
      await endSessionsOfUser({ ...deps, delivery: deps.logoutDelivery }, u.id);
      await recordAudit(storage, now, userActor(u), 'account.deletion_scheduled', `user:${u.id}`, 'success', {
        due_at: new Date(dueAt).toISOString(),
      });
      tell(u, 'account_deletion_scheduled', dueAt, locale);
      return { dueAt };
    },

    /** A sign-in cancels a deletion waiting for its grace period (answers whether one was). */
    async cancel(userId: string): Promise<boolean> {
      if (!(await storage.accountDeletions.cancel(userId))) return false;
      const now = clock.now();
      await recordAudit(
        storage,
        now,
        { type: 'user', id: userId, ip: null },
        'account.deletion_cancelled',
        `user:${userId}`,
        'success',
      );
      return true;
    },

    /** Erases the accounts whose grace period has passed (the background job); answers how many. */
    async eraseDue(): Promise<number> {
      let erased = 0;
      for (const d of await storage.accountDeletions.due(clock.now(), ERASE_BATCH)) {
        const u = await storage.users.findById(d.user_id);
        if (!u) {
          await storage.accountDeletions.cancel(d.user_id);
          continue;
        }
        const locale = (await storage.profiles.find(u.id))?.locale ?? undefined;
        await eraseUser(
          deps,
          u,
          { type: 'system', id: 'account-deletion', ip: null },
          { by: 'user', after_grace_period: true },
        );
        tell(u, 'account_deleted', clock.now(), locale);
        erased++;
      }
      return erased;
    },
  };
  return api;
}

export type AccountDeletion = ReturnType<typeof createAccountDeletion>;

/** Runs `eraseDue` every `intervalMs` (like the janitor); `stop` ends it. */
export function startDeletionJob(
  deletion: Pick<AccountDeletion, 'eraseDue'>,
  onError: (e: unknown) => void,
  intervalMs = 10 * 60_000,
) {
  const run = async () => {
    try {
      return await deletion.eraseDue();
    } catch (e) {
      onError(e);
      return 0;
    }
  };
  const timer = setInterval(() => void run(), intervalMs);
  timer.unref();
  return { run, stop: () => clearInterval(timer) };
}
