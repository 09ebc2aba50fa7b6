// Server-provided DPoP nonces (RFC 9449 section 8), made without state: a nonce is the HMAC of a time
// window under a key derived from the master key, so every process issues and accepts the same ones and
// nothing is stored. A nonce is accepted during its own window and the next one (between one and two
// windows of life), which is what RFC 9449 8.2 leaves to the server.
import { hkdfSync } from 'node:crypto';
import { hmac, safeEqual } from '../../lib/secrets.js';

/** The length of a nonce's window, milliseconds. */
export const NONCE_WINDOW_MS = 5 * 60 * 1000;

export interface DpopNonces {
  /** The nonce of the current window. */
  current(now: number): string;
  /** Whether `nonce` is the current window's or the previous one's. */
  valid(nonce: string, now: number): boolean;
}

export function createDpopNonces(masterKey: Buffer): DpopNonces {
  const key = Buffer.from(hkdfSync('sha256', masterKey, Buffer.alloc(0), 'ward dpop nonces v1', 32));
  const of = (window: number) => hmac(key, `dpop-nonce:${window}`).slice(0, 32);
  return {
    current: (now) => of(Math.floor(now / NONCE_WINDOW_MS)),
    valid(nonce, now) {
      const window = Math.floor(now / NONCE_WINDOW_MS);
      return safeEqual(nonce, of(window)) || safeEqual(nonce, of(window - 1));
    },
  };
}
