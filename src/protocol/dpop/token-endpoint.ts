// DPoP at the token endpoint (RFC 9449 5): a request with a DPoP header gets tokens bound to the
// proof's key. The grants do not change: the issuer they call is the one that binds.
import type { IssueInput, TokenIssuer } from '../issue-tokens.js';
import type { DpopVerifier, ProofInput } from './proof.js';

/** The JWK thumbprint of the request's proof, or null when it sent none (a Bearer request). */
export async function tokenRequestKey(
  r: { dpop: DpopVerifier },
  proof: ProofInput | undefined,
): Promise<string | null> {
  if (proof === undefined || proof.header === undefined) return null;
  return (await r.dpop.verify(proof, 'token')).jkt;
}

/** `r` whose token issuer binds every access token it mints to `jkt`. */
export function bindingIssuer<T extends { issueTokens: TokenIssuer }>(r: T, jkt: string | null): T {
  if (jkt === null) return r;
  const issueTokens: TokenIssuer = (tx, input: IssueInput) => r.issueTokens(tx, { ...input, dpopJkt: jkt });
  return { ...r, issueTokens };
}
