// grant_type=password (RFC 6749 4.3), opt-in per client: the Core SDK's loginWithCredentials and its
// Cordova mode. The same rules as password sign-in: the credentials are checked by the accounts
// service (an unknown user and a wrong password get the same answer and cost the same time), the
// login rate limit is counted by the route, and a user who must use a second factor (MFA required =
// Always, a verified factor, no trusted device) gets mfa_required and no token: the second factor is
// only asked through the authorization endpoint.
import type { LanguageFor } from '../../texts/choose-language.js';
import { invalidScope } from '../../errors/refusals.js';
import { WardError } from '../../errors/ward-error.js';
import { randomId } from '../../lib/random.js';
import { signInAudit } from '../../sign-in-methods/audit.js';
import { passwordFirstFactor } from '../../sign-in-methods/password/first-factor.js';
import { anyIdentifier } from '../../accounts/sign-in-identifiers.js';
import type { User } from '../../storage/sql/users.js';
import { requiredStr, type Params } from '../params.js';
import { parseScope, unknownScopes } from '../scopes.js';
import type { AuthenticatedClient } from './client-auth.js';
import type { UserService } from '../../accounts/users.js';
import type { SecurityEvents } from '../../audit/events.js';
import type { AccountSettings } from '../../config/types.js';
import type { Clock } from '../../lib/clock.js';
import type { TokenIssuer, TokenResponse } from '../issue-tokens.js';
import type { BeforeLogin } from '../tkn.js';
import type { Storage } from '../../storage/storage.js';
import type { ProofInput } from '../dpop/proof.js';

/** The services this module uses (registry.ts builds them; the composition passes them in). */
export interface GrantPasswordDeps {
  account: () => AccountSettings;
  clock: Clock;
  events: SecurityEvents;
  issueTokens: TokenIssuer;
  storage: Storage;
  users: UserService;
  /** The before.login hooks, asked once the password is right, before a second factor or the tokens. */
  beforeLogin?: BeforeLogin;
  /** A sign-in cancels a deletion of the account waiting for its grace period, as the other sign-ins do. */
  accountDeletion: { cancel(userId: string): Promise<unknown> };
}

/** How the audit tells this path from the other password sign-ins. */
const GRANT = { grant_type: 'password' };

/** What the request brought besides its parameters. */
export interface GrantContext {
  /** Whether this first factor owes a second one (next-step's rule, with the request's trusted-device cookie). */
  secondFactorOwed(who: { user: User; amr: string[] }): Promise<boolean>;
  /** Whether the user must set up a second factor first (mfa_enrollment: required; no page here). */
  enrolmentOwed?(userId: string): Promise<boolean>;
  /** Whether the user must accept consents again first (a new version's require_reconsent; no page here). */
  reconsentOwed?(userId: string): Promise<boolean>;
  /** The caller's address, for the audit events. */
  ip?: string;
  /** The request's language rule, for a lockout notice this attempt may send. */
  language?: LanguageFor;
  /** The request's DPoP proof (RFC 9449), when it sent a DPoP header. */
  dpop?: ProofInput;
  /** The JWK thumbprint of that proof's key, once verified; null: no proof. */
  dpopJkt?: string | null;
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
  // The password grant (the Core SDK's) issues tokens for Ward's own APIs only: a resource is not silently dropped.
  if (params.resource !== undefined && params.resource !== null && params.resource !== '')
    throw new WardError('invalidTarget', { description: 'resource is not supported with the password grant' });
  const asked = parseScope(params.scope);
  if (asked === null) throw invalidScope('scope must be a space-separated string');
  const unknown = unknownScopes(asked);
  if (unknown.length) throw invalidScope(`Unknown scope: ${unknown.join(' ')}`);
  const audit = signInAudit(r.events);
  const attempt = { method: 'password' as const, clientId: client.client_id, ip: context.ip, detail: GRANT };
  // The username is an email address or a phone number, as at POST /identity/v1/password/login.
  const user = await passwordFirstFactor(
    { users: r.users, audit },
    { ...attempt, identifier: anyIdentifier(username), password, language: context.language },
  );
  if (!user) throw new WardError('invalidEmailOrPassword');
  const amr = ['pwd'];
  await r.beforeLogin?.({ userId: user.id, clientId: client.client_id, amr, method: 'password' });
  if (await context.secondFactorOwed({ user, amr })) {
    await audit.mfaRequired({ ...attempt, userId: user.id, amr });
    throw new WardError('mfaRequired');
  }
  if (await context.enrolmentOwed?.(user.id)) {
    await audit.mfaRequired({ ...attempt, userId: user.id, amr });
    throw new WardError('mfaEnrollmentRequired', { description: 'Set up a second factor through the hosted pages' });
  }
  if (await context.reconsentOwed?.(user.id)) {
    const detail = { user_id: user.id, client_id: client.client_id, where: 'password_grant' };
    await r.events.emit('user.reconsent_refused', detail, 'consents to renew, no page');
    throw new WardError('authorizeReconsentRequired', {
      description: 'The user must accept updated consents on the hosted pages',
    });
  }
  await audit.succeeded({ ...attempt, userId: user.id, amr });
  // Signing in again cancels a deletion of the account waiting for its grace period (self-service/account-deletion.ts).
  await r.accountDeletion.cancel(user.id);
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
    amr: JSON.stringify(amr),
    created_at: now,
    expires_at: now + r.account().refresh_token_ttl * 1000,
    revoked_at: null,
    // The password grant names no resource: its tokens are for Ward's own APIs.
    resource: null,
    step_up_action: null,
  };
  // As at the token endpoint's other grants, the grant is stored first and the tokens issued outside a
  // transaction: the before.token hooks are HTTP calls, never made while a transaction holds the database.
  await r.storage.tokens.createGrant(grant);
  return r.issueTokens(r.storage, { client, user, grant, scopes, refresh: scopes.includes('offline_access') });
}
