// grant_type=password (RFC 6749 4.3), opt-in per client: the Core SDK's loginWithCredentials and its
// Cordova mode. The same rules as password sign-in: the credentials are checked by the accounts
// service (an unknown user and a wrong password get the same answer and cost the same time), the
// login rate limit is counted by the route, and a user who must use a second factor (MFA required =
// Always, a verified factor, no trusted device) gets mfa_required and no token: the second factor is
// only asked through the authorization endpoint.
import { invalidScope } from '../../errors/refusals.js';
import { WardError } from '../../errors/ward-error.js';
import { randomId } from '../../lib/random.js';
import { stepUpRequiredAtLogin } from '../../stepup/factors.js';
import { requiredStr, type Params } from '../params.js';
import { parseScope, unknownScopes } from '../scopes.js';
import type { AuthenticatedClient } from './client-auth.js';
import type { UserService } from '../../accounts/users.js';
import type { SecurityEvents } from '../../audit/events.js';
import type { AccountSettings } from '../../config/types.js';
import type { Clock } from '../../lib/clock.js';
import type { TokenIssuer, TokenResponse } from '../issue-tokens.js';
import type { Storage } from '../../storage/storage.js';

/** The services this module uses (registry.ts builds them; the composition passes them in). */
export interface GrantPasswordDeps {
  account: () => AccountSettings;
  clock: Clock;
  events: SecurityEvents;
  issueTokens: TokenIssuer;
  storage: Storage;
  users: UserService;
}

/** What the request brought besides its parameters. */
export interface GrantContext {
  /** Whether the request carries a live trusted-device cookie of this user. */
  trustedDevice(userId: string): Promise<boolean>;
}

export async function passwordGrant(
  r: GrantPasswordDeps,
  auth: AuthenticatedClient,
  params: Params,
  context: GrantContext,
): Promise<TokenResponse> {
  const { client } = auth;
  const username = requiredStr(params, 'username', 320);
  const password = requiredStr(params, 'password', 1024);
  const asked = parseScope(params.scope);
  if (asked === null) throw invalidScope('scope must be a space-separated string');
  const unknown = unknownScopes(asked);
  if (unknown.length) throw invalidScope(`Unknown scope: ${unknown.join(' ')}`);
  // The username is an email address or a phone number, as at POST /identity/v1/password/login.
  const user = await r.users.authenticate({ email: username, phone_number: username }, password);
  if (!user) {
    await r.events.emit('login.failed', { client_id: client.client_id }, 'password grant: login failed');
    throw new WardError('invalidEmailOrPassword');
  }
  if ((await stepUpRequiredAtLogin(r.storage, r.account(), user.id)) && !(await context.trustedDevice(user.id))) {
    await r.events.emit(
      'login.mfa_required',
      { client_id: client.client_id, user_id: user.id },
      'password grant refused: a second factor is required',
    );
    throw new WardError('mfaRequired');
  }
  const now = r.clock.now();
  // As at the authorization endpoint, the scope is what was asked (the Core SDK adds the client's default).
  const scopes = asked;
  const grant = {
    id: randomId(),
    user_id: user.id,
    client_id: client.client_id,
    session_id: null,
    scope: scopes.join(' '),
    auth_time: now,
    amr: JSON.stringify(['pwd']),
    created_at: now,
    expires_at: now + r.account().refresh_token_ttl * 1000,
    revoked_at: null,
  };
  return r.storage.transaction(async (tx) => {
    await tx.tokens.createGrant(grant);
    return r.issueTokens(tx, { client, user, grant, scopes, refresh: scopes.includes('offline_access') });
  });
}
