// The asymmetric algorithms Ward signs ID tokens with, one key family each: RS256 with an RSA pair
// (RFC 7518 3.3), ES256 with an EC P-256 pair (RFC 7518 3.4), EdDSA with an Ed25519 pair (RFC 8037).
// A key set (global, or a client's own) holds a current (and previous) key per family.

export const SIGNING_ALGS = ['RS256', 'ES256', 'EdDSA'] as const;
export type SigningAlg = (typeof SIGNING_ALGS)[number];

export const isSigningAlg = (alg: unknown): alg is SigningAlg => SIGNING_ALGS.includes(alg as SigningAlg);

interface Family {
  /** The WebCrypto algorithm of the pair (generation and the self-signed certificate). */
  webcrypto: { name: string } & Record<string, unknown>;
  /** The members of the public JWK that make the key (RFC 7638 thumbprint input, stored as-is). */
  members: readonly string[];
}

export const FAMILIES: Record<SigningAlg, Family> = {
  RS256: {
    webcrypto: { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256', publicExponent: new Uint8Array([1, 0, 1]) },
    members: ['kty', 'n', 'e'],
  },
  ES256: { webcrypto: { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' }, members: ['kty', 'crv', 'x', 'y'] },
  EdDSA: { webcrypto: { name: 'Ed25519' }, members: ['kty', 'crv', 'x'] },
};
