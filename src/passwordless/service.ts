// Passwordless first factors: a link (and a code) by email, a code by SMS. Starting one stores the
// authorization request as an interaction (the caller does) and sends the message in the background,
// after the address's limit counted the request: the answer is the same whether an account exists or
// not. Redeeming a code or link uses it once, makes the address verified, creates the account when the
// account settings allow it, and names the interaction to finish.
import type { AccountCodes, CheckedCode } from '../accounts/codes.js';
import { normalizeEmail, normalizePhone } from '../accounts/identifiers.js';
import { LITE_PROFILE } from '../accounts/lite-profiles.js';
import type { UserService } from '../accounts/users.js';
import type { SecurityEvents, StagedEvent } from '../audit/events.js';
import type { AccountSettings } from '../config/types.js';
import { invalidField, missingField } from '../errors/refusals.js';
import { WardError } from '../errors/ward-error.js';
import type { Delivery } from '../integrations/delivery.js';
import type { Background } from '../lib/background.js';
import type { Clock } from '../lib/clock.js';
import { endUnprovenAccess, type FirstProofDeps, isFirstProof } from '../self-service/first-proof.js';
import { sendAccountCode } from '../self-service/send-code.js';
import { signInAudit } from '../sign-in-methods/audit.js';
import type { Storage } from '../storage/storage.js';
import type { User } from '../storage/sql/users.js';

export type PasswordlessMethod = 'magic_link' | 'sms';

export interface PasswordlessAddress {
  method: PasswordlessMethod;
  field: 'email' | 'phone_number';
  address: string;
}

export interface PasswordlessDeps {
  storage: Storage;
  clock: Clock;
  account: () => AccountSettings;
  issuer: string;
  codes: AccountCodes;
  delivery: Pick<Delivery, 'sendAccountMessage'>;
  background: Background;
  events: SecurityEvents;
  users: Pick<UserService, 'createByAddress'>;
  clients: FirstProofDeps['clients'];
  logoutDelivery: FirstProofDeps['logoutDelivery'];
}

/** A used code or link: who signed in, how, and the interaction to finish. */
export interface Redeemed {
  user: User;
  amr: string[];
  method: PasswordlessMethod;
  /** The code went to an address of no account then (the account is new, or made meanwhile). */
  created: boolean;
  interactionDigest: string;
}

export const VERIFY_PATH = '/identity/v1/passwordless/verify';

/** A link token (43 base64url characters) rather than a typed code (digits). */
export const isLinkToken = (v: unknown): v is string => typeof v === 'string' && /^[A-Za-z0-9_-]{40,100}$/.test(v);

/** The method and address of a request: `auth_type` magic_link with `email`, or sms with `phone_number`. */
export function passwordlessAddressOf(params: Record<string, unknown>): PasswordlessAddress {
  const method = params.auth_type;
  if (method === undefined) throw missingField('auth_type');
  if (method === 'magic_link') {
    if (params.email === undefined) throw missingField('email');
    const address = normalizeEmail(params.email);
    if (!address) throw invalidField('email', 'must be a valid email address');
    return { method, field: 'email', address };
  }
  if (method === 'sms') {
    if (params.phone_number === undefined) throw missingField('phone_number');
    const address = normalizePhone(params.phone_number);
    if (!address) throw invalidField('phone_number', 'must be an E.164 phone number such as +33612345678');
    return { method, field: 'phone_number', address };
  }
  throw invalidField('auth_type', 'must be magic_link or sms');
}

export function createPasswordless(deps: PasswordlessDeps) {
  const { storage, codes } = deps;
  const findBy = (a: { field: 'email' | 'phone_number'; address: string }) =>
    a.field === 'email' ? storage.users.findByEmail(a.address) : storage.users.findByPhone(a.address);

  return {
    /** Refuses a method the account has not enabled, then counts the request against the address's limit. */
    async admit(a: PasswordlessAddress): Promise<void> {
      if (!deps.account().passwordless[a.method]) throw new WardError('passwordlessDisabled');
      await codes.admit('passwordless', a.address);
    },

    /**
     * Sends the link or code for an admitted request, in the background; nothing to an unknown address unless signup is
     * on.
     */
    send(
      a: PasswordlessAddress,
      to: { interactionDigest: string; clientId: string; locale?: string; origin?: string },
    ): void {
      deps.background.run(async () => {
        const user = await findBy(a);
        if (user?.disabled || (!user && !deps.account().passwordless.signup)) return;
        // A lite profile signs in with nothing: no code, as for an address of no account (the answer left already).
        if (user?.lite) {
          await signInAudit(deps.events).failed({
            method: a.method,
            clientId: to.clientId,
            reason: LITE_PROFILE,
            userId: user.id,
          });
          return;
        }
        await sendAccountCode(
          { ...deps, admitted: true },
          {
            userId: user?.id ?? null,
            purpose: 'passwordless',
            channel: a.field === 'email' ? 'email' : 'sms',
            address: a.address,
            clientId: to.clientId,
            // The origin of the app's call that asked (an SDK's page): its code may sign in from there.
            data: { interaction: to.interactionDigest, ...(to.origin ? { origin: to.origin } : {}) },
            locale: to.locale,
            linkUrl: (token) =>
              `${deps.issuer}${VERIFY_PATH}?${new URLSearchParams({ auth_type: a.method, email: a.address, verification_code: token })}`,
          },
        );
      });
    },

    /** Checks a typed code (each check counts as an attempt) or an emailed link's token, without using it. */
    check: (a: PasswordlessAddress, code: unknown): Promise<CheckedCode> =>
      codes.checkCodeOrLink({ purpose: 'passwordless', destination: a.address, code }),

    /** The live row of an emailed link, unused. */
    findLink: (token: unknown) => codes.findLink('passwordless', token),

    /**
     * Uses a checked code or link once: the user (created now if allowed), their address verified, how
     * they signed in (RFC 8176 amr: a one-time code by email or SMS), and the interaction to finish.
     */
    async redeem(row: CheckedCode): Promise<Redeemed> {
      await codes.consume(row);
      const field = row.channel === 'sms' ? 'phone_number' : 'email';
      let user = row.user_id
        ? await storage.users.findById(row.user_id)
        : await findBy({ field, address: row.destination });
      // An account created by a first passwordless sign-in is a signup: its user.created event is
      // written with the user, in its transaction (an address taken meanwhile answers that account).
      let signedUp: StagedEvent | undefined;
      if (!user && !row.user_id && deps.account().passwordless.signup) {
        const method = row.channel === 'sms' ? 'sms' : 'magic_link';
        user = await deps.users.createByAddress(field, row.destination, async (tx, u) => {
          signedUp = await deps.events.stage(tx, 'account.signup', { user_id: u.id, method });
        });
        if (signedUp) deps.events.emitStaged(signedUp, 'signup by a first passwordless sign-in');
      }
      if (!user || user.disabled) throw new WardError('invalidVerificationCode');
      // A code sent before the profile became lite: refused as a wrong one (the audit says why).
      if (user.lite)
        throw new WardError('invalidVerificationCode', { audit: { reason: LITE_PROFILE, userId: user.id } });
      const first = isFirstProof(user, field, row.destination);
      await storage.users.markVerified(user.id, field, row.destination, deps.clock.now());
      // Pre-hijacking: what someone made before anyone proved this address ends now.
      if (first) await endUnprovenAccess(deps, user, field);
      // The sign-in's audit event (login.succeeded) is the caller's, through afterFirstFactor.
      return {
        user,
        amr: ['otp', row.channel === 'sms' ? 'sms' : 'email'],
        method: row.channel === 'sms' ? 'sms' : 'magic_link',
        created: !row.user_id,
        interactionDigest: row.values.interaction,
      };
    },
  };
}

export type Passwordless = ReturnType<typeof createPasswordless>;
