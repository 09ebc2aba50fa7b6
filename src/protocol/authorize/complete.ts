import { randomId, randomToken } from '../../lib/random.js';
import { sha256 } from '../../lib/secrets.js';
import { bindCode, codeValue } from '../dpop/code-binding.js';
import type { User } from '../../storage/sql/users.js';
import type { AuthorizeRequest } from './request.js';
import type { AccountSettings } from '../../config/types.js';
import type { Clock } from '../../lib/clock.js';
import type { IdTokenSigner } from '../id-token.js';
import type { TokenIssuer } from '../issue-tokens.js';
import type { Storage } from '../../storage/storage.js';

/** The services this module uses (registry.ts builds them; the composition passes them in). */
export interface CompleteDeps {
  account: () => AccountSettings;
  clock: Clock;
  issueTokens: TokenIssuer;
  signIdToken: IdTokenSigner;
  storage: Storage;
}

export interface Authenticated {
  user: User;
  sessionId: string | null;
  authTime: number;
  amr: string[];
  /** The action a step-up named (`/identity/v1/mfa/stepup`'s `action`), carried into every token of the grant. */
  stepUpAction?: string | null;
}

/**
 * The response values of an authorization: `{code}`, the implicit tokens, or OpenID Connect's
 * `{id_token}` and `{code, id_token}` (the ID token then carries the nonce, and c_hash binds the code:
 * OIDC Core 3.3.2.11).
 */
export async function issueAuthorization(
  r: CompleteDeps,
  req: AuthorizeRequest,
  auth: Authenticated,
): Promise<Record<string, string | number | undefined>> {
  const now = r.clock.now();
  const account = r.account();
  const grant = {
    id: randomId(),
    user_id: auth.user.id,
    client_id: req.client.client_id,
    session_id: auth.sessionId,
    scope: req.scopes.join(' '),
    auth_time: auth.authTime,
    amr: JSON.stringify(auth.amr),
    created_at: now,
    expires_at: now + account.refresh_token_ttl * 1000,
    revoked_at: null,
    resource: req.resource ?? null,
    step_up_action: auth.stepUpAction ?? null,
  };
  const idToken = (code?: string) =>
    r.signIdToken({
      client: req.client,
      user: auth.user,
      scopes: req.scopes,
      nonce: req.nonce,
      authTime: auth.authTime,
      amr: auth.amr,
      code,
      sessionId: auth.sessionId,
      stepUpAction: grant.step_up_action,
    });
  // A device's sign-in (RFC 8628): the approval names its grant; the device's poll gets the tokens.
  if (req.device) {
    const approved = await r.storage.deviceAuthorizations.approve(req.device, grant, now);
    return { device: approved ? 'approved' : 'expired' };
  }
  // No access token goes with it, so the ID token carries the claims its scopes release (OIDC Core 5.4).
  if (req.responseType === 'id_token') {
    // No grant holds tokens here; one is recorded only so that Back-Channel Logout knows this client
    // had the session.
    if (auth.sessionId && req.client.backchannel_logout_uri) await r.storage.tokens.createGrant(grant);
    return { id_token: await idToken() };
  }
  if (req.responseType === 'code' || req.responseType === 'messenger_code' || req.responseType === 'code id_token') {
    const code = codeValue(randomToken(32), !!req.dpopJkt);
    // A Messenger code lives at most 5 minutes, like the account_linking_token it answers.
    const ttl =
      req.responseType === 'messenger_code'
        ? Math.min(account.authorization_code_ttl, 300)
        : account.authorization_code_ttl;
    const expiresAt = now + ttl * 1000;
    // Bound first (RFC 9449 10): the code never exists without its key.
    if (req.dpopJkt)
      await bindCode(r.storage, {
        codeDigest: sha256(code),
        clientId: req.client.client_id,
        jkt: req.dpopJkt,
        expiresAt,
        now,
      });
    await r.storage.codes.insertWithGrant(grant, {
      code_digest: sha256(code),
      client_id: req.client.client_id,
      user_id: auth.user.id,
      session_id: auth.sessionId,
      redirect_uri: req.redirectUri,
      scope: grant.scope,
      nonce: req.nonce ?? null,
      code_challenge: req.codeChallenge ?? null,
      auth_time: auth.authTime,
      amr: grant.amr,
      grant_id: grant.id,
      expires_at: expiresAt,
      consumed_at: null,
      created_at: now,
      resource: grant.resource,
      step_up_action: grant.step_up_action,
    });
    return req.responseType === 'code id_token' ? { code, id_token: await idToken(code) } : { code };
  }
  await r.storage.tokens.createGrant(grant);
  const tokens = await r.issueTokens(r.storage, {
    client: req.client,
    user: auth.user,
    grant,
    scopes: req.scopes,
    nonce: req.nonce,
    refresh: false,
    resource: grant.resource,
  });
  return {
    access_token: tokens.access_token,
    token_type: tokens.token_type,
    expires_in: tokens.expires_in,
    scope: tokens.scope,
    id_token: tokens.id_token,
  };
}
