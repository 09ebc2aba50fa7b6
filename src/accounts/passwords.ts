import { hash, verify, Algorithm } from '@node-rs/argon2';

/** argon2id with the OWASP parameters (m=19 MiB, t=2, p=1). */
const PARAMS = { algorithm: Algorithm.Argon2id, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, PARAMS);
}

let dummy: Promise<string> | null = null;

/**
 * Verifies a password. With no stored hash (unknown user), a dummy hash is checked anyway so an
 * unknown user and a wrong password cost the same time (ASVS 6.3.8).
 */
export async function verifyPassword(stored: string | null | undefined, password: string): Promise<boolean> {
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
