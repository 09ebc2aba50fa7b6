import type { WardApp } from '../typed-app.js';
import { isSystemClient } from '../../clients/system.js';
import { WardError } from '../../errors/ward-error.js';
import { requireSingle } from '../../protocol/params.js';
import type { Registry } from '../../registry.js';
import type { SignInDeps } from '../sign-in.js';
import { answerOutcome, browserState, validatedRequest } from './hosted-form.js';
import { customTokenLoginSchema } from './schemas/custom-token.js';

/**
 * `GET /identity/v1/custom-token/login?<OAuth parameters>&token=` (the Core SDK's loginWithCustomToken):
 * the authorization request passes /oauth/authorize's checks, the single-use token minted by the
 * management API for this client names the user, and the sign-in goes on like any first factor
 * (a second factor when the account requires one).
 */
export function customTokenRoutes(
  app: WardApp,
  r: Pick<Registry, 'account' | 'clients' | 'clock' | 'config' | 'events' | 'masterKey' | 'storage' | 'tkn' | 'users'>,
  signIn: SignInDeps,
): void {
  app.get('/identity/v1/custom-token/login', { schema: customTokenLoginSchema }, async (req, reply) => {
    const { token, ...oauth } = requireSingle(req.query);
    const ar = await validatedRequest(r, oauth);
    // A client that stopped accepting custom tokens (or never could) signs no one in with one.
    const accepted =
      ar.client.custom_token_login && !isSystemClient(ar.client.client_id) && ar.client.management_scopes.length === 0;
    const userId = accepted ? await r.tkn.consumeCustom(token, ar.client.client_id) : null;
    const user = userId ? await r.users.find(userId) : undefined;
    if (!user || user.disabled) {
      await r.events.emit('login.custom_token_refused', { client_id: ar.client.client_id }, 'custom token refused');
      throw new WardError('authorizeAccessDenied', {
        description: 'The custom token is invalid, expired or already used',
        authorizeRequest: ar,
      });
    }
    await r.events.emit(
      'login.custom_token',
      { client_id: ar.client.client_id, user_id: user.id },
      'custom token sign-in',
    );
    const who = { user, amr: ['custom_token'], authTime: r.clock.now() };
    return answerOutcome(r, req, reply, await signIn.nextStep.afterFirstFactor(ar, who, browserState(req, reply, ar)));
  });
}
