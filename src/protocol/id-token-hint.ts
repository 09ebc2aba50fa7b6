// id_token_hint (OIDC Core 3.1.2.1): an ID token Ward issued, naming the user the client expects.
// Verified like any JWT Ward consumes (RFC 8725): the algorithm comes from the client's
// jwt_algorithm, never from the header; RS256 keys come only from Ward's own published keys of the
// client's key set (a revoked kid, or another client's key, is refused); no jku/x5u/jwk header is
// ever followed; crit is refused; iss and aud must match. An expired hint is still a hint.
import { createHmac, createPublicKey, verify } from 'node:crypto';
import type { Client, ClientService } from '../clients/service.js';
import { GLOBAL_SET, clientSet, type KeyStore } from '../keys/key-store.js';
import { safeEqual } from '../lib/secrets.js';

const B64URL = /^[A-Za-z0-9_-]+$/;

function decodePart(part: string): Record<string, unknown> | null {
  if (!B64URL.test(part)) return null;
  try {
    const v = JSON.parse(Buffer.from(part, 'base64url').toString('utf8')) as unknown;
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** The `sub` of a valid hint for this client, or null. */
export function verifyIdTokenHint(
  token: string,
  client: Client,
  deps: { issuer: string; keys: KeyStore; clients: ClientService },
): string | null {
  if (token.length > 8192) return null;
  const parts = token.split('.');
  if (parts.length !== 3 || !B64URL.test(parts[2]!)) return null;
  const header = decodePart(parts[0]!);
  const payload = decodePart(parts[1]!);
  if (!header || !payload || header.crit !== undefined || header.alg !== client.jwt_algorithm) return null;
  const input = Buffer.from(`${parts[0]}.${parts[1]}`);
  const signature = Buffer.from(parts[2]!, 'base64url');
  if (client.jwt_algorithm === 'HS256') {
    const expected = createHmac('sha256', deps.clients.secretOf(client)).update(input).digest('base64url');
    if (!safeEqual(expected, parts[2]!)) return null;
  } else {
    const key = typeof header.kid === 'string' ? deps.keys.published(header.kid) : undefined;
    // The global set, or this client's own set (also after a sync: its old keys sign no more, but
    // their tokens are still genuine during the grace period).
    if (!key || (key.keySet !== GLOBAL_SET && key.keySet !== clientSet(client.client_id))) return null;
    if (!verify('sha256', input, createPublicKey({ key: key.jwk as never, format: 'jwk' }), signature)) return null;
  }
  const aud = payload.aud;
  const audOk = aud === client.client_id || (Array.isArray(aud) && aud.includes(client.client_id));
  if (payload.iss !== deps.issuer || !audOk || typeof payload.sub !== 'string') return null;
  return payload.sub;
}
