import type { WardApp } from '../../http/typed-app.js';
import type { ResourceLookup } from '../../resources/service.js';
import { isSystemClient } from '../../clients/system.js';
import { WardError } from '../../errors/ward-error.js';
import { requireSingle } from '../../protocol/params.js';
import { LITE_PROFILE } from '../../accounts/lite-profiles.js';
import type { UserService } from '../../accounts/users.js';
import type { SecurityEvents } from '../../audit/events.js';
import type { ClientService } from '../../clients/service.js';
import type { AccountSettings, WardConfig } from '../../config/types.js';
import type { Clock } from '../../lib/clock.js';
import type { TknService } from '../../protocol/tkn.js';
import type { Storage } from '../../storage/storage.js';

/** The services this module uses (registry.ts builds them; the composition passes them in). */
export interface CustomTokenDeps {
  account: () => AccountSettings;
  clients: ClientService;
  /** The API resources a `resource` parameter may name (RFC 8707). */
  resources: ResourceLookup;
  clock: Clock;
  config: WardConfig;
  events: SecurityEvents;
  masterKey: Buffer;
  storage: Storage;
  tkn: TknService;
  users: UserService;
}
import type { SignInDeps } from '../../http/sign-in.js';
import { answerOutcome, browserState, validatedRequest } from '../../http/routes/hosted-form.js';
import { customTokenLoginSchema } from '../../http/routes/schemas/custom-token.js';
import { signInAudit } from '../audit.js';

// The web half of the custom-token method (method.ts declares it): a method's routes.ts is the one
// file of its folder in the web layer (.dependency-cruiser.cjs lets it import http/, and nothing in the
// domain import it).

/**
 * `GET /identity/v1/custom-token/login?<OAuth parameters>&token=` (the Core SDK's loginWithCustomToken):
 * the authorization request passes /oauth/authorize's checks, the single-use token minted by the
 * management API for this client names the user, and the sign-in goes on like any first factor
 * (a second factor when the account requires one).
 */
export function customTokenRoutes(app: WardApp, r: CustomTokenDeps, signIn: SignInDeps): void {
  app.get('/identity/v1/custom-token/login', { schema: customTokenLoginSchema }, async (req, reply) => {
    const { token, ...oauth } = requireSingle(req.query);
    const ar = await validatedRequest(r, oauth);
    // A client that stopped accepting custom tokens (or never could) signs no one in with one.
    const accepted =
      ar.client.custom_token_login && !isSystemClient(ar.client.client_id) && ar.client.management_scopes.length === 0;
    const userId = accepted ? await r.tkn.consumeCustom(token, ar.client.client_id) : null;
    const user = userId ? await r.users.find(userId) : undefined;
    // A lite profile signs in with nothing: refused like a token of no user.
    const lite = !!user?.lite;
    if (!user || user.disabled || lite) {
      const reason = !accepted
        ? 'client_not_allowed'
        : !user
          ? 'invalid_token'
          : user.disabled
            ? 'user_disabled'
            : LITE_PROFILE;
      await signInAudit(r.events).failed({
        method: 'custom_token',
        clientId: ar.client.client_id,
        ip: req.ip,
        reason,
        userId: user?.id,
      });
      throw new WardError('authorizeAccessDenied', {
        description: 'The custom token is invalid, expired or already used',
        authorizeRequest: ar,
      });
    }
    const who = { user, amr: ['custom_token'], authTime: r.clock.now(), method: 'custom_token' as const };
    return answerOutcome(r, req, reply, await signIn.nextStep.afterFirstFactor(ar, who, browserState(req, reply, ar)));
  });
}
