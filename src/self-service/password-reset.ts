// "Forgot your password?": a code (email or SMS) and, by email, a link that let the user choose a new
// password. The request answers the same whatever the address: the limit per address counts first,
// and the lookup and the message leave in the background, so neither the body nor the time tells
// whether an account exists. A reset proves the address (it becomes verified), ends every session
// and refresh token of the user, kills the other reset codes and tells the user.
import type { AccountCodes, CheckedCode } from '../accounts/codes.js';
import { normalizeEmail, normalizePhone } from '../accounts/identifiers.js';
import { enforcePasswordPolicy } from '../accounts/password-policy.js';
import { hashPassword } from '../accounts/passwords.js';
import type { SecurityEvents } from '../audit/events.js';
import type { ClientService } from '../clients/service.js';
import type { AccountSettings } from '../config/types.js';
import { invalidField, missingField } from '../errors/refusals.js';
import { WardError } from '../errors/ward-error.js';
import type { Delivery } from '../integrations/delivery.js';
import type { Background } from '../lib/background.js';
import type { Clock } from '../lib/clock.js';
import { endSessionsOfUser } from '../logout/backchannel.js';
import type { Storage } from '../storage/storage.js';
import type { User } from '../storage/sql/users.js';
import { withQuery } from './return-url.js';
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
}

/** The hosted page a reset link opens when the app gave no redirect_url. */
export const RESET_PAGE = '/identity/v1/password/reset';

export type ResetAddress = { field: 'email'; address: string } | { field: 'phone_number'; address: string };

/** The email or phone number of a request (exactly one), normalized. */
export function resetAddressOf(body: { email?: unknown; phone_number?: unknown }): ResetAddress {
  if (body.email !== undefined && body.email !== null) {
    const address = normalizeEmail(body.email);
    if (!address) throw invalidField('email', 'must be a valid email address');
    return { field: 'email', address };
  }
  if (body.phone_number !== undefined && body.phone_number !== null) {
    const address = normalizePhone(body.phone_number);
    if (!address) throw invalidField('phone_number', 'must be an E.164 phone number such as +33612345678');
    return { field: 'phone_number', address };
  }
  throw missingField('email');
}

export function createPasswordReset(deps: PasswordResetDeps) {
  const { storage, clock, codes } = deps;
  const findBy = (a: ResetAddress) =>
    a.field === 'email' ? storage.users.findByEmail(a.address) : storage.users.findByPhone(a.address);

  async function finish(user: User, row: CheckedCode, password: unknown): Promise<{ returnTo?: string }> {
    if (typeof password !== 'string' || password === '') throw missingField('password');
    await enforcePasswordPolicy(deps.account(), password, user, 'password');
    await codes.consume(row);
    const now = clock.now();
    await storage.users.setPassword(user.id, await hashPassword(password), now);
    await storage.users.markVerified(user.id, row.channel === 'sms' ? 'phone_number' : 'email', row.destination, now);
    await codes.supersedeOfUser(user.id, 'reset_password');
    const ended = await endSessionsOfUser({ ...deps, delivery: deps.logoutDelivery }, user.id);
    tellPasswordChanged(deps, user, clock.now());
    await deps.events.emit(
      'account.password_reset',
      { user_id: user.id, channel: row.channel, ...ended },
      'password reset',
    );
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
     * forgot-password: counts the request against the address's limit, then looks the account up and
     * sends the message in the background. Answers nothing either way.
     */
    async request(input: {
      clientId: string;
      address: ResetAddress;
      redirectUrl?: string;
      returnTo?: string;
      locale?: string;
    }): Promise<void> {
      const { address } = input;
      await codes.admit('reset_password', address.address);
      deps.background.run(async () => {
        const user = await findBy(address);
        if (!user || user.disabled) return;
        const data: Record<string, string> = {};
        if (input.returnTo) data.return_to = input.returnTo;
        await sendAccountCode(
          { ...deps, admitted: true },
          {
            userId: user.id,
            purpose: 'reset_password',
            channel: address.field === 'email' ? 'email' : 'sms',
            address: address.address,
            clientId: input.clientId,
            data,
            locale: input.locale,
            linkUrl: (token) =>
              withQuery(input.redirectUrl ?? `${deps.issuer}${RESET_PAGE}`, {
                user_id: user.id,
                verification_code: token,
              }),
          },
        );
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
