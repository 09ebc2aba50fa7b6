import { availableParallelism } from 'node:os';
import { hash as argon2Hash, verify as argon2Verify, Algorithm } from '@node-rs/argon2';
import { concurrencyLimit } from '../lib/limit.js';
import { isForeignHash, openForeignHash } from './foreign-hashes/sealed.js';
import { verifyForeign } from './foreign-hashes/verify.js';

/** argon2id with the OWASP parameters (m=19 MiB, t=2, p=1). */
const PARAMS = { algorithm: Algorithm.Argon2id, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

/**
 * One hash per core at a time: more in flight (libuv has 4 threads) would not go faster, would
 * hold 19 MiB each, and would leave no thread for the RS256 signatures of the same requests.
 */
export const argon2Slots = concurrencyLimit(availableParallelism());
const verify = (stored: string, password: string) => argon2Slots.run(() => argon2Verify(stored, password));

export function hashPassword(password: string): Promise<string> {
  return argon2Slots.run(() => argon2Hash(password, PARAMS));
}

let dummy: Promise<string> | null = null;

/**
 * Verifies a password. With no stored hash (unknown user), a dummy hash is checked anyway so an
 * unknown user and a wrong password cost the same time (ASVS 6.3.8).
 */
export async function verifyPassword(
  stored: string | null | undefined,
  password: string,
  /** Whose hash it is and the master key: an imported (foreign, sealed) hash is checked with them. */
  owner?: { userId: string; masterKey: Buffer },
): Promise<boolean> {
  if (stored && isForeignHash(stored)) {
    const foreign = owner && openForeignHash(owner.masterKey, owner.userId, stored);
    // Each check takes one of the hashing slots, as argon2's do (scrypt and bcrypt are as heavy).
    return foreign ? argon2Slots.run(() => verifyForeign(foreign, password)) : false;
  }
  if (!stored) {
    dummy ??= hashPassword('ward-dummy-password-for-timing');
    await verify(await dummy, password).catch(() => false);
    return false;
  }
  try {
    return await verify(stored, password);
  } catch {
    return false;
  }
}

/** Whether a stored hash was imported from another system (replaced with argon2id at the next sign-in). */
export const needsRehash = (stored: string | null | undefined): boolean => !!stored && isForeignHash(stored);
