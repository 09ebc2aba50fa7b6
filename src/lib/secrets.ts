import { createCipheriv, createDecipheriv, createHmac, hash, timingSafeEqual } from 'node:crypto';
import { secureRandomBytes } from './random.js';

/**
 * SHA-256 of a high-entropy token, as stored at rest (codes, tkn, refresh tokens, sessions), base64url. One-shot
 * `hash`: no Hash object per call.
 */
export function sha256(value: string): string {
  return hash('sha256', value, 'base64url');
}

/** HMAC-SHA256 keyed by a server secret: for low-entropy values (OTP codes) and client secrets. */
export function hmac(key: Buffer, value: string): string {
  return createHmac('sha256', key).update(value).digest('base64url');
}

/** Constant-time string equality (lengths are compared first; that leaks only the length). */
export function safeEqual(a: string, b: string): boolean {
  const ab = Buffer.from(a);
  const bb = Buffer.from(b);
  if (ab.length !== bb.length) return false;
  return timingSafeEqual(ab, bb);
}

const IV = 12;
const TAG = 16;

/** AES-256-GCM of `plaintext` under `key`, as one buffer: iv (12) || ciphertext || tag (16). */
export function encryptBytes(key: Buffer, plaintext: string | Buffer, aad: Buffer): Buffer {
  const iv = secureRandomBytes(IV);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(aad);
  const body = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return Buffer.concat([iv, body, cipher.getAuthTag()]);
}

/** The plaintext of encryptBytes' output; throws if it was changed or made under another key. */
export function decryptBytes(key: Buffer, raw: Buffer, aad: Buffer): Buffer {
  if (raw.length < IV + TAG) throw new Error('sealed value too short');
  const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, IV));
  decipher.setAAD(aad);
  decipher.setAuthTag(raw.subarray(raw.length - TAG));
  return Buffer.concat([decipher.update(raw.subarray(IV, raw.length - TAG)), decipher.final()]);
}

/** AES-256-GCM sealing of secrets at rest: "v1.<iv>.<tag>.<ciphertext>" (base64url parts). */
export function seal(masterKey: Buffer, plaintext: string | Buffer, aad = ''): string {
  const raw = encryptBytes(masterKey, plaintext, Buffer.from(aad));
  const part = (a: number, b: number) => raw.subarray(a, b).toString('base64url');
  return ['v1', part(0, IV), part(raw.length - TAG, raw.length), part(IV, raw.length - TAG)].join('.');
}

export function unseal(masterKey: Buffer, sealed: string, aad = ''): Buffer {
  const [v, iv, tag, body] = sealed.split('.');
  if (v !== 'v1' || !iv || !tag || body === undefined) throw new Error('sealed value has an unknown format');
  const raw = Buffer.concat([
    Buffer.from(iv, 'base64url'),
    Buffer.from(body, 'base64url'),
    Buffer.from(tag, 'base64url'),
  ]);
  return decryptBytes(masterKey, raw, Buffer.from(aad));
}
