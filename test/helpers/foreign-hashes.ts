// Password hashes as other systems make them, for the import tests: each made here by the library
// that makes it in the wild, and Firebase's published scrypt test vector.
import { createHash, pbkdf2Sync, randomBytes, scryptSync } from 'node:crypto';
import { hash as bcryptHash } from 'bcryptjs';
import { hash as argon2Hash, Algorithm } from '@node-rs/argon2';
import type { ForeignHashInput } from '../../src/accounts/foreign-hashes/formats.js';

/** passlib's "adapted base64": no padding, '.' for '+'. */
const ab64 = (b: Buffer) => b.toString('base64').replace(/=+$/, '').replace(/\+/g, '.');

/** github.com/firebase/scrypt's README: the project parameters, a user's salt and hash, the password. */
export const FIREBASE_VECTOR = {
  signer_key: 'jxspr8Ki0RYycVU8zykbdLGjFQ3McFUH0uiiTvC8pVMXAn210wjLNmdZJzxUECKbm0QsEmYUSDzZvpjeJ9WmXA==',
  salt_separator: 'Bw==',
  rounds: 8,
  mem_cost: 14,
  salt: '42xEC+ixf3L2lw==',
  hash: 'lSrfV15cpx95/sZS2W9c9Kp6i/LVgQNDNC/qzrCnh1SAyZvqmZqAjTdn3aoItz+VHjoZilo78198JAdRuid5lQ==',
  password: 'user1password',
};

export async function fixtures(password: string): Promise<Record<string, ForeignHashInput & { weak?: true }>> {
  const salt = randomBytes(16);
  const scrypt = scryptSync(password, salt, 32, { N: 2 ** 14, r: 8, p: 1 });
  const pbkdf2 = (digest: string, len: number) => pbkdf2Sync(password, salt, 1000, len, digest);
  return {
    // bcryptjs writes $2b$; $2a$ (before 2014) and PHP's $2y$ are the same computation for passwords
    // under 255 bytes, only the prefix differs (the fixed vectors of crypt_blowfish are in the test).
    bcrypt_2a: { algorithm: 'bcrypt', hash: (await bcryptHash(password, 4)).replace(/^\$2b\$/, '$2a$') },
    bcrypt_2b: { algorithm: 'bcrypt', hash: await bcryptHash(password, 4) },
    bcrypt_2y: { algorithm: 'bcrypt', hash: (await bcryptHash(password, 4)).replace(/^\$2b\$/, '$2y$') },
    argon2id: {
      algorithm: 'argon2',
      hash: await argon2Hash(password, { algorithm: Algorithm.Argon2id, memoryCost: 8192, timeCost: 1 }),
    },
    argon2i: {
      algorithm: 'argon2',
      hash: await argon2Hash(password, { algorithm: Algorithm.Argon2i, memoryCost: 8192, timeCost: 3 }),
    },
    scrypt: { algorithm: 'scrypt', hash: `$scrypt$ln=14,r=8,p=1$${ab64(salt)}$${ab64(scrypt)}` },
    pbkdf2_sha1: { algorithm: 'pbkdf2', hash: `$pbkdf2$1000$${ab64(salt)}$${ab64(pbkdf2('sha1', 20))}` },
    pbkdf2_sha256: { algorithm: 'pbkdf2', hash: `$pbkdf2-sha256$1000$${ab64(salt)}$${ab64(pbkdf2('sha256', 32))}` },
    pbkdf2_sha512: { algorithm: 'pbkdf2', hash: `$pbkdf2-sha512$1000$${ab64(salt)}$${ab64(pbkdf2('sha512', 64))}` },
    salted_sha256: {
      algorithm: 'salted_sha256',
      hash: createHash('sha256').update(`${password}pepper-salt`).digest('hex'),
      salt: 'pepper-salt',
      weak: true,
    },
    salted_sha512_before: {
      algorithm: 'salted_sha512',
      hash: createHash('sha512').update(`s4lt${password}`).digest('hex'),
      salt: 's4lt',
      saltPosition: 'before',
      weak: true,
    },
    md5: { algorithm: 'md5', hash: createHash('md5').update(password).digest('hex'), weak: true },
  };
}
