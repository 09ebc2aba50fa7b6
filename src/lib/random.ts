import { randomBytes, randomInt } from 'node:crypto';

let source: (n: number) => Buffer = randomBytes;

/** Where the bytes come from: node:crypto per call, or the `random_pool` speed-up (the composition chooses). */
export function drawRandomBytesFrom(from: (n: number) => Buffer): void {
  source = from;
}

/** `n` bytes from the CSPRNG. */
export function secureRandomBytes(n: number): Buffer {
  return source(n);
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
