// Access tokens are sealed by Ward (access-token-codec.ts): only a token Ward sealed opens. A JWT
// (an id_token, a token forged with a client secret, alg=none, an API resource's JWT access token,
// ...) never does: Ward's own APIs accept only the tokens whose audience is Ward.
import type { WardError } from '../errors/ward-error.js';
import { invalidToken } from '../errors/refusals.js';
import type { User } from '../storage/sql/users.js';
import type { UserService } from '../accounts/users.js';
import type { ClientService } from '../clients/service.js';
import type { Clock } from '../lib/clock.js';
import type { AccessTokenCodec, AccessTokenClaims } from './access-token-codec.js';
import type { Storage } from '../storage/storage.js';

/** The services this module uses (registry.ts builds them; the composition passes them in). */
export interface BearerDeps {
  accessTokens: AccessTokenCodec;
  clients: ClientService;
  clock: Clock;
  storage: Storage;
  users: UserService;
}

export interface BearerContext {
  user: User;
  /** The grant (token family) the access token belongs to. */
  grantId: string;
  clientId: string;
  scopes: string[];
  amr: string[];
  authTime: number | null;
  issuedAt: number;
}

/**
 * RFC 6750 3.1: a request without Bearer credentials (no Authorization header, another scheme, a
 * token in the query) gets a challenge without an error code; the body is the same 401.
 */
const noCredentials = (): WardError => invalidToken(undefined, false);

/**
 * Whether a client_credentials token (no user, no grant: nothing in the store to revoke) is still
 * one of its client's: the client exists and the token was issued at or after its tokens_not_before
 * (set when the client is created, its secret or its scopes change). Other tokens: true.
 */
export async function clientTokenCurrent(r: Pick<BearerDeps, 'clients'>, claims: AccessTokenClaims): Promise<boolean> {
  if (claims.grant_id !== null || claims.user_id !== null) return true;
  const client = await r.clients.find(claims.client_id);
  return client !== undefined && claims.created_at >= client.tokens_not_before;
}

/** A sealed token of an Authorization header, not expired, not revoked, its grant neither. */
async function openLive(
  r: Pick<BearerDeps, 'accessTokens' | 'clock' | 'storage'>,
  authorization: string | undefined,
): Promise<AccessTokenClaims> {
  if (typeof authorization !== 'string' || !/^Bearer(\s|$)/i.test(authorization.trim())) throw noCredentials();
  const m = /^Bearer ([A-Za-z0-9\-._~+/]+=*)$/i.exec(authorization.trim());
  if (!m || m[1]!.length > 4096) throw invalidToken();
  const claims = r.accessTokens.open(m[1]!);
  if (!claims || claims.expires_at <= r.clock.now()) throw invalidToken();
  // A token for an API resource (RFC 8707) is that API's, not Ward's: userinfo, the identity and the
  // management APIs refuse it (its audience is not theirs).
  if (claims.aud !== null) throw invalidToken('The access token is for another audience');
  if (await r.storage.tokens.accessTokenRevoked(claims.jti, claims.grant_id)) throw invalidToken();
  return claims;
}

/**
 * The live access token of an Authorization header (not expired, not revoked, its grant neither; a
 * client_credentials token not older than its client's last secret or scope change).
 */
export async function liveAccessToken(
  r: Pick<BearerDeps, 'accessTokens' | 'clients' | 'clock' | 'storage'>,
  authorization: string | undefined,
): Promise<AccessTokenClaims> {
  const claims = await openLive(r, authorization);
  if (!(await clientTokenCurrent(r, claims))) throw invalidToken();
  return claims;
}

/** A user's access token (identity API): live, with a user who is not disabled. */
export async function verifyBearer(
  r: Pick<BearerDeps, 'accessTokens' | 'clock' | 'storage' | 'users'>,
  authorization: string | undefined,
): Promise<BearerContext> {
  // A client_credentials token (no user, no grant) is refused below, whatever its client.
  const row = await openLive(r, authorization);
  if (!row.user_id || !row.grant_id) throw invalidToken();
  const user = await r.users.find(row.user_id);
  if (!user || user.disabled) throw invalidToken();
  return {
    user,
    grantId: row.grant_id,
    clientId: row.client_id,
    scopes: row.scope.split(' ').filter(Boolean),
    amr: row.amr,
    authTime: row.auth_time,
    issuedAt: row.created_at,
  };
}
