// Rule (RFC 7636 4.6, RFC 9700 4.8.2): a code issued with a challenge needs a verifier of the
// RFC 7636 grammar whose S256 matches; a code issued without one refuses any verifier (downgrade).
// Compared in constant time.
import { safeEqual, sha256 } from '../../lib/secrets.js';

const VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/;

export function pkceMatches(challenge: string | null, verifier: unknown): boolean {
  const given = verifier === undefined || verifier === null || verifier === '' ? null : verifier;
  if (challenge === null) return given === null;
  if (typeof given !== 'string' || !VERIFIER.test(given)) return false;
  return safeEqual(sha256(given), challenge);
}
