import type { AccountCodePurpose } from '../accounts/codes.js';
import type { Storage } from '../storage/storage.js';
import type { User } from '../storage/sql/users.js';
import type { AfterAnswer } from '../lib/background.js';
import { sendAccountCode, type SendCodeDeps } from './send-code.js';
import { normalizeEmail, normalizePhone } from '../accounts/identifiers.js';
import { invalidField, missingField } from '../errors/refusals.js';

/** The email address or phone number an account is asked for by. */
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

export interface AddressRequestDeps extends SendCodeDeps {
  storage: Storage;
}

/**
 * The account of an email address or phone number that may prove itself by a code: none for a lite
 * profile (kept without credentials: it is answered as an address of no account, so nothing is sent).
 */
export async function userAt(storage: Storage, a: ResetAddress): Promise<User | undefined> {
  const user =
    a.field === 'email' ? await storage.users.findByEmail(a.address) : await storage.users.findByPhone(a.address);
  return user && !user.lite ? user : undefined;
}

/**
 * A request that must not tell whether an account exists (forgot-password, account recovery): the
 * address's limit counts first, in the answer's time, the same for every address; the lookup, the
 * code and the message wait until the answer has left (`later`, http/after-answer.ts), for an
 * account that exists and is enabled only. Nothing that depends on the account runs before the
 * answer, so neither its body nor its time tells (not even through the group commit the answer
 * waits for: the lookup's and the code's writes are not in it).
 */
export async function requestForAddress(
  deps: AddressRequestDeps,
  input: {
    purpose: AccountCodePurpose;
    address: ResetAddress;
    clientId: string;
    data?: Record<string, string>;
    locale?: string;
    /** The link the email carries, around its token (undefined: the code only). */
    link: (userId: string, token: string) => string | undefined;
    /** Runs the lookup and the message once the answer has left. */
    later: AfterAnswer;
  },
): Promise<void> {
  const { address } = input;
  await deps.codes.admit(input.purpose, address.address);
  input.later(async () => {
    const user = await userAt(deps.storage, address);
    if (!user || user.disabled) return;
    await sendAccountCode(
      { ...deps, admitted: true },
      {
        userId: user.id,
        purpose: input.purpose,
        channel: address.field === 'email' ? 'email' : 'sms',
        address: address.address,
        clientId: input.clientId,
        data: input.data,
        locale: input.locale,
        linkUrl: (token) => input.link(user.id, token),
      },
    );
  });
}
