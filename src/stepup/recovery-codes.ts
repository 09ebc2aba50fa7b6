// Recovery codes: ten single-use codes of ten characters from a 32-letter alphabet without look-alikes
// (Crockford's base32: 50 bits each), shown once as "xxxxx-xxxxx". Stored as SHA-256 only: with 50 bits
// of entropy a fast hash is enough (nobody can try 2^50 guesses through the rate limits, and a stolen
// table gives no code back in practice); compared in constant time.
import { secureRandomBytes } from '../lib/random.js';
import { safeEqual, sha256 } from '../lib/secrets.js';

export const RECOVERY_CODE_COUNT = 10;
const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';
const LENGTH = 10;

/** One code: 10 characters of 5 random bits each, grouped for reading. */
function newCode(): string {
  const bytes = secureRandomBytes(LENGTH);
  let s = '';
  for (const b of bytes) s += ALPHABET[b & 31];
  return `${s.slice(0, 5)}-${s.slice(5)}`;
}

export function newRecoveryCodes(): string[] {
  const codes = new Set<string>();
  while (codes.size < RECOVERY_CODE_COUNT) codes.add(newCode());
  return [...codes];
}

/**
 * A code as typed, in its stored form: case, spaces and dashes ignored, and Crockford's look-alikes read
 * as what they stand for (o→0, i/l→1); null when it cannot be a code.
 */
export function normalizeRecoveryCode(input: string): string | null {
  if (input.length > 40) return null;
  const s = input.toLowerCase().replace(/[\s-]/g, '').replace(/o/g, '0').replace(/[il]/g, '1');
  if (s.length !== LENGTH || ![...s].every((c) => ALPHABET.includes(c))) return null;
  return s;
}

/** The stored hash of a code (as shown or as typed). */
export function hashRecoveryCode(code: string): string | null {
  const n = normalizeRecoveryCode(code);
  return n === null ? null : sha256(`recovery-code:${n}`);
}

/** The row whose hash matches, compared in constant time against every unused one. */
export function matchRecoveryCode<T extends { code_hash: string }>(rows: T[], code: string): T | undefined {
  const h = hashRecoveryCode(code);
  if (h === null) return undefined;
  let found: T | undefined;
  for (const r of rows) if (safeEqual(r.code_hash, h) && !found) found = r;
  return found;
}
