// Token introspection (RFC 7662), of both access token formats: the sealed (opaque) ones and the JWT
// access tokens of API resources (RFC 9068), whose `aud` is then the resource. The caller is an authenticated client (a confidential client or a
// resource server; a public client cannot authenticate, so it cannot introspect). Who sees what:
// - an access token: the client it was issued to, and any resource server (the APIs that accept
//   this Ward's tokens);
// - a refresh token: only the client that holds it (a resource server never receives one, so it has
//   no business reading one; RFC 7662 4 leaves the choice to the server).
// Anything else (expired, revoked, a client_credentials token older than its client's last secret or
// scope change, of a revoked grant or a disabled user, another client's, rotated,
// garbage) is exactly {"active": false} (RFC 7662 2.2), so the answer tells nothing about why.
import { sha256 } from '../lib/secrets.js';
import { clientTokenCurrent } from './bearer.js';
import type { User } from '../storage/sql/users.js';
import type { UserService } from '../accounts/users.js';
import type { ClientService, Client } from '../clients/service.js';
import type { WardConfig } from '../config/types.js';
import type { Clock } from '../lib/clock.js';
import type { AccessTokenClaims, AccessTokenCodec } from './access-token-codec.js';
import type { JwtAccessTokens } from './jwt-access-token.js';
import type { Storage } from '../storage/storage.js';

/** The services this module uses (registry.ts builds them; the composition passes them in). */
interface Deps {
  accessTokens: AccessTokenCodec;
  clients: ClientService;
  clock: Clock;
  config: WardConfig;
  jwtAccessTokens: JwtAccessTokens;
  storage: Storage;
  users: UserService;
}

export type Introspection =
  | { active: false }
  | {
      active: true;
      scope: string;
      client_id: string;
      /** DPoP for a DPoP-bound access token (RFC 9449 6.2), with its key in cnf.jkt. */
      token_type?: 'Bearer' | 'DPoP';
      cnf?: { jkt: string };
      exp: number;
      iat: number;
      iss: string;
      /** The API resource the token is for (RFC 8707), else the client it was issued to. */
      aud: string;
      /** The access token's id (the jti of a JWT access token). */
      jti?: string;
      sub?: string;
      username?: string;
      auth_time?: number;
      /** The action of the step-up the grant was signed in with (docs/mfa.md#step-up-actions). */
      step_up_action?: string;
    };

const INACTIVE = { active: false } as const;
/** Longer than any token Ward issues: not even looked up. */
const MAX_TOKEN = 4096;
const seconds = (ms: number) => Math.floor(ms / 1000);

/** The user's part of an answer: sub, and username when the account has an email or a phone number. */
function subject(user: User): { sub: string; username?: string } {
  const username = user.email ?? user.phone_number;
  return username ? { sub: user.id, username } : { sub: user.id };
}

/** The claims of an access token of either format, or null when the token is neither. */
export async function openAccessToken(
  r: Pick<Deps, 'accessTokens' | 'jwtAccessTokens'>,
  token: string,
): Promise<AccessTokenClaims | null> {
  return r.accessTokens.open(token) ?? (await r.jwtAccessTokens.verify(token));
}

async function accessToken(r: Deps, caller: Client, token: string): Promise<Introspection | null> {
  const claims = await openAccessToken(r, token);
  if (!claims) return null;
  if (caller.type !== 'resource_server' && caller.client_id !== claims.client_id) return INACTIVE;
  if (claims.expires_at <= r.clock.now()) return INACTIVE;
  if (!(await clientTokenCurrent(r, claims))) return INACTIVE;
  if (await r.storage.tokens.accessTokenRevoked(claims.jti, claims.grant_id)) return INACTIVE;
  let user: User | undefined;
  if (claims.user_id) {
    user = await r.users.find(claims.user_id);
    if (!user || user.disabled) return INACTIVE;
  }
  return {
    active: true,
    scope: claims.scope,
    client_id: claims.client_id,
    token_type: claims.jkt !== null ? 'DPoP' : 'Bearer',
    ...(claims.jkt !== null ? { cnf: { jkt: claims.jkt } } : {}),
    exp: seconds(claims.expires_at),
    iat: seconds(claims.created_at),
    iss: r.config.issuer,
    aud: claims.aud ?? claims.client_id,
    ...(claims.aud !== null ? { jti: claims.jti } : {}),
    ...(user ? subject(user) : {}),
    ...(claims.auth_time !== null ? { auth_time: seconds(claims.auth_time) } : {}),
    ...(claims.step_up_action !== null ? { step_up_action: claims.step_up_action } : {}),
  };
}

async function refreshToken(r: Deps, caller: Client, token: string): Promise<Introspection> {
  const row = await r.storage.tokens.findRefreshTokenWithGrant(sha256(token));
  if (!row || row.client_id !== caller.client_id) return INACTIVE;
  // A rotated (used) refresh token is no longer one: presenting it would revoke its family.
  if (row.consumed_at !== null || row.grant_revoked_at !== null) return INACTIVE;
  if (row.grant_expires_at === null || row.grant_expires_at <= r.clock.now()) return INACTIVE;
  if (!row.user || row.user.disabled) return INACTIVE;
  return {
    active: true,
    scope: row.scope,
    client_id: row.client_id,
    exp: seconds(row.grant_expires_at),
    iat: seconds(row.created_at),
    iss: r.config.issuer,
    aud: row.client_id,
    ...subject(row.user),
    ...(row.grant_auth_time !== null ? { auth_time: seconds(row.grant_auth_time) } : {}),
    ...(row.grant_step_up_action !== null ? { step_up_action: row.grant_step_up_action } : {}),
  };
}

/**
 * The introspection answer for a token presented by an authenticated client. token_type_hint is
 * only a hint (RFC 7662 2.1): a sealed access token is told from a refresh token by its form.
 */
export async function introspect(r: Deps, caller: Client, token: string): Promise<Introspection> {
  if (token.length > MAX_TOKEN) return INACTIVE;
  return (await accessToken(r, caller, token)) ?? refreshToken(r, caller, token);
}
