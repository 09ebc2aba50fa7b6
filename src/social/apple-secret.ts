// Apple's client secret: not a fixed string but an ES256 JWT signed with the team's Sign in with Apple
// key (header kid = the key id; iss = the team id, sub = the services id (client_id), aud = Apple's
// issuer, iat, exp at most six months later). Minted with jose at first use, kept, and minted again
// a day before it expires, so a long-running Ward never sends an expired one.
import { importPKCS8, SignJWT } from 'jose';
import type { Clock } from '../lib/clock.js';

/** What Ward mints: 30 days (Apple allows up to 180); renewed when less than a day is left. */
export const APPLE_SECRET_LIFETIME = 30 * 24 * 3600;
const RENEW_BEFORE = 24 * 3600;

export interface TeamKey {
  teamId: string;
  keyId: string;
  /** The .p8 file: a PKCS#8 PEM P-256 private key. */
  privateKey: string;
  clientId: string;
  /** Apple's issuer (https://appleid.apple.com), the audience of the secret. */
  audience: string;
}

export function appleClientSecret(k: TeamKey, clock: Clock): () => Promise<string> {
  let current: { jwt: string; exp: number } | null = null;
  let key: ReturnType<typeof importPKCS8> | null = null;
  return async () => {
    const now = Math.floor(clock.now() / 1000);
    if (current && current.exp - now > RENEW_BEFORE) return current.jwt;
    key ??= importPKCS8(k.privateKey, 'ES256').catch((e: unknown) => {
      key = null; // validated at configuration; should it still fail, try again next time
      throw e;
    });
    const exp = now + APPLE_SECRET_LIFETIME;
    const jwt = await new SignJWT({})
      .setProtectedHeader({ alg: 'ES256', kid: k.keyId })
      .setIssuer(k.teamId)
      .setSubject(k.clientId)
      .setAudience(k.audience)
      .setIssuedAt(now)
      .setExpirationTime(exp)
      .sign(await key);
    current = { jwt, exp };
    return jwt;
  };
}
