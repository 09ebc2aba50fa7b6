// DPoP proofs (RFC 9449 section 4.3): the JWT of a request's `DPoP` header, signed by the client's key
// pair, the public key in its `jwk` header. jose checks the signature (asymmetric algorithms only, a
// public key only); this module checks the rest: typ, htm, htu (without query and fragment), iat within
// the window, ath (the access token's hash) at a resource, the server's nonce when required, and the
// jti used once across every process (a single-use row that lives until the proof is too old anyway).
import { calculateJwkThumbprint, decodeProtectedHeader, EmbeddedJWK, jwtVerify, type JWTPayload } from 'jose';
import { WardError } from '../../errors/ward-error.js';
import { sha256 } from '../../lib/secrets.js';
import type { DpopNonces } from './nonce.js';

/** The algorithms a proof may be signed with (discovery's dpop_signing_alg_values_supported). */
export const DPOP_ALGORITHMS = ['ES256', 'ES384', 'ES512', 'PS256', 'PS384', 'PS512', 'RS256', 'EdDSA', 'Ed25519'];
/** How old a proof may be (its iat), and how far in the future (clocks differ), milliseconds. */
export const PROOF_MAX_AGE_MS = 5 * 60 * 1000;
export const PROOF_MAX_SKEW_MS = 60 * 1000;
const COMPACT_JWS = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;
const MAX_PROOF = 8192;

/** Where the proof is checked: the token endpoint answers 400, a resource 401 with a DPoP challenge. */
export type ProofPlace = 'token' | 'resource';

export interface ProofInput {
  /** The DPoP header(s) as received. */
  header: string | string[] | undefined;
  method: string;
  /** The path the request was made to (its query left out): the URL compared is the issuer's and this path. */
  path: string;
  /** At a resource: the access token the proof must hash (ath). */
  accessToken?: string;
}

export interface DpopVerifier {
  /** The JWK thumbprint (RFC 7638) of the proof's key; throws the RFC's error otherwise. */
  verify(input: ProofInput, place: ProofPlace): Promise<{ jkt: string }>;
  /** Whether proofs must carry a server nonce (the account's dpop_nonce_required). */
  nonceRequired(): boolean;
  /** The nonce to send in `DPoP-Nonce` now. */
  nonce(): string;
}

export interface DpopDeps {
  /** The issuer: Ward's endpoints are its URL and their path (discovery). */
  issuer: string;
  clock: { now(): number };
  nonces: DpopNonces;
  nonceRequired: () => boolean;
  /** Records a proof's digest until `expiresAt`; false when it was recorded before (a replay). */
  claimProof(digest: string, expiresAt: number): Promise<boolean>;
  /** Told of a replayed proof (a security event): the key's thumbprint and where it was sent. */
  replayed?(fields: { jkt: string; htm: string; path: string }): Promise<void>;
}

/** `WWW-Authenticate` of a resource's DPoP refusal (RFC 9449 7.1). */
export function dpopChallenge(error: string): string {
  return `DPoP error="${error}", algs="${DPOP_ALGORITHMS.join(' ')}"`;
}

/** A refusal of a proof: invalid_dpop_proof, or use_dpop_nonce with the nonce to use. */
export function proofError(place: ProofPlace, description: string, nonce?: string): WardError {
  const headers: Record<string, string> = nonce ? { 'DPoP-Nonce': nonce } : {};
  if (place === 'resource')
    headers['WWW-Authenticate'] = dpopChallenge(nonce ? 'use_dpop_nonce' : 'invalid_dpop_proof');
  const id = nonce
    ? place === 'token'
      ? 'dpopUseNonce'
      : 'dpopUseNonceAtResource'
    : place === 'token'
      ? 'dpopInvalidProof'
      : 'dpopInvalidProofAtResource';
  return new WardError(id, { description, headers });
}

/** An absolute URL without its query and fragment, normalised (scheme and host in lower case, no default port). */
function withoutQuery(value: string): string | null {
  try {
    const u = new URL(value);
    return `${u.protocol}//${u.host}${u.pathname}`;
  } catch {
    return null;
  }
}

export function createDpopVerifier(deps: DpopDeps): DpopVerifier {
  return {
    nonceRequired: deps.nonceRequired,
    nonce: () => deps.nonces.current(deps.clock.now()),
    async verify(input, place) {
      const fail = (description: string) => proofError(place, description);
      const proof = input.header;
      // RFC 9449 4.3: exactly one DPoP header (Node joins repeated ones with a comma: no longer a JWS).
      if (typeof proof !== 'string' || proof.length > MAX_PROOF || !COMPACT_JWS.test(proof))
        throw fail('The request needs exactly one DPoP header holding a DPoP proof JWT');
      let payload: JWTPayload;
      let jwk: Record<string, unknown>;
      try {
        const header = decodeProtectedHeader(proof);
        if (header.typ !== 'dpop+jwt') throw new Error('typ');
        if (typeof header.jwk !== 'object' || header.jwk === null || 'd' in header.jwk) throw new Error('jwk');
        jwk = header.jwk as Record<string, unknown>;
        ({ payload } = await jwtVerify(proof, EmbeddedJWK, {
          typ: 'dpop+jwt',
          algorithms: DPOP_ALGORITHMS,
          currentDate: new Date(deps.clock.now()),
        }));
      } catch {
        throw fail(
          'The DPoP proof is not a dpop+jwt signed with an asymmetric algorithm by the public key of its jwk header',
        );
      }
      const now = deps.clock.now();
      if (typeof payload.jti !== 'string' || payload.jti.length === 0 || payload.jti.length > 256)
        throw fail('The DPoP proof needs a jti');
      if (payload.htm !== input.method) throw fail('The DPoP proof was made for another HTTP method (htm)');
      const htu = typeof payload.htu === 'string' ? withoutQuery(payload.htu) : null;
      if (htu === null || htu !== withoutQuery(deps.issuer + input.path.split('?')[0]))
        throw fail('The DPoP proof was made for another URL (htu)');
      if (typeof payload.iat !== 'number') throw fail('The DPoP proof needs an iat');
      const iat = payload.iat * 1000;
      if (iat > now + PROOF_MAX_SKEW_MS || iat < now - PROOF_MAX_AGE_MS)
        throw fail('The DPoP proof was made too long ago or in the future (iat)');
      if (input.accessToken !== undefined) {
        if (payload.ath !== sha256(input.accessToken))
          throw fail('The DPoP proof must carry the hash of the access token (ath)');
      }
      if (payload.nonce !== undefined || deps.nonceRequired()) {
        if (typeof payload.nonce !== 'string' || !deps.nonces.valid(payload.nonce, now))
          throw proofError(
            place,
            'The DPoP proof must carry the nonce of the DPoP-Nonce header',
            deps.nonces.current(now),
          );
      }
      const jkt = await calculateJwkThumbprint(jwk as never, 'sha256');
      // The jti once (RFC 9449 11.1), per key: kept until the proof's iat is out of the window.
      const recorded = await deps.claimProof(sha256(`dpop:${jkt}:${payload.jti}`), iat + PROOF_MAX_AGE_MS + 1000);
      if (!recorded) {
        await deps.replayed?.({ jkt, htm: input.method, path: input.path.split('?')[0]! });
        throw fail('The DPoP proof was already used (jti)');
      }
      return { jkt };
    },
  };
}
