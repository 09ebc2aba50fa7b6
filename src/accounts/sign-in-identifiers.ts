// Which identifier a password sign-in names (issue 37, item 3): an email address, a phone number or a
// custom identifier, each only where the account's sign_in_identifiers allow it. The three forms are
// disjoint (an email has an @, a phone number starts with +, a custom identifier has neither), so one
// field (the hosted login page's, grant_type=password's username) can carry any of them.
import type { AccountSettings } from '../config/types.js';
import { WardError } from '../errors/ward-error.js';
import type { Storage } from '../storage/storage.js';
import type { User } from '../storage/sql/users.js';
import { normalizeCustomIdentifier } from './custom-identifiers.js';
import { normalizeEmail, normalizePhone } from './identifiers.js';

/** What a password sign-in sends to name the user; the first that reads as its kind is used. */
export interface SignInIdentifier {
  email?: unknown;
  phone_number?: unknown;
  custom_identifier?: unknown;
}

export type IdentifierKind = 'email' | 'phone' | 'custom';

/** The same value offered as each kind (one field that takes any identifier). */
export const anyIdentifier = (value: unknown): SignInIdentifier => ({
  email: value,
  phone_number: value,
  custom_identifier: value,
});

/**
 * The identifier named (normalised) and its user, if any; null when none reads as an identifier. An
 * identifier of a kind the account does not allow is a 400 (`signInIdentifierNotAllowed`): the same
 * for every value of that kind, so it tells nothing of any account.
 */
export async function findBySignInIdentifier(
  storage: Pick<Storage, 'users' | 'customIdentifiers'>,
  allowed: AccountSettings['sign_in_identifiers'],
  identifier: SignInIdentifier,
): Promise<{ kind: IdentifierKind; value: string; user: User | undefined } | null> {
  const refuse = () => new WardError('signInIdentifierNotAllowed');
  const email = normalizeEmail(identifier.email);
  if (email) {
    if (!allowed.email) throw refuse();
    return { kind: 'email', value: email, user: await storage.users.findByEmail(email) };
  }
  const phone = normalizePhone(identifier.phone_number);
  if (phone) {
    if (!allowed.phone_number) throw refuse();
    return { kind: 'phone', value: phone, user: await storage.users.findByPhone(phone) };
  }
  const custom = normalizeCustomIdentifier(identifier.custom_identifier);
  if (custom) {
    if (!allowed.custom_identifier) throw refuse();
    const id = await storage.customIdentifiers.userOf(custom);
    return { kind: 'custom', value: custom, user: id ? await storage.users.findById(id) : undefined };
  }
  return null;
}
