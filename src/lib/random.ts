import { randomBytes, randomFillSync, randomInt } from 'node:crypto';

const POOL_SIZE = 4096;
let pool = Buffer.alloc(0);
let offset = 0;

/**
 * `n` bytes from the CSPRNG, drawn from a 4 KiB block filled at once: one call into OpenSSL per
 * block instead of one per token (a call costs more than the bytes for the 12-32 bytes tokens
 * need). Each byte is handed out once: a used block is dropped, never refilled, and the caller
 * gets a copy.
 */
export function secureRandomBytes(n: number): Buffer {
  if (n > POOL_SIZE / 8) return randomBytes(n);
  if (offset + n > pool.length) {
    pool = randomFillSync(Buffer.allocUnsafe(POOL_SIZE));
    offset = 0;
  }
  const out = Buffer.allocUnsafe(n);
  pool.copy(out, 0, offset, offset + n);
  pool.fill(0, offset, offset + n);
  offset += n;
  return out;
}

/** A URL-safe random token with `bytes` bytes of CSPRNG entropy (default 32 = 256 bits). */
export function randomToken(bytes = 32): string {
  return secureRandomBytes(bytes).toString('base64url');
}

/** A numeric code of `length` digits, uniform over 0..10^length-1 (crypto.randomInt, never Math.random). */
export function randomDigits(length: number): string {
  let out = '';
  while (out.length < length) out += randomInt(0, 10).toString();
  return out;
}

/** A stable opaque identifier (128 bits). */
export function randomId(): string {
  return secureRandomBytes(16).toString('hex');
}
