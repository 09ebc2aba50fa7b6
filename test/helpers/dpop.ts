// DPoP proofs (RFC 9449 4.2) made by hand with jose, for the refusals a real client never makes.
import { createHash, randomUUID } from 'node:crypto';
import { calculateJwkThumbprint, exportJWK, generateKeyPair, SignJWT, type JWK } from 'jose';

export interface ProofKey {
  privateKey: CryptoKey;
  publicJwk: JWK;
  /** Its JWK thumbprint (RFC 7638): the cnf.jkt of the tokens bound to it. */
  jkt: string;
  alg: string;
}

export async function proofKey(alg = 'ES256'): Promise<ProofKey> {
  const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true });
  const publicJwk = await exportJWK(publicKey);
  return { privateKey, publicJwk, jkt: await calculateJwkThumbprint(publicJwk), alg };
}

/** The ath of an access token: base64url(SHA-256(token)). */
export const athOf = (token: string) => createHash('sha256').update(token).digest('base64url');

export interface ProofClaims {
  htm: string;
  htu: string;
  ath?: string;
  nonce?: string;
  jti?: string;
  /** Seconds; default now. */
  iat?: number;
}

/** A proof signed by `key`; `header` overrides the protected header (another jwk, typ, ...). */
export async function makeProof(key: ProofKey, claims: ProofClaims, header: Record<string, unknown> = {}) {
  const { iat, ...rest } = claims;
  return new SignJWT({ jti: randomUUID(), ...rest })
    .setProtectedHeader({ alg: key.alg, typ: 'dpop+jwt', jwk: key.publicJwk, ...header } as never)
    .setIssuedAt(iat ?? Math.floor(Date.now() / 1000))
    .sign(key.privateKey);
}
