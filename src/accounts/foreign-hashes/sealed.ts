// An imported hash is a secret (an MD5 or salted SHA falls to a dictionary in seconds): it is kept
// in the user's password_hash column sealed with the master key (AES-256-GCM, bound to the user's
// id), never in clear, until the first sign-in replaces it with Ward's own argon2id hash. The
// column stays non-null meanwhile, so everything that asks "has a password" answers yes.
import { seal, unseal } from '../../lib/secrets.js';
import type { ForeignHash } from './formats.js';

/** The prefix of a sealed foreign hash in password_hash (argon2's own start with $argon2id$). */
export const FOREIGN_PREFIX = '$ward-foreign$';

const aad = (userId: string) => `foreign-password:${userId}`;

export const isForeignHash = (stored: string): boolean => stored.startsWith(FOREIGN_PREFIX);

export function sealForeignHash(masterKey: Buffer, userId: string, h: ForeignHash): string {
  return FOREIGN_PREFIX + seal(masterKey, JSON.stringify(h), aad(userId));
}

/** The hash sealed for this user, or undefined (another user's, another key's, or not one). */
export function openForeignHash(masterKey: Buffer, userId: string, stored: string): ForeignHash | undefined {
  if (!isForeignHash(stored)) return undefined;
  try {
    return JSON.parse(unseal(masterKey, stored.slice(FOREIGN_PREFIX.length), aad(userId)).toString('utf8'));
  } catch {
    return undefined;
  }
}
