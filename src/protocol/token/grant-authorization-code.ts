// grant_type=authorization_code (RFC 6749 4.1.3). The code is consumed first, by one conditional
// update, so every later check burns it (a failed PKCE check included: no online guessing).
// A second use revokes every token of its grant (RFC 6749 4.1.2, RFC 9700 4.5).
import { invalidClient, invalidGrant } from '../../errors/refusals.js';
import { WardError } from '../../errors/ward-error.js';
import { requiredStr, type Params } from '../params.js';
import { sha256 } from '../../lib/secrets.js';
import type { AuthenticatedClient } from './client-auth.js';
import { pkceMatches } from './pkce.js';
import { checkCodeKey } from '../dpop/code-binding.js';
import type { GrantContext } from './grant-password.js';
import { checkGrantTarget } from '../resource-indicator.js';
import { MESSENGER_BASES, MESSENGER_BINDING } from '../authorize/messenger.js';
import type { SecurityEvents } from '../../audit/events.js';
import type { Clock } from '../../lib/clock.js';
import type { TokenIssuer, TokenResponse } from '../issue-tokens.js';
import type { Storage } from '../../storage/storage.js';

/** The services this module uses (registry.ts builds them; the composition passes them in). */
export interface GrantAuthorizationCodeDeps {
  clock: Clock;
  events: SecurityEvents;
  issueTokens: TokenIssuer;
  storage: Storage;
}

const BAD_CODE =
  'The authorization code is invalid, expired, already used, or was issued to another client or redirect_uri';

/**
 * redirect_uri at the token endpoint (RFC 6749 4.1.3): identical to the one of the request when one
 * was sent; for a Messenger code, the callback base in either spelling (the chatbot does not know
 * the account_linking_token) or the exact URL.
 */
function redirectMatches(bound: string | null, sent: unknown): boolean {
  if (bound === null) return true;
  if (bound.startsWith(MESSENGER_BINDING))
    return (
      typeof sent === 'string' && (MESSENGER_BASES.includes(sent) || sent === bound.slice(MESSENGER_BINDING.length))
    );
  return sent === bound;
}

export async function authorizationCodeGrant(
  r: GrantAuthorizationCodeDeps,
  auth: AuthenticatedClient,
  params: Params,
  context: Pick<GrantContext, 'dpopJkt'> = {},
): Promise<TokenResponse> {
  // A missing parameter is invalid_request (RFC 6749 5.2); a wrong code is invalid_grant.
  const code = requiredStr(params, 'code', 4096);
  const now = r.clock.now();
  const digest = sha256(code);
  if (!auth.authenticated) {
    // Without its secret a confidential client may redeem a Messenger code only; anything else is
    // refused before the code is touched.
    const peek = await r.storage.codes.find(digest);
    if (!peek?.redirect_uri?.startsWith(MESSENGER_BINDING)) throw invalidClient('Client authentication failed');
  }
  const consumed = await r.storage.codes.consume(digest, now);
  if (consumed.state === 'missing') throw invalidGrant(BAD_CODE);
  if (consumed.state === 'reused') {
    await r.storage.tokens.revokeGrant(consumed.row.grant_id, now);
    await r.events.emit(
      'code.reused',
      { client_id: consumed.row.client_id, grant_id: consumed.row.grant_id },
      'authorization code reused: grant revoked',
      'warn',
    );
    throw invalidGrant(BAD_CODE);
  }
  const row = consumed.row;
  const redirectUri = params.redirect_uri ?? null;
  if (row.expires_at <= now || row.client_id !== auth.client.client_id) throw invalidGrant(BAD_CODE);
  if (!redirectMatches(row.redirect_uri, redirectUri)) throw invalidGrant(BAD_CODE);
  await checkCodeKey(r.storage, digest, context.dpopJkt, now, code);
  if (!pkceMatches(row.code_challenge, params.code_verifier)) {
    await r.events.emit('pkce.failed', { client_id: row.client_id }, 'PKCE verification failed: code burned', 'warn');
    throw new WardError('invalidCodeVerifier');
  }
  if (row.code_challenge !== null && consumed.challengeSeen) {
    // A security event, not a refusal (RFC 9700 2.1.1): the client reuses its PKCE pair.
    await r.events.emit(
      'pkce.challenge_reused',
      { client_id: row.client_id },
      'a PKCE code_challenge was used in more than one authorization request',
      'warn',
    );
  }
  // The consume refused a code of a revoked grant. A revocation after it (a concurrent reuse of
  // this code) is not re-checked here: this request won, and its tokens die with the grant.
  // The code carries what the tokens need of its grant; the consume read its user.
  const grant = {
    id: row.grant_id,
    auth_time: row.auth_time,
    amr: row.amr,
    session_id: row.session_id,
    step_up_action: row.step_up_action,
  };
  const user = consumed.user;
  if (!user || user.disabled) throw invalidGrant(BAD_CODE);
  checkGrantTarget(row.resource, params.resource);
  const scopes = row.scope.split(' ').filter(Boolean);
  return r.issueTokens(r.storage, {
    client: auth.client,
    user,
    grant,
    scopes,
    nonce: row.nonce,
    refresh: scopes.includes('offline_access'),
    profile: consumed.profile,
    resource: row.resource,
  });
}
