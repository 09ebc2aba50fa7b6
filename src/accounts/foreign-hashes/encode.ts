// A foreign hash back in the fields an import takes (formats.ts reads them): what a bulk export with
// password hashes writes for a user who has not signed in since their import.
import type { ForeignHash } from './formats.js';

/** The import's password fields of one user. */
export interface PasswordFields {
  password_hash: string;
  password_hash_algorithm: ForeignHash['alg'];
  password_salt?: string;
  password_salt_position?: 'after' | 'before';
}

const unpadded = (b64: string) => b64.replace(/=+$/, '');
/** passlib's adapted base64 (PBKDF2): no padding, '.' for '+'. */
const ab64 = (b64: string) => unpadded(b64).replace(/\+/g, '.');

export function importFieldsOf(h: ForeignHash): PasswordFields {
  switch (h.alg) {
    case 'bcrypt':
    case 'argon2':
      return { password_hash: h.hash, password_hash_algorithm: h.alg };
    case 'scrypt':
      return {
        password_hash: `$scrypt$ln=${Math.log2(h.n)},r=${h.r},p=${h.p}$${unpadded(h.salt)}$${unpadded(h.hash)}`,
        password_hash_algorithm: 'scrypt',
      };
    case 'pbkdf2':
      return {
        password_hash: `$pbkdf2${h.digest === 'sha1' ? '' : `-${h.digest}`}$${h.iterations}$${ab64(h.salt)}$${ab64(h.hash)}`,
        password_hash_algorithm: 'pbkdf2',
      };
    case 'firebase_scrypt':
      // The project's parameters (signer key, separator, rounds, memory cost) go with the import, not the line.
      return { password_hash: h.hash, password_hash_algorithm: h.alg, password_salt: h.salt };
    default:
      return {
        password_hash: h.hash,
        password_hash_algorithm: h.alg,
        ...(h.salt ? { password_salt: h.salt } : {}),
        password_salt_position: h.salt_position,
      };
  }
}
