// Signing the JWTs Ward issues (ID tokens). The plain path is jose; `directJws` (tuning/jws.ts) is
// the speed-up the composition may choose instead for RS256 and HS256. ES256 and EdDSA always go
// through jose (`signWithPair`).
import type { KeyObject } from 'node:crypto';
import { SignJWT, type JWTPayload } from 'jose';

export interface JwsSigner {
  /** RS256 with Ward's key `kid`. */
  rs256(payload: object, kid: string, key: KeyObject, typ?: string): Promise<string>;
  /** HS256 with the client secret's UTF-8 octets (OIDC Core 10.1). */
  hs256(payload: object, secret: string, typ?: string): Promise<string>;
}

export const joseJws: JwsSigner = {
  rs256: (payload, kid, key, typ = 'JWT') =>
    new SignJWT(payload as JWTPayload).setProtectedHeader({ alg: 'RS256', typ, kid }).sign(key),
  hs256: (payload, secret, typ = 'JWT') =>
    new SignJWT(payload as JWTPayload).setProtectedHeader({ alg: 'HS256', typ }).sign(new TextEncoder().encode(secret)),
};

/** ES256 (EC P-256) or EdDSA (Ed25519) with Ward's key `kid`, through jose. */
export const signWithPair = (
  alg: 'ES256' | 'EdDSA',
  payload: object,
  kid: string,
  key: KeyObject,
  typ = 'JWT',
): Promise<string> => new SignJWT(payload as JWTPayload).setProtectedHeader({ alg, typ, kid }).sign(key);
