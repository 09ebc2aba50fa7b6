// Checks a password against a hash another system made (formats.ts read it at import). Every
// comparison of derived bytes is constant-time; the libraries that made the hashes verify their own
// (bcrypt, argon2), node:crypto derives the rest (scrypt, PBKDF2, the legacy digests).
import { createCipheriv, createHash, pbkdf2, scrypt, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';
import { compare as bcryptCompare } from 'bcryptjs';
import { verify as argon2Verify } from '@node-rs/argon2';
import type { ForeignHash } from './formats.js';

const pbkdf2Async = promisify(pbkdf2);
const scryptAsync = (password: Buffer, salt: Buffer, len: number, o: { N: number; r: number; p: number }) =>
  new Promise<Buffer>((resolve, reject) =>
    scrypt(password, salt, len, { ...o, maxmem: 300 * 1024 * 1024 }, (e, key) => (e ? reject(e) : resolve(key))),
  );

const b64 = (s: string) => Buffer.from(s, 'base64');

function sameBytes(a: Buffer, b: Buffer): boolean {
  // The stored length is not a secret (it follows from the algorithm); the bytes are compared in constant time.
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Firebase's scrypt (github.com/firebase/scrypt): the signer key, AES-256-CTR-encrypted under scrypt's key. */
async function firebase(h: Extract<ForeignHash, { alg: 'firebase_scrypt' }>, password: Buffer): Promise<Buffer> {
  const salt = Buffer.concat([b64(h.salt), b64(h.salt_separator)]);
  const key = await scryptAsync(password, salt, 32, { N: 2 ** h.mem_cost, r: h.rounds, p: 1 });
  const cipher = createCipheriv('aes-256-ctr', key, Buffer.alloc(16, 0));
  return Buffer.concat([cipher.update(b64(h.signer_key)), cipher.final()]);
}

function digest(h: Extract<ForeignHash, { alg: 'salted_sha256' | 'salted_sha512' | 'md5' }>, password: string): Buffer {
  const name = h.alg === 'md5' ? 'md5' : h.alg === 'salted_sha256' ? 'sha256' : 'sha512';
  const input = h.salt_position === 'before' ? h.salt + password : password + h.salt;
  return createHash(name).update(input, 'utf8').digest();
}

/** Whether `password` matches the foreign hash (never throws: a hash it cannot check is a mismatch). */
export async function verifyForeign(h: ForeignHash, password: string): Promise<boolean> {
  const pw = Buffer.from(password, 'utf8');
  try {
    switch (h.alg) {
      case 'bcrypt':
        // $2y$ (PHP) is $2b$ by another name: the same algorithm, the same bytes.
        return await bcryptCompare(password, h.hash.replace(/^\$2y\$/, '$2b$'));
      case 'argon2':
        return await argon2Verify(h.hash, pw);
      case 'scrypt': {
        const want = b64(h.hash);
        return sameBytes(await scryptAsync(pw, b64(h.salt), want.length, { N: h.n, r: h.r, p: h.p }), want);
      }
      case 'firebase_scrypt':
        return sameBytes(await firebase(h, pw), b64(h.hash));
      case 'pbkdf2': {
        const want = b64(h.hash);
        return sameBytes(await pbkdf2Async(pw, b64(h.salt), h.iterations, want.length, h.digest), want);
      }
      default:
        return sameBytes(digest(h, password), Buffer.from(h.hash, 'hex'));
    }
  } catch {
    return false;
  }
}
