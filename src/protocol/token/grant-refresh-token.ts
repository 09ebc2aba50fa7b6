// grant_type=refresh_token (RFC 6749 section 6) with rotation: each use returns a new refresh
// token; presenting a used one revokes the whole family (RFC 9700 4.14.2). Bound to its client;
// the scope may only narrow.
import { invalidGrant, invalidScope } from '../../errors/refusals.js';
import { WardError } from '../../errors/ward-error.js';
import type { GrantContext } from './grant-password.js';
import { requiredStr, type Params } from '../params.js';
import { randomToken } from '../../lib/random.js';
import { sha256 } from '../../lib/secrets.js';
import { parseScope } from '../scopes.js';
import { checkGrantTarget } from '../resource-indicator.js';
import type { AuthenticatedClient } from './client-auth.js';
import type { SecurityEvents } from '../../audit/events.js';
import type { Clock } from '../../lib/clock.js';
import type { TokenIssuer, TokenResponse } from '../issue-tokens.js';
import type { Storage } from '../../storage/storage.js';

/** The services this module uses (registry.ts builds them; the composition passes them in). */
export interface GrantRefreshTokenDeps {
  clock: Clock;
  events: SecurityEvents;
  issueTokens: TokenIssuer;
  storage: Storage;
}

const BAD_TOKEN = 'The refresh token is invalid, expired, revoked or was issued to another client';

/** A used refresh token presented again (RFC 9700 4.14.2): the whole family is revoked. */
async function reused(
  r: Pick<GrantRefreshTokenDeps, 'events' | 'storage'>,
  clientId: string,
  grantId: string,
  now: number,
): Promise<never> {
  await r.storage.tokens.revokeGrant(grantId, now);
  await r.events.emit(
    'refresh_token.reused',
    { client_id: clientId, grant_id: grantId },
    'refresh token reused: family revoked',
    'warn',
  );
  throw invalidGrant(BAD_TOKEN);
}

export async function refreshTokenGrant(
  r: GrantRefreshTokenDeps,
  auth: AuthenticatedClient,
  params: Params,
  context?: Pick<GrantContext, 'dpopJkt'>,
): Promise<TokenResponse> {
  const token = requiredStr(params, 'refresh_token', 4096);
  const now = r.clock.now();
  const digest = sha256(token);
  const asked = parseScope(params.scope);
  // The successor, stored by the rotation. The successor keeps the grant's scope even when this access
  // token's is narrowed (RFC 6749 6).
  const refreshToken = randomToken(32);
  // Nothing asked beyond the token itself: the store checks the rest and rotates in the same call (one
  // statement on PostgreSQL). A narrowed scope or a resource is checked here first, then rotated.
  const atOnce = asked !== null && asked.length === 0 && params.resource === undefined;
  const used = atOnce
    ? await r.storage.tokens.useRefreshToken(digest, {
        clientId: auth.client.client_id,
        now,
        jkt: context?.dpopJkt ?? null,
        nextDigest: sha256(refreshToken),
      })
    : { row: await r.storage.tokens.findRefreshTokenWithGrant(digest), rotated: false };
  const row = used.row;
  if (!row || row.client_id !== auth.client.client_id) throw invalidGrant(BAD_TOKEN);
  if (row.grant_expires_at === null || row.grant_revoked_at !== null || row.grant_expires_at <= now)
    throw invalidGrant(BAD_TOKEN);
  const granted = row.scope.split(' ').filter(Boolean);
  if (asked === null) throw invalidScope('scope must be a string or an array of strings');
  const wider = asked.filter((s) => !granted.includes(s));
  if (wider.length) throw invalidScope(`The refresh token was not granted: ${wider.join(' ')}`);
  if (!row.user || row.user.disabled) throw invalidGrant(BAD_TOKEN);
  // The audience stays the grant's (RFC 8707): a resource parameter may only repeat it.
  checkGrantTarget(row.grant_resource, params.resource);
  // RFC 9449 5: a refresh token bound to a DPoP key (a public client's) needs a proof by that key.
  // Checked before the rotation: a refused attempt leaves the token usable by its holder.
  if (row.grant_dpop_jkt !== null) {
    if (!context?.dpopJkt)
      throw new WardError('dpopInvalidProof', {
        description: 'This refresh token is bound to a DPoP key: the request needs a DPoP proof by that key',
      });
    if (context.dpopJkt !== row.grant_dpop_jkt) throw invalidGrant('The refresh token is bound to another DPoP key');
  }
  // Of concurrent uses of one token exactly one wins; the others, and a used token, are reuse.
  const rotated =
    used.rotated ||
    (!atOnce &&
      (await r.storage.tokens.rotateRefreshToken(digest, now, {
        digest: sha256(refreshToken),
        grant_id: row.grant_id,
        client_id: row.client_id,
        user_id: row.user_id,
        scope: granted.join(' '),
        created_at: now,
        consumed_at: null,
      })));
  if (!rotated) return reused(r, row.client_id, row.grant_id, now);
  const scopes = asked.length ? asked : granted;
  const grant = {
    id: row.grant_id,
    auth_time: row.grant_auth_time,
    amr: row.grant_amr ?? '[]',
    session_id: row.grant_session_id,
    step_up_action: row.grant_step_up_action,
  };
  return r.issueTokens(r.storage, {
    client: auth.client,
    user: row.user,
    grant,
    scopes,
    refresh: false,
    rotated: refreshToken,
    profile: row.profile,
    resource: row.grant_resource,
  });
}
