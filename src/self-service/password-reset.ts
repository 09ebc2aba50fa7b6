// "Forgot your password?": a code (email or SMS) and, by email, a link that let the user choose a new
// password. The request answers the same whatever the address: the limit per address counts first,
// and the lookup and the message start only once the answer has left (address-request.ts), so
// neither the body nor the time tells whether an account exists. A reset proves the address (it becomes verified), ends every session
// and refresh token of the user, kills the other reset codes and tells the user.
import type { AccountCodes, CheckedCode } from '../accounts/codes.js';
import { enforcePasswordPolicy } from '../accounts/password-policy.js';
import { hashPassword } from '../accounts/passwords.js';
import { keysOfUser } from '../accounts/sign-in-protection.js';
import type { SecurityEvents, StagedEvent } from '../audit/events.js';
import type { ClientService } from '../clients/service.js';
import type { AccountSettings } from '../config/types.js';
import { missingField } from '../errors/refusals.js';
import { WardError } from '../errors/ward-error.js';
import type { Delivery } from '../integrations/delivery.js';
import type { AfterAnswer, Background } from '../lib/background.js';
import type { Clock } from '../lib/clock.js';
import type { Outbound } from '../lib/outbound/client.js';
import { endSessionsOfUser } from '../logout/backchannel.js';
import type { Storage } from '../storage/storage.js';
import type { User } from '../storage/sql/users.js';
import { withQuery } from './return-url.js';
import { requestForAddress, type ResetAddress, userAt } from './address-request.js';
import { endUnprovenAccess, isFirstProof } from './first-proof.js';
import { sendAccountCode } from './send-code.js';
import { tellPasswordChanged } from './password-notice.js';

export interface PasswordResetDeps {
  storage: Storage;
  clock: Clock;
  account: () => AccountSettings;
  issuer: string;
  codes: AccountCodes;
  delivery: Pick<Delivery, 'sendAccountMessage'>;
  background: Background;
  events: SecurityEvents;
  clients: ClientService;
  logoutDelivery: { kick(): void };
  /** The guarded client of the breached-password check. */
  outbound: Pick<Outbound, 'fetch'>;
}

/** The hosted page a reset link opens when the app gave no redirect_url. */
export const RESET_PAGE = '/identity/v1/password/reset';

export function createPasswordReset(deps: PasswordResetDeps) {
  const { storage, clock, codes } = deps;
  const findBy = (a: ResetAddress) => userAt(storage, a);

  async function finish(user: User, row: CheckedCode, password: unknown): Promise<{ returnTo?: string }> {
    if (typeof password !== 'string' || password === '') throw missingField('password');
    await enforcePasswordPolicy(deps.account(), password, user, 'password', { outbound: deps.outbound });
    const hash = await hashPassword(password);
    await codes.consume(row);
    const now = clock.now();
    const field = row.channel === 'sms' ? 'phone_number' : 'email';
    // Pre-hijacking: a first proof of the address also unlinks what someone made before it.
    if (isFirstProof(user, field, row.destination)) await endUnprovenAccess(deps, user, field, { keepPassword: true });
    // The password, the address proven, the end of any wait or lockout of failed passwords (the
    // lockout notice says to reset), the sessions' end and the webhook event in one transaction.
    let reset: StagedEvent | undefined;
    await endSessionsOfUser({ ...deps, delivery: deps.logoutDelivery }, user.id, undefined, async (tx, ended) => {
      await tx.users.setPassword(user.id, hash, now);
      await tx.users.markVerified(user.id, field, row.destination, now);
      await tx.signInFailures.clear(keysOfUser(user));
      reset = await deps.events.stage(tx, 'account.password_reset', {
        user_id: user.id,
        channel: row.channel,
        ...ended,
      });
    });
    await codes.supersedeOfUser(user.id, 'reset_password');
    tellPasswordChanged(deps, user, clock.now());
    if (reset) deps.events.emitStaged(reset, 'password reset');
    return { returnTo: row.values.return_to };
  }

  /** The live reset link of a user (the hosted page checks it before showing the form). */
  async function findLink(userId: unknown, token: unknown): Promise<{ user: User; row: CheckedCode } | undefined> {
    const row = await codes.findLink('reset_password', token);
    if (!row?.user_id || row.user_id !== userId) return undefined;
    const user = await storage.users.findById(row.user_id);
    return user && !user.disabled ? { user, row } : undefined;
  }

  return {
    findLink,
    /**
     * forgot-password: counts the request against the address's limit; once the answer has left
     * (`later`), looks the account up and sends the message. Answers nothing either way.
     */
    async request(input: {
      clientId: string;
      address: ResetAddress;
      redirectUrl?: string;
      returnTo?: string;
      locale?: string;
      later: AfterAnswer;
    }): Promise<void> {
      await requestForAddress(deps, {
        later: input.later,
        purpose: 'reset_password',
        address: input.address,
        clientId: input.clientId,
        data: input.returnTo ? { return_to: input.returnTo } : {},
        locale: input.locale,
        link: (userId, token) =>
          withQuery(input.redirectUrl ?? `${deps.issuer}${RESET_PAGE}`, { user_id: userId, verification_code: token }),
      });
    },

    /**
     * An invitation (an administrator created the account without a password): a link to the reset
     * page, where the user chooses a password; it also verifies the email address.
     */
    /**
     * From an administrator: an invitation to choose a first password, or a password reset; by email,
     * a code and a link to the reset page (the previous one stops working).
     */
    async sendByAdministrator(user: User, kind: 'invitation' | 'reset_password', locale?: string): Promise<void> {
      if (!user.email) throw new WardError('noEmailAddress');
      await sendAccountCode(deps, {
        userId: user.id,
        purpose: 'reset_password',
        kind,
        channel: 'email',
        address: user.email,
        locale,
        linkUrl: (token) => withQuery(`${deps.issuer}${RESET_PAGE}`, { user_id: user.id, verification_code: token }),
      });
    },

    /** update-password with the code sent to an email address or phone number. */
    async resetWithCode(input: { address: ResetAddress; code: unknown; password: unknown }) {
      const user = await findBy(input.address);
      if (!user || user.disabled) throw new WardError('invalidVerificationCode');
      const row = await codes.checkCode({
        purpose: 'reset_password',
        destination: input.address.address,
        code: input.code,
        userId: user.id,
      });
      return finish(user, row, input.password);
    },

    /** update-password (or the hosted page) with the user id and the token of a reset link. */
    async resetWithLink(input: { userId: unknown; token: unknown; password: unknown }) {
      const found = await findLink(input.userId, input.token);
      if (!found) throw new WardError('invalidVerificationCode');
      return finish(found.user, found.row, input.password);
    },
  };
}

export type PasswordReset = ReturnType<typeof createPasswordReset>;
