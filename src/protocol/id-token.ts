import { hash } from 'node:crypto';
import type { ClientService, Client } from '../clients/service.js';
import type { KeyStore } from '../keys/key-store.js';
import { signWithPair, type JwsSigner } from '../keys/jwt.js';
import { seconds } from '../lib/clock.js';
import type { User } from '../storage/sql/users.js';
import { claimsFor } from './scopes.js';

export interface IdTokenInput {
  client: Client;
  user: User;
  scopes: string[];
  nonce?: string | null;
  authTime: number | null;
  amr: string[];
  accessToken?: string;
  code?: string;
}

/** Left half of the SHA-256 of a token, base64url (OIDC Core 3.1.3.6 at_hash / 3.3.2.11 c_hash). */
export const halfHash = (token: string): string =>
  hash('sha256', token, 'buffer').subarray(0, 16).toString('base64url');

/**
 * The key set a client's tokens are signed with: its own set when client-specific (and holding a key
 * of the client's family), else the global set.
 */
export const keySetOf = (client: Client, keys: Pick<KeyStore, 'signingSet'>): string =>
  keys.signingSet(client.client_id, client.key_mode, client.jwt_algorithm);

/**
 * Builds and signs an ID token: HS256 with the client secret, or RS256 / ES256 / EdDSA with the
 * current key of that family in the client's key set, as the client's jwt_algorithm says.
 */
export function createIdTokenSigner(deps: {
  issuer: string;
  ttl: () => number;
  now: () => number;
  keys: KeyStore;
  clients: ClientService;
  /** jose, or the `direct_jws` speed-up (chosen by the composition). */
  jws: JwsSigner;
}) {
  return async function sign(input: IdTokenInput): Promise<string> {
    const { client, user } = input;
    const iat = seconds(deps.now());
    const payload: Record<string, unknown> = {
      iss: deps.issuer,
      sub: user.id,
      aud: client.client_id,
      azp: client.client_id,
      exp: iat + deps.ttl(),
      iat,
      ...(input.authTime ? { auth_time: seconds(input.authTime) } : {}),
      ...(input.nonce ? { nonce: input.nonce } : {}),
      amr: input.amr,
      // ReachFive's auth_type: the provider of a social login, else password.
      ...(input.amr.includes('social')
        ? { auth_type: input.amr[input.amr.indexOf('social') + 1] }
        : input.amr.includes('pwd')
          ? { auth_type: 'password' }
          : {}),
      ...(input.accessToken ? { at_hash: halfHash(input.accessToken) } : {}),
      ...(input.code ? { c_hash: halfHash(input.code) } : {}),
      ...claimsFor(user, input.scopes),
    };
    const alg = client.jwt_algorithm;
    if (alg === 'HS256') return deps.jws.hs256(payload, deps.clients.secretOf(client));
    const set = keySetOf(client, deps.keys);
    // The first signature of a family no client used at start (another process may have made it).
    if (!deps.keys.hasCurrent(set, alg)) await deps.keys.ensureGlobalKeys([alg]);
    const { kid, key } = deps.keys.current(set, alg);
    return alg === 'RS256' ? deps.jws.rs256(payload, kid, key) : signWithPair(alg, payload, kid, key);
  };
}

export type IdTokenSigner = ReturnType<typeof createIdTokenSigner>;
