// grant_type=authorization_code (RFC 6749 4.1.3). The code is consumed first, by one conditional
// update, so every later check burns it (a failed PKCE check included: no online guessing).
// A second use revokes every token of its grant (RFC 6749 4.1.2, RFC 9700 4.5).
import { invalidGrant } from '../../errors/api-error.js';
import { str, type Params } from '../../http/params.js';
import { sha256 } from '../../lib/secrets.js';
import type { Registry } from '../../registry.js';
import type { TokenResponse } from '../issue-tokens.js';
import type { AuthenticatedClient } from './client-auth.js';
import { pkceMatches } from './pkce.js';

const BAD_CODE = 'The authorization code is invalid, expired, already used, or was issued to another client or redirect_uri';

export async function authorizationCodeGrant(r: Registry, auth: AuthenticatedClient, params: Params): Promise<TokenResponse> {
  const code = str(params, 'code', 200);
  if (!code) throw invalidGrant('code is required');
  const now = r.clock.now();
  const consumed = await r.storage.codes.consume(sha256(code), now);
  if (consumed.state === 'missing') throw invalidGrant(BAD_CODE);
  if (consumed.state === 'reused') {
    await r.storage.tokens.revokeGrant(consumed.row.grant_id, now);
    r.log.warn({ event: 'code.reused', client_id: consumed.row.client_id, grant_id: consumed.row.grant_id }, 'authorization code reused: grant revoked');
    throw invalidGrant(BAD_CODE);
  }
  const row = consumed.row;
  const redirectUri = params.redirect_uri ?? null;
  if (row.expires_at <= now || row.client_id !== auth.client.client_id) throw invalidGrant(BAD_CODE);
  if (row.redirect_uri !== null && redirectUri !== row.redirect_uri) throw invalidGrant(BAD_CODE);
  if (!pkceMatches(row.code_challenge, params.code_verifier)) {
    r.log.warn({ event: 'pkce.failed', client_id: row.client_id }, 'PKCE verification failed: code burned');
    throw invalidGrant('PKCE verification failed', 'error.invalidCodeVerifier');
  }
  const grant = await r.storage.tokens.findGrant(row.grant_id);
  const user = await r.users.find(row.user_id);
  if (!grant || grant.revoked_at !== null || !user || user.disabled) throw invalidGrant(BAD_CODE);
  const scopes = row.scope.split(' ').filter(Boolean);
  return r.issueTokens(r.storage, { client: auth.client, user, grant, scopes, nonce: row.nonce, refresh: scopes.includes('offline_access') });
}
