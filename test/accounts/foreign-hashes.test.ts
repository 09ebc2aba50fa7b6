// Foreign password hashes: each made by the library that makes it in the wild (bcrypt by
// bcryptjs, plus crypt_blowfish's fixed vectors), argon2 by @node-rs/argon2, scrypt and PBKDF2 by node:crypto in passlib's PHC
// format, Firebase's scrypt by its published test vector), read at import and checked against the
// right and a wrong password; malformed or unknown ones refused; sealed at rest per user.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import { readForeignHash, type ForeignHashInput } from '../../src/accounts/foreign-hashes/formats.js';
import { openForeignHash, sealForeignHash } from '../../src/accounts/foreign-hashes/sealed.js';
import { verifyForeign } from '../../src/accounts/foreign-hashes/verify.js';
import { hashPassword, needsRehash, verifyPassword } from '../../src/accounts/passwords.js';
import { FIREBASE_VECTOR, fixtures } from '../helpers/foreign-hashes.js';

const PASSWORD = 'the password they know';

describe('foreign password hashes', () => {
  it('reads and verifies a hash of each algorithm, made by its own library; a wrong password fails', async () => {
    for (const [name, input] of Object.entries(await fixtures(PASSWORD))) {
      const read = readForeignHash(input);
      assert.ok(read.ok, `${name}: ${JSON.stringify(read)}`);
      assert.equal(read.weak, input.weak === true, `${name} weak flag`);
      assert.equal(await verifyForeign(read.hash, PASSWORD), true, `${name} right password`);
      assert.equal(await verifyForeign(read.hash, `${PASSWORD}!`), false, `${name} wrong password`);
      assert.equal(await verifyForeign(read.hash, ''), false, `${name} empty password`);
    }
  });

  it("verifies crypt_blowfish's fixed bcrypt vectors (OpenBSD's and PHP's algorithm), under each prefix", async () => {
    // From Openwall's crypt_blowfish test table: hashes made by the C implementation, not by bcryptjs.
    const vectors: Array<[string, string]> = [
      ['$2a$05$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW', 'U*U'],
      ['$2a$05$CCCCCCCCCCCCCCCCCCCCC.VGOzA784oUp/Z0DY336zx7pLYAy0lwK', 'U*U*'],
      ['$2a$05$XXXXXXXXXXXXXXXXXXXXXOAcXxm9kjPGEMsLznoKqmqw7tc8WCx4a', 'U*U*U'],
    ];
    for (const [hash, password] of vectors)
      for (const prefix of ['$2a$', '$2b$', '$2y$']) {
        const read = readForeignHash({ algorithm: 'bcrypt', hash: hash.replace('$2a$', prefix) });
        assert.ok(read.ok);
        assert.equal(await verifyForeign(read.hash, password), true, `${prefix} ${password}`);
        assert.equal(await verifyForeign(read.hash, `${password}x`), false);
      }
  });

  it("verifies Firebase's published scrypt test vector", async () => {
    const { salt, hash, password, ...firebase } = FIREBASE_VECTOR;
    const read = readForeignHash({ algorithm: 'firebase_scrypt', hash, salt, firebase });
    assert.ok(read.ok);
    assert.equal(await verifyForeign(read.hash, password), true);
    assert.equal(await verifyForeign(read.hash, 'user2password'), false);
    const otherKey = readForeignHash({
      algorithm: 'firebase_scrypt',
      hash,
      salt,
      firebase: { ...firebase, signer_key: Buffer.alloc(64, 1).toString('base64') },
    });
    assert.ok(otherKey.ok);
    assert.equal(await verifyForeign(otherKey.hash, password), false, 'another project key does not match');
    const noParams = readForeignHash({ algorithm: 'firebase_scrypt', hash, salt });
    assert.equal(noParams.ok, false);
  });

  it('refuses unknown algorithms and malformed hashes', () => {
    const refused = (input: ForeignHashInput) => {
      const r = readForeignHash(input);
      assert.equal(r.ok, false, JSON.stringify(input));
      return r.ok ? '' : r.code;
    };
    assert.equal(refused({ algorithm: 'sha1crypt', hash: 'x' }), 'unknown_hash_algorithm');
    assert.equal(refused({ algorithm: undefined, hash: 'x' }), 'unknown_hash_algorithm');
    assert.equal(refused({ algorithm: 'bcrypt', hash: '$2b$10$tooShort' }), 'malformed_password_hash');
    assert.equal(refused({ algorithm: 'bcrypt', hash: `$2b$31$${'a'.repeat(53)}` }), 'malformed_password_hash');
    assert.equal(
      refused({ algorithm: 'argon2', hash: '$argon2d$v=19$m=8,t=1,p=1$c2FsdHNhbHQ$aGFzaGhhc2g' }),
      'malformed_password_hash',
    );
    assert.equal(
      refused({ algorithm: 'scrypt', hash: '$scrypt$ln=30,r=8,p=1$c2FsdA$aGFzaGhhc2hoYXNoaGFzaA' }),
      'malformed_password_hash',
    );
    assert.equal(refused({ algorithm: 'pbkdf2', hash: '$pbkdf2-md5$1000$c2FsdA$aGFzaA' }), 'malformed_password_hash');
    assert.equal(refused({ algorithm: 'md5', hash: 'not hex at all, not 32 chars' }), 'malformed_password_hash');
    assert.equal(refused({ algorithm: 'salted_sha256', hash: 'ab'.repeat(32), salt: 3 }), 'malformed_password_hash');
    assert.equal(refused({ algorithm: 'bcrypt', hash: '' }), 'malformed_password_hash');
    assert.equal(refused({ algorithm: 'bcrypt', hash: 42 }), 'malformed_password_hash');
  });

  it('seals a foreign hash for one user: opened only for them, never in clear; verifyPassword checks it', async () => {
    const key = randomBytes(32);
    const read = readForeignHash((await fixtures(PASSWORD)).md5!);
    assert.ok(read.ok);
    const stored = sealForeignHash(key, 'user-a', read.hash);
    assert.ok(!stored.includes(read.hash.alg === 'md5' ? read.hash.hash : ''), 'the digest is not in clear');
    assert.deepEqual(openForeignHash(key, 'user-a', stored), read.hash);
    assert.equal(openForeignHash(key, 'user-b', stored), undefined, "another user's row does not open it");
    assert.equal(openForeignHash(randomBytes(32), 'user-a', stored), undefined);
    assert.equal(needsRehash(stored), true);
    assert.equal(await verifyPassword(stored, PASSWORD, { userId: 'user-a', masterKey: key }), true);
    assert.equal(await verifyPassword(stored, 'wrong', { userId: 'user-a', masterKey: key }), false);
    assert.equal(await verifyPassword(stored, PASSWORD, { userId: 'user-b', masterKey: key }), false);
    assert.equal(await verifyPassword(stored, PASSWORD), false, 'no owner: no check');
    const own = await hashPassword(PASSWORD);
    assert.equal(needsRehash(own), false);
    assert.equal(await verifyPassword(own, PASSWORD), true, "Ward's own hashes verify as before");
  });
});
