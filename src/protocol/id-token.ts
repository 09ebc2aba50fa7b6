import { hash } from 'node:crypto';
import { sidOf } from '../accounts/sessions.js';
import type { ClientService, Client } from '../clients/service.js';
import { GLOBAL_SET, clientSet, type KeyStore } from '../keys/key-store.js';
import type { JwsSigner } from '../keys/jwt.js';
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
  /** The SSO session the token is issued in: its `sid` (Back-Channel Logout 1.0 section 2.1). */
  sessionId?: string | null;
}

/** Left half of the SHA-256 of a token, base64url (OIDC Core 3.1.3.6 at_hash / 3.3.2.11 c_hash). */
export const halfHash = (token: string): string =>
  hash('sha256', token, 'buffer').subarray(0, 16).toString('base64url');

/** The key set a client's RS256 tokens are signed with: its own pair when client-specific, else global. */
export const keySetOf = (client: Client): string =>
  client.key_mode === 'client' ? clientSet(client.client_id) : GLOBAL_SET;

/**
 * Builds and signs an ID token: HS256 with the client secret, or RS256 with the client's current key,
 * as the client's jwt_algorithm says.
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
      ...(input.sessionId ? { sid: sidOf(input.sessionId) } : {}),
      ...claimsFor(user, input.scopes),
    };
    if (client.jwt_algorithm === 'HS256') return deps.jws.hs256(payload, deps.clients.secretOf(client));
    const { kid, key } = deps.keys.current(keySetOf(client));
    return deps.jws.rs256(payload, kid, key);
  };
}

export type IdTokenSigner = ReturnType<typeof createIdTokenSigner>;
