// The password hashes other systems made, as an import names them: read and checked once, at import
// (an unknown algorithm or a malformed hash refuses the line), into a descriptor that verify.ts
// checks a password against at the first sign-in. Nothing here hashes or verifies.
import { getRounds as bcryptRounds } from 'bcryptjs';
import { parseOptions as argon2Options, Algorithm } from '@node-rs/argon2';

export type Digest = 'sha1' | 'sha256' | 'sha512';

/** What verify.ts needs for each algorithm; byte strings are base64 (standard, padded). */
export type ForeignHash =
  | { alg: 'bcrypt'; hash: string }
  | { alg: 'argon2'; hash: string }
  | { alg: 'scrypt'; n: number; r: number; p: number; salt: string; hash: string }
  | {
      alg: 'firebase_scrypt';
      salt: string;
      hash: string;
      signer_key: string;
      salt_separator: string;
      rounds: number;
      mem_cost: number;
    }
  | { alg: 'pbkdf2'; digest: Digest; iterations: number; salt: string; hash: string }
  | { alg: 'salted_sha256' | 'salted_sha512' | 'md5'; salt: string; salt_position: 'after' | 'before'; hash: string };

/** Firebase's project-wide hash parameters (Authentication > Users > Password hash parameters). */
export interface FirebaseParams {
  signer_key: string;
  salt_separator: string;
  rounds: number;
  mem_cost: number;
}

/** A line's password fields, as given. */
export interface ForeignHashInput {
  algorithm: unknown;
  hash: unknown;
  salt?: unknown;
  saltPosition?: unknown;
  firebase?: FirebaseParams;
}

export type ReadHash =
  | { ok: true; hash: ForeignHash; weak: boolean }
  | { ok: false; code: 'unknown_hash_algorithm' | 'malformed_password_hash'; message: string };

export const HASH_ALGORITHMS = [
  'bcrypt',
  'argon2',
  'scrypt',
  'firebase_scrypt',
  'pbkdf2',
  'salted_sha256',
  'salted_sha512',
  'md5',
] as const;

/** Legacy digests: accepted so their users can sign in once, flagged weak in the import report. */
const WEAK = new Set(['salted_sha256', 'salted_sha512', 'md5']);

const B64 = /^[A-Za-z0-9+/]+={0,2}$/;
const isB64 = (s: unknown): s is string => typeof s === 'string' && s.length > 0 && s.length <= 2048 && B64.test(s);
/** Base64 without padding, in the standard or passlib's "adapted" alphabet ('.' for '+'), as base64. */
const unpadded = (s: string): string | null =>
  /^[A-Za-z0-9+/.]+$/.test(s) && s.length <= 2048
    ? Buffer.from(s.replace(/\./g, '+'), 'base64').toString('base64')
    : null;

const malformed = (message: string): ReadHash => ({ ok: false, code: 'malformed_password_hash', message });
const ok = (hash: ForeignHash): ReadHash => ({ ok: true, hash, weak: WEAK.has(hash.alg) });

/**
 * Bounds on the work factors a hash may ask for, so one imported line cannot make each sign-in
 * allocate gigabytes or spin for minutes.
 */
const MAX_MEMORY_BYTES = 256 * 1024 * 1024;
const MAX_ITERATIONS = 10_000_000;

function bcrypt(hash: string): ReadHash {
  if (!/^\$2[aby]\$\d\d\$[./A-Za-z0-9]{53}$/.test(hash)) return malformed('is not a bcrypt hash ($2a$, $2b$ or $2y$)');
  try {
    if (bcryptRounds(hash) > 16) return malformed('has a bcrypt cost above 16');
  } catch {
    return malformed('is not a bcrypt hash ($2a$, $2b$ or $2y$)');
  }
  return ok({ alg: 'bcrypt', hash });
}

function argon2(hash: string): ReadHash {
  if (!/^\$argon2(id|i)\$v=19\$m=\d+,t=\d+,p=\d+\$[A-Za-z0-9+/]+\$[A-Za-z0-9+/]+$/.test(hash))
    return malformed('is not an argon2id or argon2i PHC string ($argon2id$v=19$m=...,t=...,p=...$salt$hash)');
  try {
    const o = argon2Options(hash);
    if (o.algorithm === Algorithm.Argon2d) return malformed('argon2d is not accepted');
    if (o.memoryCost * 1024 > MAX_MEMORY_BYTES || o.timeCost > 20 || o.parallelism > 16)
      return malformed('asks for more than 256 MiB, 20 passes or 16 lanes');
  } catch {
    return malformed('is not a valid argon2 PHC string');
  }
  return ok({ alg: 'argon2', hash });
}

/** passlib's `$scrypt$ln=16,r=8,p=1$<salt>$<hash>` (PHC, base64 without padding). */
function scrypt(hash: string): ReadHash {
  const m = /^\$scrypt\$ln=(\d{1,2}),r=(\d{1,3}),p=(\d{1,2})\$([A-Za-z0-9+/.]+)\$([A-Za-z0-9+/.]+)$/.exec(hash);
  const salt = m && unpadded(m[4]!);
  const digest = m && unpadded(m[5]!);
  if (!m || !salt || !digest) return malformed('is not a scrypt PHC string ($scrypt$ln=..,r=..,p=..$salt$hash)');
  const [ln, r, p] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (ln < 1 || ln > 24 || r < 1 || p < 1 || 128 * 2 ** ln * r * p > MAX_MEMORY_BYTES)
    return malformed('has scrypt parameters out of range (at most 256 MiB)');
  if (Buffer.from(digest, 'base64').length < 16) return malformed('has a scrypt hash shorter than 16 bytes');
  return ok({ alg: 'scrypt', n: 2 ** ln, r, p, salt, hash: digest });
}

/** passlib's `$pbkdf2$<i>$<salt>$<hash>` (SHA-1), `$pbkdf2-sha256$...`, `$pbkdf2-sha512$...` (adapted base64). */
function pbkdf2(hash: string): ReadHash {
  const m = /^\$pbkdf2(-sha256|-sha512|-sha1)?\$(\d{1,8})\$([A-Za-z0-9+/.]+)\$([A-Za-z0-9+/.]+)$/.exec(hash);
  const salt = m && unpadded(m[3]!);
  const digest = m && unpadded(m[4]!);
  if (!m || !salt || !digest)
    return malformed('is not a PBKDF2 hash ($pbkdf2-sha256$<iterations>$<salt>$<hash>, passlib format)');
  const alg: Digest = m[1] === '-sha256' ? 'sha256' : m[1] === '-sha512' ? 'sha512' : 'sha1';
  const iterations = Number(m[2]);
  if (iterations < 1 || iterations > MAX_ITERATIONS) return malformed('has an iteration count out of range');
  if (Buffer.from(digest, 'base64').length < 16) return malformed('has a PBKDF2 hash shorter than 16 bytes');
  return ok({ alg: 'pbkdf2', digest: alg, iterations, salt, hash: digest });
}

const HEX_LENGTH = { salted_sha256: 64, salted_sha512: 128, md5: 32 } as const;

/** A hex digest of the password and an optional text salt, appended (default) or prepended. */
function saltedDigest(alg: keyof typeof HEX_LENGTH, input: ForeignHashInput): ReadHash {
  const hash = input.hash as string;
  if (!new RegExp(`^[0-9a-fA-F]{${HEX_LENGTH[alg]}}$`).test(hash))
    return malformed(`is not a hex digest of ${HEX_LENGTH[alg]} characters`);
  if (input.salt !== undefined && (typeof input.salt !== 'string' || input.salt.length > 1024))
    return malformed('password_salt must be a string');
  if (input.saltPosition !== undefined && input.saltPosition !== 'after' && input.saltPosition !== 'before')
    return malformed('password_salt_position must be "after" or "before"');
  return ok({
    alg,
    salt: (input.salt as string | undefined) ?? '',
    salt_position: (input.saltPosition as 'after' | 'before' | undefined) ?? 'after',
    hash: hash.toLowerCase(),
  });
}

function firebaseScrypt(input: ForeignHashInput): ReadHash {
  const f = input.firebase;
  if (!f) return malformed('firebase_scrypt needs the project parameters given with the import');
  if (!isB64(input.hash) || !isB64(input.salt))
    return malformed('firebase_scrypt needs password_hash and password_salt in base64');
  return ok({ alg: 'firebase_scrypt', salt: input.salt, hash: input.hash, ...f });
}

/** Reads the password fields of an imported line. */
export function readForeignHash(input: ForeignHashInput): ReadHash {
  const alg = input.algorithm;
  if (typeof alg !== 'string' || !(HASH_ALGORITHMS as readonly string[]).includes(alg))
    return {
      ok: false,
      code: 'unknown_hash_algorithm',
      message: `password_hash_algorithm must be one of ${HASH_ALGORITHMS.join(', ')}`,
    };
  if (typeof input.hash !== 'string' || input.hash.length === 0 || input.hash.length > 4096)
    return malformed('password_hash must be a non-empty string');
  const a = alg as (typeof HASH_ALGORITHMS)[number];
  if (a !== 'firebase_scrypt' && !(a in HEX_LENGTH) && input.salt !== undefined)
    return malformed(`password_salt is part of the ${a} hash itself`);
  switch (a) {
    case 'bcrypt':
      return bcrypt(input.hash);
    case 'argon2':
      return argon2(input.hash);
    case 'scrypt':
      return scrypt(input.hash);
    case 'pbkdf2':
      return pbkdf2(input.hash);
    case 'firebase_scrypt':
      return firebaseScrypt(input);
    default:
      return saltedDigest(a, input);
  }
}

/** Checks the Firebase parameters of an import (answers what is wrong, or null). */
export function firebaseParamsProblem(f: FirebaseParams): string | null {
  if (!isB64(f.signer_key)) return 'firebase_signer_key must be base64';
  if (!isB64(f.salt_separator)) return 'firebase_salt_separator must be base64';
  if (!Number.isInteger(f.rounds) || f.rounds < 1 || f.rounds > 32) return 'firebase_rounds must be from 1 to 32';
  if (
    !Number.isInteger(f.mem_cost) ||
    f.mem_cost < 1 ||
    f.mem_cost > 20 ||
    128 * 2 ** f.mem_cost * f.rounds > MAX_MEMORY_BYTES
  )
    return 'firebase_mem_cost must be from 1 to 20 (and at most 256 MiB with the rounds)';
  return null;
}
