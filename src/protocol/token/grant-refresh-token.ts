// grant_type=refresh_token (RFC 6749 section 6) with rotation: each use returns a new refresh
// token; presenting a used one revokes the whole family (RFC 9700 4.14.2). Bound to its client;
// the scope may only narrow.
import { invalidGrant, invalidScope } from '../../errors/api-error.js';
import { requiredStr, type Params } from '../../http/params.js';
import { sha256 } from '../../lib/secrets.js';
import type { Registry } from '../../registry.js';
import type { TokenResponse } from '../issue-tokens.js';
import { parseScope } from '../scopes.js';
import type { AuthenticatedClient } from './client-auth.js';

const BAD_TOKEN = 'The refresh token is invalid, expired, revoked or was issued to another client';

export async function refreshTokenGrant(r: Registry, auth: AuthenticatedClient, params: Params): Promise<TokenResponse> {
  const token = requiredStr(params, 'refresh_token', 200);
  const now = r.clock.now();
  const digest = sha256(token);
  const row = await r.storage.tokens.findRefreshToken(digest);
  if (!row || row.client_id !== auth.client.client_id) throw invalidGrant(BAD_TOKEN);
  const grant = await r.storage.tokens.findGrant(row.grant_id);
  if (!grant || grant.revoked_at !== null || grant.expires_at <= now) throw invalidGrant(BAD_TOKEN);
  const granted = row.scope.split(' ').filter(Boolean);
  const asked = parseScope(params.scope);
  if (asked === null) throw invalidScope('scope must be a string or an array of strings');
  const wider = asked.filter((s) => !granted.includes(s));
  if (wider.length) throw invalidScope(`The refresh token was not granted: ${wider.join(' ')}`);
  const consumed = await r.storage.tokens.consumeRefreshToken(digest, now);
  if (consumed.state !== 'ok') {
    await r.storage.tokens.revokeGrant(row.grant_id, now);
    await r.events.emit('refresh_token.reused', { client_id: row.client_id, grant_id: row.grant_id }, 'refresh token reused: family revoked', 'warn');
    throw invalidGrant(BAD_TOKEN);
  }
  const user = await r.users.find(row.user_id);
  if (!user || user.disabled) throw invalidGrant(BAD_TOKEN);
  const scopes = asked.length ? asked : granted;
  return r.issueTokens(r.storage, { client: auth.client, user, grant, scopes, refresh: true, refreshScopes: granted });
}
