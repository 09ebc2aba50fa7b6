// RFC 8628 6.1: the user code a person reads on the device and types on another: 8 characters of
// the RFC's 20 consonants (no vowels, so no words; no 0/O or 1/I to confuse), shown as XXXX-XXXX,
// about 34.5 bits. Typed input is normalised: case, spaces and dashes do not matter.
import { randomInt } from 'node:crypto';

const ALPHABET = 'BCDFGHJKLMNPQRSTVWXZ';
const LENGTH = 8;

/** A new user code, shown form (XXXX-XXXX). */
export function newUserCode(): string {
  let code = '';
  for (let i = 0; i < LENGTH; i++) code += ALPHABET[randomInt(0, ALPHABET.length)];
  return `${code.slice(0, 4)}-${code.slice(4)}`;
}

/** The code a person typed, normalised (upper case, no separators); null when it cannot be one. */
export function normaliseUserCode(typed: unknown): string | null {
  if (typeof typed !== 'string' || typed.length > 40) return null;
  const code = typed.toUpperCase().replace(/[\s\-\u2013\u2014_.]/g, '');
  if (code.length !== LENGTH) return null;
  for (const c of code) if (!ALPHABET.includes(c)) return null;
  return code;
}
