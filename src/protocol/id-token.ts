import { hash } from 'node:crypto';
import { sidOf } from '../accounts/sessions.js';
import type { ClientService, Client } from '../clients/service.js';
import type { KeyStore } from '../keys/key-store.js';
import { signWithPair, type JwsSigner } from '../keys/jwt.js';
import { seconds } from '../lib/clock.js';
import type { StoredProfile } from '../storage/sql/profiles.js';
import type { User } from '../storage/sql/users.js';
import type { Repos } from '../storage/storage.js';
import { claimsFor, needsProfile } from './scopes.js';

/** What the before.token hooks are told of one issuance. */
export interface TokenAttempt {
  client_id: string;
  /** Null for client_credentials (a client's own token). */
  user: User | null;
  scopes: string[];
  amr: string[];
  /** What is issued: an access token, an ID token or both. */
  tokens: Array<'access_token' | 'id_token'>;
}

/** The before.token hooks (hooks/): the claims they add to the ID token, or a throw refusing the issuance. */
export type BeforeToken = (attempt: TokenAttempt) => Promise<Record<string, unknown>>;

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
  /** The transaction the token is issued in, when there is one: the profile is read through it. */
  repos?: Pick<Repos, 'profiles'>;
  /** The user's profile when the caller read it with the user (null: none stored); else read here. */
  profile?: StoredProfile | null;
  /** The claims the before.token hooks added when the caller asked them; else the signer asks them. */
  hookClaims?: Record<string, unknown>;
  /** The action of the step-up the grant was signed in with (docs/mfa.md#step-up-actions). */
  stepUpAction?: string | null;
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
 * Signs a JWT the way a client's ID tokens are signed: HS256 with its secret, or RS256 / ES256 / EdDSA
 * with the current key of that family in its key set (made at its first use when no client needed it
 * at start; another process may have made it). `typ` is `JWT` unless told (a logout token's is its own).
 */
export async function signForClient(
  client: Client,
  payload: Record<string, unknown>,
  deps: { keys: KeyStore; clients: ClientService; jws: JwsSigner },
  typ?: string,
): Promise<string> {
  const alg = client.jwt_algorithm;
  if (alg === 'HS256') return deps.jws.hs256(payload, deps.clients.secretOf(client), typ);
  const set = keySetOf(client, deps.keys);
  if (!deps.keys.hasCurrent(set, alg)) await deps.keys.ensureGlobalKeys([alg]);
  const { kid, key } = deps.keys.current(set, alg);
  return alg === 'RS256' ? deps.jws.rs256(payload, kid, key, typ) : signWithPair(alg, payload, kid, key, typ);
}

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
  /** Where the user's profile is read (outside a transaction), only when the scopes release its claims. */
  profiles?: Pick<Repos, 'profiles'>;
  /** The before.token hooks, asked for an ID token issued on its own (at the authorization endpoint). */
  beforeToken?: BeforeToken;
}) {
  return async function sign(input: IdTokenInput): Promise<string> {
    const { client, user } = input;
    const added =
      input.hookClaims ??
      (deps.beforeToken
        ? await deps.beforeToken({
            client_id: client.client_id,
            user,
            scopes: input.scopes,
            amr: input.amr,
            tokens: ['id_token'],
          })
        : {});
    const iat = seconds(deps.now());
    const from = input.repos ?? deps.profiles;
    const profile = !needsProfile(input.scopes)
      ? undefined
      : input.profile !== undefined
        ? (input.profile ?? undefined)
        : await from?.profiles.find(user.id);
    const payload: Record<string, unknown> = {
      // A hook's claims never carry a registered name (hooks/answer.ts): nothing below is overridden.
      ...added,
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
      ...(input.stepUpAction ? { step_up_action: input.stepUpAction } : {}),
      ...claimsFor(user, input.scopes, profile),
    };
    return signForClient(client, payload, deps);
  };
}

export type IdTokenSigner = ReturnType<typeof createIdTokenSigner>;
