// Access tokens are sealed by Ward (access-token-codec.ts): only a token Ward sealed opens. A JWT
// (an id_token, a token forged with a client secret, alg=none, an API resource's JWT access token,
// ...) never does: Ward's own APIs accept only the tokens whose audience is Ward.
// A DPoP-bound token (RFC 9449 7) comes as `Authorization: DPoP <token>` with a proof by its key
// (ath its hash); sent as Bearer it is refused. Only a caller that passes the whole request (its
// method, path and DPoP header) accepts the DPoP scheme.
import type { WardError } from '../errors/ward-error.js';
import { invalidToken } from '../errors/refusals.js';
import type { User } from '../storage/sql/users.js';
import type { UserService } from '../accounts/users.js';
import type { ClientService } from '../clients/service.js';
import type { Clock } from '../lib/clock.js';
import type { AccessTokenCodec, AccessTokenClaims } from './access-token-codec.js';
import type { Storage } from '../storage/storage.js';
import { dpopChallenge, proofError, type DpopVerifier } from './dpop/proof.js';

/** The services this module uses (registry.ts builds them; the composition passes them in). */
export interface BearerDeps {
  accessTokens: AccessTokenCodec;
  clients: ClientService;
  clock: Clock;
  storage: Storage;
  users: UserService;
  /** DPoP proofs (RFC 9449): without it, the DPoP scheme is refused. */
  dpop?: DpopVerifier;
}

/** What a resource request presents: its Authorization header, and for DPoP its proof, method and path. */
export interface ResourceRequest {
  authorization: string | undefined;
  dpop: string | string[] | undefined;
  method: string;
  /** The request's path (a query is left out when compared). */
  path: string;
}

/** A request's credentials: the whole request, or only its Authorization header (the Bearer scheme only). */
export type Credentials = string | undefined | ResourceRequest;

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

/** invalid_token, with the challenge of the scheme the token came with (RFC 9449 7.1 for DPoP). */
const refused = (dpop: boolean, description?: string): WardError => {
  const error = invalidToken(description);
  if (dpop) error.headers['WWW-Authenticate'] = dpopChallenge('invalid_token');
  return error;
};

/** A sealed token of an Authorization header, not expired, not revoked, its grant neither; bound to the proof's key. */
async function openLive(
  r: Pick<BearerDeps, 'accessTokens' | 'clock' | 'storage' | 'dpop'>,
  credentials: Credentials,
): Promise<AccessTokenClaims> {
  const request = typeof credentials === 'object' ? credentials : undefined;
  const authorization = typeof credentials === 'object' ? credentials.authorization : credentials;
  if (typeof authorization !== 'string') throw noCredentials();
  const scheme = /^(Bearer|DPoP)(\s|$)/i.exec(authorization.trim());
  if (!scheme) throw noCredentials();
  const dpop = scheme[1]!.toLowerCase() === 'dpop';
  const m = /^(?:Bearer|DPoP) ([A-Za-z0-9\-._~+/]+=*)$/i.exec(authorization.trim());
  if (!m || m[1]!.length > 4096) throw refused(dpop);
  const token = m[1]!;
  const claims = r.accessTokens.open(token);
  if (!claims || claims.expires_at <= r.clock.now()) throw refused(dpop);
  // A token for an API resource (RFC 8707) is that API's, not Ward's: userinfo, the identity and the
  // management APIs refuse it (its audience is not theirs).
  if (claims.aud !== null) throw refused(dpop, 'The access token is for another audience');
  if (dpop) {
    if (claims.jkt === null) throw refused(true);
    if (!request || !r.dpop) throw refused(true);
    const proof = { header: request.dpop, method: request.method, path: request.path, accessToken: token };
    const { jkt } = await r.dpop.verify(proof, 'resource');
    if (jkt !== claims.jkt)
      throw proofError('resource', 'The DPoP proof is signed by another key than the token is bound to');
  } else if (claims.jkt !== null) {
    // RFC 9449 7.2: a DPoP-bound token is never accepted as a bearer token. The body is the same as
    // for any refused token; the challenge tells the client to use the DPoP scheme.
    throw refused(true);
  }
  if (await r.storage.tokens.accessTokenRevoked(claims.jti, claims.grant_id)) throw refused(dpop);
  return claims;
}

/**
 * The live access token of an Authorization header (not expired, not revoked, its grant neither; a
 * client_credentials token not older than its client's last secret or scope change).
 */
export async function liveAccessToken(
  r: Pick<BearerDeps, 'accessTokens' | 'clients' | 'clock' | 'storage' | 'dpop'>,
  credentials: Credentials,
): Promise<AccessTokenClaims> {
  const claims = await openLive(r, credentials);
  if (!(await clientTokenCurrent(r, claims))) throw invalidToken();
  return claims;
}

/** A user's access token (identity API): live, with a user who is not disabled. */
export async function verifyBearer(
  r: Pick<BearerDeps, 'accessTokens' | 'clock' | 'storage' | 'users' | 'dpop'>,
  credentials: Credentials,
): Promise<BearerContext> {
  // A client_credentials token (no user, no grant) is refused below, whatever its client.
  const row = await openLive(r, credentials);
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
