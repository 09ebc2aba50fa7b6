// dpop_jkt (RFC 9449 10): an authorization request may name the JWK thumbprint of the DPoP key its
// code will be redeemed with. The binding is kept beside the code, in the single-use store (kind
// code_dpop_jkt, keyed by a digest of the code's digest, the thumbprint as payload, living as long as
// the code), written before the code so no code exists unbound; the token request's proof must be made
// with that key, else invalid_grant (the code is burned anyway: it was consumed first). A bound code's
// value is marked, so redeeming any other code reads nothing more.
import { hash } from 'node:crypto';
import { invalidGrant } from '../../errors/refusals.js';
import type { Storage } from '../../storage/storage.js';

const KIND = 'code_dpop_jkt';
/**
 * The end of a bound code's value: only such codes look for a binding at redemption (the others cost
 * no read). The code's digest covers it, so it cannot be taken off a bound code.
 */
const BOUND = '.k';

/** A new code's value: `random`, marked when it is bound to a DPoP key. */
export const codeValue = (random: string, bound: boolean): string => (bound ? `${random}${BOUND}` : random);
const digestOf = (codeDigest: string) => hash('sha256', `code-dpop-jkt:${codeDigest}`, 'hex');

/** A JWK SHA-256 thumbprint (RFC 7638), base64url: what dpop_jkt must be. */
export const JKT = /^[A-Za-z0-9_-]{43}$/;

/** Binds the code (by its digest) to `jkt` until `expiresAt`. */
export async function bindCode(
  storage: Pick<Storage, 'oneTime'>,
  binding: { codeDigest: string; clientId: string; jkt: string; expiresAt: number; now: number },
): Promise<void> {
  await storage.oneTime.insert({
    digest: digestOf(binding.codeDigest),
    kind: KIND,
    user_id: '',
    client_id: binding.clientId,
    payload: binding.jkt,
    expires_at: binding.expiresAt,
    consumed_at: null,
    created_at: binding.now,
  });
}

/** Refuses the redemption of a bound code unless the request's proof key is the bound one. */
export async function checkCodeKey(
  storage: Pick<Storage, 'oneTime'>,
  codeDigest: string,
  proofJkt: string | null | undefined,
  now: number,
  code: string,
): Promise<void> {
  if (!code.endsWith(BOUND)) return;
  const bound = await storage.oneTime.consume(KIND, digestOf(codeDigest), now);
  if (bound.state !== 'ok') return;
  if (proofJkt !== bound.row.payload)
    throw invalidGrant('The authorization code is bound to a DPoP key (dpop_jkt): the DPoP proof must be made with it');
}
