// Custom identifiers (issue 37, item 3; docs/profiles.md#custom-identifiers): a name of the site's
// choosing (a member number, a username) a user may sign in with where the account's
// sign_in_identifiers allow it. Stored normalised, unique across users, in its own table.
import { WardError } from '../errors/ward-error.js';
import { invalidField } from '../errors/refusals.js';
import type { Repos } from '../storage/storage.js';
import { isUniqueViolation } from '../storage/sql/errors.js';

export const CUSTOM_IDENTIFIER_MAX = 100;

/**
 * The stored form of a custom identifier: NFKC, trimmed, lower-case. Null for what cannot be one: not a
 * string, empty or longer than 100 characters, a space or control character inside, an `@` (an email
 * address's) or a leading `+` (a phone number's), so one sign-in field can take all three unambiguously.
 */
export function normalizeCustomIdentifier(value: unknown): string | null {
  if (typeof value !== 'string' || value.length > 4 * CUSTOM_IDENTIFIER_MAX) return null;
  const v = value.normalize('NFKC').trim().toLowerCase();
  if (!v || [...v].length > CUSTOM_IDENTIFIER_MAX) return null;
  if (/[\s@\p{Cc}\p{Cf}]/u.test(v) || v.startsWith('+')) return null;
  return v;
}

/**
 * The custom identifier a request gives at `field`: undefined when absent, null when sent as null (an
 * update removing it), else the normalised value; anything else is a 400 naming the field.
 */
export function readCustomIdentifier(value: unknown, field: string): string | null | undefined {
  if (value === undefined) return undefined;
  if (value === null) return null;
  const v = normalizeCustomIdentifier(value);
  if (v === null)
    throw invalidField(
      field,
      `must be 1 to ${CUSTOM_IDENTIFIER_MAX} characters without spaces, without @ and not starting with +`,
    );
  return v;
}

/** Sets the user's custom identifier in the caller's transaction; one held by another user is a 409. */
export async function storeCustomIdentifier(
  tx: Pick<Repos, 'customIdentifiers'>,
  userId: string,
  value: string | null,
  now: number,
): Promise<void> {
  try {
    await tx.customIdentifiers.set(userId, value, now);
  } catch (e) {
    if (isUniqueViolation(e)) throw new WardError('customIdentifierInUse');
    throw e;
  }
}
