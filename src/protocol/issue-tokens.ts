import type { Client } from '../clients/service.js';
import type { AccountSettings } from '../config/types.js';
import type { Clock } from '../lib/clock.js';
import { randomToken } from '../lib/random.js';
import { sha256 } from '../lib/secrets.js';
import type { Repos } from '../storage/storage.js';
import type { StoredProfile } from '../storage/sql/profiles.js';
import type { GrantRow } from '../storage/sql/tokens.js';
import type { User } from '../storage/sql/users.js';
import type { AccessTokenCodec } from './access-token-codec.js';
import type { BeforeToken, IdTokenSigner } from './id-token.js';
import type { JwtAccessTokens } from './jwt-access-token.js';
import { WardError } from '../errors/ward-error.js';
import type { ResourceLookup } from '../resources/service.js';

export interface TokenResponse {
  access_token: string;
  /** DPoP: the access token is bound to the key of the request's DPoP proof (RFC 9449 5). */
  token_type: 'Bearer' | 'DPoP';
  expires_in: number;
  scope: string;
  id_token?: string;
  refresh_token?: string;
}

export interface IssueInput {
  client: Client;
  user: User | null;
  /** The token family; null for client_credentials (no user: nothing to revoke as a family). */
  grant:
    | (Pick<GrantRow, 'id' | 'auth_time' | 'amr'> & { session_id?: string | null; step_up_action?: string | null })
    | null;
  scopes: string[];
  nonce?: string | null;
  /** Issue a (rotating) refresh token: only when offline_access was granted. */
  refresh: boolean;
  /** A refresh token the caller already stored (a rotation), returned as it is. */
  rotated?: string;
  /** The user's profile when the caller read it with the user (null: none stored); else the ID token reads it. */
  profile?: StoredProfile | null;
  /** The API resource (identifier) the access token is for (RFC 8707); absent or null: Ward's own. */
  resource?: string | null;
  /** The JWK thumbprint of the request's DPoP proof key (RFC 9449): the access token is bound to it. */
  dpopJkt?: string | null;
}

/**
 * Mints the access token (sealed, not stored; or, for an API resource whose format is `jwt`, a signed
 * RFC 9068 token), the refresh token (only its digest is stored) and the id_token of one grant.
 */
export function createTokenIssuer(deps: {
  clock: Clock;
  account: () => AccountSettings;
  signIdToken: IdTokenSigner;
  accessTokens: AccessTokenCodec;
  jwtAccessTokens: JwtAccessTokens;
  resources: ResourceLookup;
  /** The before.token hooks: asked once per issuance, before anything is minted or stored. */
  beforeToken?: BeforeToken;
}) {
  return async function issue(tx: Repos, input: IssueInput): Promise<TokenResponse> {
    const { client, user, grant, scopes } = input;
    const now = deps.clock.now();
    const amr = grant ? (JSON.parse(grant.amr) as string[]) : [];
    const withIdToken = !!user && scopes.includes('openid');
    // A user's tokens only: a client's own token (client_credentials, the management API's clients
    // among them) is never held up by a hook.
    const hookClaims =
      deps.beforeToken && user
        ? await deps.beforeToken({
            client_id: client.client_id,
            user,
            scopes,
            amr,
            tokens: withIdToken ? ['access_token', 'id_token'] : ['access_token'],
          })
        : undefined;
    const resource = input.resource ? await deps.resources.findByIdentifier(input.resource) : null;
    // The resource was removed after the grant named it: its tokens can no longer be made.
    if (resource === undefined)
      throw new WardError('invalidTarget', { description: 'The API resource of this grant no longer exists' });
    const account = deps.account();
    let ttl = resource?.access_token_ttl ?? account.access_token_ttl;
    // A retired signing key stays in /jwks.json for the longest of these lifetimes (registry.ts): a JWT
    // never outlives the key that verifies it.
    if (resource?.token_format === 'jwt') ttl = Math.min(ttl, Math.max(account.id_token_ttl, account.access_token_ttl));
    const claims = {
      grant_id: grant?.id ?? null,
      client_id: client.client_id,
      user_id: user?.id ?? null,
      scope: scopes.join(' '),
      auth_time: grant?.auth_time ?? null,
      amr,
      created_at: now,
      expires_at: now + ttl * 1000,
      step_up_action: grant?.step_up_action ?? null,
      jkt: input.dpopJkt ?? null,
    };
    const { token: accessToken } =
      resource?.token_format === 'jwt'
        ? await deps.jwtAccessTokens.sign({ ...claims, aud: resource.identifier }, hookClaims)
        : deps.accessTokens.seal({ ...claims, aud: resource?.identifier ?? null });
    const out: TokenResponse = {
      access_token: accessToken,
      token_type: claims.jkt !== null ? 'DPoP' : 'Bearer',
      expires_in: ttl,
      scope: scopes.join(' '),
    };
    if (input.refresh && user && grant) {
      const refreshToken = randomToken(32);
      await tx.tokens.insertRefreshToken({
        digest: sha256(refreshToken),
        grant_id: grant.id,
        client_id: client.client_id,
        user_id: user.id,
        scope: scopes.join(' '),
        created_at: now,
        consumed_at: null,
      });
      out.refresh_token = refreshToken;
      // RFC 9449 5: a public client's refresh tokens are bound to its DPoP key (a confidential client's
      // are already bound to it by its authentication); the grant carries the key to every rotation.
      if (claims.jkt !== null && client.type === 'public') await tx.tokens.bindGrantKey(grant.id, claims.jkt);
    } else if (input.rotated) {
      out.refresh_token = input.rotated;
    }
    if (user && withIdToken) {
      out.id_token = await deps.signIdToken({
        hookClaims: hookClaims ?? {},
        client,
        user,
        scopes,
        nonce: input.nonce,
        authTime: grant?.auth_time ?? null,
        amr,
        accessToken,
        sessionId: grant?.session_id ?? null,
        stepUpAction: grant?.step_up_action ?? null,
        repos: tx,
        profile: input.profile,
      });
    }
    return out;
  };
}

export type TokenIssuer = ReturnType<typeof createTokenIssuer>;
