// id_token_hint (OIDC Core 3.1.2.1): an ID token Ward issued, naming the user the client expects.
// Verified with jose like any JWT Ward consumes (RFC 8725): the algorithm comes from the client's
// jwt_algorithm, never from the header; RS256 / ES256 / EdDSA keys come only from Ward's own published
// keys of the client's key set, of that algorithm (a revoked kid, another client's key, or a key of
// another family is refused); no jku/x5u/jwk header is
// ever followed; crit is refused; a typ other than JWT is refused; iss and aud must match. An expired hint is still a hint, so only
// the signature is verified by jose (compactVerify), and the claims here.
import { createPublicKey, type KeyObject } from 'node:crypto';
import { compactVerify, type CompactJWSHeaderParameters } from 'jose';
import type { Client, ClientService } from '../clients/service.js';
import { GLOBAL_SET, clientSet, type KeyStore } from '../keys/key-store.js';

/** The `sub` of a valid hint for this client, or null. */
export async function verifyIdTokenHint(
  token: string,
  client: Client,
  deps: { issuer: string; keys: KeyStore; clients: ClientService },
): Promise<string | null> {
  return (await idTokenHintClaims(token, client, deps))?.sub ?? null;
}

/** The `sub` and `sid` (when it has one) of a valid hint for this client, or null. */
export async function idTokenHintClaims(
  token: string,
  client: Client,
  deps: { issuer: string; keys: KeyStore; clients: ClientService },
): Promise<{ sub: string; sid: string | null } | null> {
  if (token.length > 8192) return null;
  const keyFor = (header: CompactJWSHeaderParameters): KeyObject | Uint8Array => {
    if (header.crit !== undefined) throw new Error('crit is refused');
    if (client.jwt_algorithm === 'HS256') return new TextEncoder().encode(deps.clients.secretOf(client));
    const key = typeof header.kid === 'string' ? deps.keys.published(header.kid) : undefined;
    // The global set, or this client's own set (also after a sync: its old keys sign no more, but
    // their tokens are still genuine during the grace period).
    if (!key || (key.keySet !== GLOBAL_SET && key.keySet !== clientSet(client.client_id)))
      throw new Error('not a key of this client');
    if (key.jwk.alg !== client.jwt_algorithm) throw new Error('not a key of this algorithm');
    return createPublicKey({ key: key.jwk as never, format: 'jwk' });
  };
  let payload: Record<string, unknown>;
  try {
    const verified = await compactVerify(token, keyFor, { algorithms: [client.jwt_algorithm] });
    // Explicit typing (RFC 8725 3.11): Ward's ID tokens are `JWT`; a logout token (logout+jwt) or a
    // JWT access token (at+jwt) signed with the same keys is not an ID token.
    const typ = verified.protectedHeader.typ;
    if (typ !== undefined && typ.toUpperCase() !== 'JWT') return null;
    const parsed = JSON.parse(new TextDecoder().decode(verified.payload)) as unknown;
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return null;
    payload = parsed as Record<string, unknown>;
  } catch {
    return null;
  }
  const aud = payload.aud;
  const audOk = aud === client.client_id || (Array.isArray(aud) && aud.includes(client.client_id));
  if (payload.iss !== deps.issuer || !audOk || typeof payload.sub !== 'string') return null;
  return { sub: payload.sub, sid: typeof payload.sid === 'string' ? payload.sid : null };
}
