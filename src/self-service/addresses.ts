// A user's email address and phone number: proving they are theirs (a code, or by email a link too)
// and changing them. A new address counts only once confirmed: until then the old one stays, and
// when it changes the old one is told. A confirmed address is verified (email_verified and
// phone_number_verified in ID tokens and userinfo).
import type { AccountCodes, AccountCodePurpose } from '../accounts/codes.js';
import { normalizeEmail, normalizePhone } from '../accounts/identifiers.js';
import type { SecurityEvents, StagedEvent } from '../audit/events.js';
import { WardError } from '../errors/ward-error.js';
import { invalidField } from '../errors/refusals.js';
import type { Delivery } from '../integrations/delivery.js';
import { maskDestination } from '../integrations/delivery.js';
import type { Background } from '../lib/background.js';
import type { Clock } from '../lib/clock.js';
import type { Storage } from '../storage/storage.js';
import { isUniqueViolation } from '../storage/sql/errors.js';
import type { User } from '../storage/sql/users.js';
import { sendAccountCode } from './send-code.js';

export interface AddressDeps {
  storage: Storage;
  clock: Clock;
  issuer: string;
  codes: AccountCodes;
  delivery: Pick<Delivery, 'sendAccountMessage'>;
  background: Background;
  events: SecurityEvents;
}

/** Where to go once an email link is confirmed (values the flow stored with the code). */
export interface ConfirmedLink {
  email: string;
  redirectUrl?: string;
  returnTo?: string;
}

const EMAIL_LINK = '/identity/v1/verify-email/link';

export function createAddresses(deps: AddressDeps) {
  const { storage, clock, codes } = deps;

  /** Sends a code (and by email a link to EMAIL_LINK) for an address of the user. */
  const send = (
    user: User,
    purpose: AccountCodePurpose,
    to: { channel: 'email' | 'sms'; address: string },
    opts: { clientId?: string; data?: Record<string, string>; locale?: string },
  ) =>
    sendAccountCode(deps, {
      userId: user.id,
      purpose,
      channel: to.channel,
      address: to.address,
      ...opts,
      linkUrl: (token) => `${deps.issuer}${EMAIL_LINK}?token=${token}`,
    });

  /** Tells the old address that it was replaced (in the background; a failure is logged by the delivery). */
  function tellOld(kind: 'email_changed' | 'phone_changed', channel: 'email' | 'sms', old: string, now: string) {
    deps.background.run(() =>
      deps.delivery.sendAccountMessage({ kind, channel, to: old, address: maskDestination(now), at: clock.now() }),
    );
  }

  /** Makes a confirmed change of address the user's own; another account's address is a 409. */
  async function applyChange(user: User, field: 'email' | 'phone_number', address: string): Promise<void> {
    // The change and its webhook event in one transaction.
    let changed: StagedEvent;
    try {
      changed = await storage.transaction(async (tx) => {
        await tx.users.changeAddress(user.id, field, address, clock.now());
        const name = field === 'email' ? 'account.email_changed' : 'account.phone_changed';
        return deps.events.stage(tx, name, { user_id: user.id });
      });
    } catch (e) {
      if (isUniqueViolation(e)) throw new WardError(field === 'email' ? 'emailInUse' : 'phoneNumberInUse');
      throw e;
    }
    const old = field === 'email' ? user.email : user.phone_number;
    if (old && old !== address)
      tellOld(field === 'email' ? 'email_changed' : 'phone_changed', field === 'email' ? 'email' : 'sms', old, address);
    deps.events.emitStaged(changed, `${field} changed`);
  }

  /** Marks the user's current address verified (false when it is no longer theirs). */
  async function markVerified(user: User, field: 'email' | 'phone_number', address: string): Promise<void> {
    // The flag and its webhook event in one transaction.
    const verified = await storage.transaction(async (tx) => {
      if (!(await tx.users.markVerified(user.id, field, address, clock.now())))
        throw new WardError('invalidVerificationCode');
      const name = field === 'email' ? 'account.email_verified' : 'account.phone_verified';
      return deps.events.stage(tx, name, { user_id: user.id });
    });
    deps.events.emitStaged(verified, `${field} verified`);
  }

  /** The live verification or change link of a token, and its user (live, enabled). */
  async function liveLink(token: unknown) {
    const row = (await codes.findLink('verify_email', token)) ?? (await codes.findLink('change_email', token));
    if (!row?.user_id) return undefined;
    const user = await storage.users.findById(row.user_id);
    return user && !user.disabled ? { row, user } : undefined;
  }

  const emailOf = (field: string, v: unknown): string => {
    const email = normalizeEmail(v);
    if (!email) throw invalidField(field, 'must be a valid email address');
    return email;
  };
  const phoneOf = (field: string, v: unknown): string => {
    const phone = normalizePhone(v);
    if (!phone) throw invalidField(field, 'must be an E.164 phone number such as +33612345678');
    return phone;
  };

  return {
    /** send-email-verification: false when there is nothing to verify (already verified). */
    async sendEmailVerification(
      user: User,
      opts: { clientId: string; redirectUrl?: string; returnTo?: string; locale?: string },
    ): Promise<boolean> {
      if (!user.email) throw new WardError('noEmailAddress');
      if (user.email_verified) return false;
      const data: Record<string, string> = { email: user.email };
      if (opts.redirectUrl) data.redirect_url = opts.redirectUrl;
      if (opts.returnTo) data.return_to = opts.returnTo;
      await send(user, 'verify_email', { channel: 'email', address: user.email }, { ...opts, data });
      return true;
    },

    /** At signup (account setting self_service.email_verification): sent in the background. */
    sendSignupVerification(
      user: User,
      opts: { clientId?: string; redirectUrl?: string; returnTo?: string; locale?: string },
    ): void {
      const email = user.email;
      if (!email) return;
      const data: Record<string, string> = { email };
      if (opts.redirectUrl) data.redirect_url = opts.redirectUrl;
      if (opts.returnTo) data.return_to = opts.returnTo;
      deps.background.run(() => send(user, 'verify_email', { channel: 'email', address: email }, { ...opts, data }));
    },

    /** verify-email: the code of the current address (a verification) or of a new one (a change). */
    async verifyEmail(user: User, rawEmail: unknown, code: unknown): Promise<void> {
      const email = emailOf('email', rawEmail);
      const purpose = email === user.email ? 'verify_email' : 'change_email';
      const row = await codes.checkCode({ purpose, destination: email, code, userId: user.id });
      await codes.consume(row);
      if (purpose === 'verify_email') await markVerified(user, 'email', email);
      else await applyChange(user, 'email', email);
    },

    /** What an email link would confirm, unused (the page its GET shows); undefined when it is not valid. */
    async peekEmailLink(token: unknown): Promise<(ConfirmedLink & { change: boolean }) | undefined> {
      const found = await liveLink(token);
      if (!found) return undefined;
      const { row } = found;
      return {
        email: row.destination,
        redirectUrl: row.values.redirect_url,
        returnTo: row.values.return_to,
        change: row.purpose === 'change_email',
      };
    },

    /** The email link, posted from its page: confirms the address it was sent to; undefined when not valid. */
    async confirmEmailLink(token: unknown): Promise<ConfirmedLink | undefined> {
      const found = await liveLink(token);
      if (!found) return undefined;
      const { row, user } = found;
      await codes.consume(row);
      if (row.purpose === 'verify_email') await markVerified(user, 'email', row.destination);
      else await applyChange(user, 'email', row.destination);
      return { email: row.destination, redirectUrl: row.values.redirect_url, returnTo: row.values.return_to };
    },

    /** update-email: a code and link to the new address; the change happens when it is confirmed. */
    async requestEmailChange(
      user: User,
      rawEmail: unknown,
      opts: { clientId: string; redirectUrl?: string; locale?: string },
    ): Promise<void> {
      const email = emailOf('email', rawEmail);
      if (email === user.email) throw invalidField('email', 'is already the email address of this account');
      const taken = await storage.users.findByEmail(email);
      if (taken) throw new WardError('emailInUse');
      const data: Record<string, string> = { email };
      if (opts.redirectUrl) data.redirect_url = opts.redirectUrl;
      await send(user, 'change_email', { channel: 'email', address: email }, { ...opts, data });
    },

    async sendPhoneVerification(user: User, locale?: string): Promise<void> {
      if (!user.phone_number) throw invalidField('phone_number', 'this account has no phone number');
      if (user.phone_number_verified) return;
      await send(user, 'verify_phone', { channel: 'sms', address: user.phone_number }, { locale });
    },

    /** update-phone-number: a code to the new number; the change happens when it is confirmed. */
    async requestPhoneChange(user: User, rawPhone: unknown, locale?: string): Promise<void> {
      const phone = phoneOf('phone_number', rawPhone);
      if (phone === user.phone_number) {
        if (user.phone_number_verified)
          throw invalidField('phone_number', 'is already the phone number of this account');
        await send(user, 'verify_phone', { channel: 'sms', address: phone }, { locale });
        return;
      }
      if (await storage.users.findByPhone(phone)) throw new WardError('phoneNumberInUse');
      await send(user, 'change_phone', { channel: 'sms', address: phone }, { locale });
    },

    /**
     * What the user asked for and has not confirmed yet (the hosted account page shows it): the new
     * email address whose link still works, the phone number whose code still works (a new number, or
     * the current one while unverified).
     */
    async pendingChanges(user: User): Promise<{ email: string | null; phone: string | null }> {
      const now = clock.now();
      const email = await storage.accountCodes.newestLiveOfUser(user.id, ['change_email']);
      const phone = await storage.accountCodes.newestLiveOfUser(user.id, ['change_phone', 'verify_phone']);
      const phoneUsable =
        phone &&
        phone.code_expires_at > now &&
        phone.attempts < phone.max_attempts &&
        (phone.purpose === 'change_phone' || (phone.destination === user.phone_number && !user.phone_number_verified));
      return {
        email: email && email.link_expires_at > now ? email.destination : null,
        phone: phoneUsable ? phone.destination : null,
      };
    },

    /** verify-phone-number: the code of the current number (a verification) or of a new one (a change). */
    async verifyPhone(user: User, rawPhone: unknown, code: unknown): Promise<void> {
      const phone = phoneOf('phone_number', rawPhone);
      const purpose = phone === user.phone_number ? 'verify_phone' : 'change_phone';
      const row = await codes.checkCode({ purpose, destination: phone, code, userId: user.id });
      await codes.consume(row);
      if (purpose === 'verify_phone') await markVerified(user, 'phone_number', phone);
      else await applyChange(user, 'phone_number', phone);
    },
  };
}

export type Addresses = ReturnType<typeof createAddresses>;
