import { createPrivateKey, createPublicKey, webcrypto } from 'node:crypto';
import { loadCertificateModules, selfSignedCertificate, serialNumberFrom } from '../lib/self-signed.js';
import { calculateJwkThumbprint, type JWK } from 'jose';
import { seal } from '../lib/secrets.js';
import type { SigningKeyRow } from '../storage/sql/keys.js';
import { FAMILIES, type SigningAlg } from './families.js';

/** Private keys are sealed with their kid as associated data, so a row cannot borrow another's key. */
export const keyAad = (kid: string): string => `signing-key:${kid}`;

const newPair = (alg: SigningAlg, modulusLength: number): Promise<CryptoKeyPair> => {
  const family = FAMILIES[alg];
  const params = alg === 'RS256' ? { ...family.webcrypto, modulusLength } : family.webcrypto;
  return webcrypto.subtle.generateKey(params, true, ['sign', 'verify']) as Promise<CryptoKeyPair>;
};

/** The RSA size of Ward's keys unless asked otherwise. */
const RSA_BITS = 2048;

/** The pair generateAhead began (RS256, RSA_BITS), until a key of that family and size takes it. */
let ahead: Promise<CryptoKeyPair> | undefined;

/**
 * Begins the global RS256 key of a first start before it is asked for: its pair (on libuv's threads)
 * and the ASN.1 modules of its certificate. registry.ts calls it when the store is found empty, so the
 * key is under way while the store is migrated; the next generateSigningKey of RS256 and RSA_BITS
 * takes the pair, once. A failure is thrown there.
 */
export function generateAhead(): void {
  if (ahead) return;
  ahead = newPair('RS256', RSA_BITS);
  ahead.catch(() => undefined);
  loadCertificateModules().catch(() => undefined);
}

function takePair(alg: SigningAlg, modulusLength: number): Promise<CryptoKeyPair> {
  const begun = ahead;
  if (!begun || alg !== 'RS256' || modulusLength !== RSA_BITS) return newPair(alg, modulusLength);
  ahead = undefined;
  return begun;
}

/**
 * A new signing key of one family (RS256: an RSA pair of 2048 bits or more; ES256: EC P-256; EdDSA:
 * Ed25519), its kid (the RFC 7638 thumbprint), the private part sealed under the master key, and a
 * self-signed X.509 certificate for x5c / x5t.
 */
export async function generateSigningKey(
  masterKey: Buffer,
  keySet: string,
  now: number,
  alg: SigningAlg = 'RS256',
  modulusLength = RSA_BITS,
): Promise<SigningKeyRow> {
  const family = FAMILIES[alg];
  const pair = await takePair(alg, modulusLength);
  const pkcs8 = Buffer.from(await webcrypto.subtle.exportKey('pkcs8', pair.privateKey));
  const privateKey = createPrivateKey({ key: pkcs8, format: 'der', type: 'pkcs8' });
  const exported = createPublicKey(privateKey).export({ format: 'jwk' }) as Record<string, string>;
  const publicJwk = Object.fromEntries(family.members.map((m) => [m, exported[m]!]));
  const kid = await calculateJwkThumbprint(publicJwk as JWK);
  const cert = await selfSignedCertificate({
    privateKey,
    serialNumber: serialNumberFrom(Buffer.from(kid, 'base64url').subarray(0, 16)),
    name: { CN: `Ward signing key ${kid}` },
    notBefore: new Date(now - 60_000),
    notAfter: new Date(now + 10 * 365 * 24 * 3600 * 1000),
    usage: ['digitalSignature'],
  });
  return {
    kid,
    key_set: keySet,
    alg,
    status: 'current',
    public_jwk: JSON.stringify(publicJwk),
    private_sealed: seal(masterKey, pkcs8, keyAad(kid)),
    cert_der: cert.toString('base64'),
    created_at: now,
    retired_at: null,
    revoked_at: null,
  };
}
