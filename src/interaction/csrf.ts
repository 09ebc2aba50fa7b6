import { randomToken } from '../lib/random.js';
import { hmac, safeEqual } from '../lib/secrets.js';

/** A pre-login cookie, and a form token that is its HMAC (login CSRF, ASVS 7.6.2). */
export const CSRF_COOKIE = '__Host-ward_csrf';

export function newCsrfCookie(): string {
  return randomToken(24);
}

export function csrfToken(masterKey: Buffer, cookie: string): string {
  return hmac(masterKey, `login-csrf:${cookie}`);
}

export function csrfValid(masterKey: Buffer, cookie: string | undefined, token: unknown): boolean {
  if (!cookie || typeof token !== 'string' || cookie.length > 100) return false;
  return safeEqual(csrfToken(masterKey, cookie), token);
}
