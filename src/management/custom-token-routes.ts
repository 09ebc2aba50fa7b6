import { Type } from 'typebox';
import { recordAudit } from '../audit/record.js';
import { WardError } from '../errors/ward-error.js';
import { notFound } from '../errors/refusals.js';
import { CUSTOM_TOKEN_TTL_SECONDS, type TknService } from '../protocol/tkn.js';
import { isSystemClient } from '../clients/system.js';
import { requireAuthorityOver } from './auth.js';
import { managementRoute, type ManagementRoute } from './route.js';
import type { UserService } from '../accounts/users.js';
import type { ClientService } from '../clients/service.js';
import type { Clock } from '../lib/clock.js';
import type { Storage } from '../storage/storage.js';

/** The services this module uses (registry.ts builds them; the composition passes them in). */
export interface CustomTokenRoutesDeps {
  clients: ClientService;
  clock: Clock;
  storage: Storage;
  tkn: TknService;
  users: UserService;
}

/**
 * Custom token sign-in: a backend that authenticated a user itself (a mobile app's own sign-in) mints
 * a single-use token for that user and one client; the app then completes an authorization with it at
 * `GET /identity/v1/custom-token/login` (the Core SDK's loginWithCustomToken), like any first factor.
 * Only for a client that opted in (`custom_token_login`), never the console; for a user who holds a
 * console role, only by a caller with manage:roles.
 */
export function customTokenRoutes(r: CustomTokenRoutesDeps): ManagementRoute[] {
  return [
    managementRoute({
      method: 'POST',
      url: '/api/v1/custom-tokens',
      tag: 'users',
      permission: 'manage:users',
      audit: 'user.custom_token_minted',
      summary:
        'Mint a single-use sign-in token (about a minute) for a user and a client that accepts custom token ' +
        'sign-in (custom_token_login); a user who holds a console role needs manage:roles',
      body: Type.Object(
        {
          user_id: Type.String({ minLength: 1, maxLength: 64 }),
          client_id: Type.String({ minLength: 1, maxLength: 128 }),
        },
        { additionalProperties: false },
      ),
      response: {
        status: 201,
        schema: Type.Object({ token: Type.String(), expires_in: Type.Integer() }),
      },
      handler: async ({ actor, body }) => {
        const user = await r.users.find(body.user_id);
        if (!user || user.disabled) throw notFound('No such user (or the user is disabled)');
        const client = await r.clients.find(body.client_id);
        if (!client || client.type === 'resource_server') throw new WardError('unknownClient');
        // Never a way into the console, nor to a client that did not ask for it (custom_token_login).
        if (isSystemClient(client.client_id) || !client.custom_token_login || client.management_scopes.length)
          throw new WardError('customTokenNotAllowed');
        // Signing in as a console user (an Administrator...) is taking their role: manage:roles only.
        requireAuthorityOver(actor, user);
        const token = await r.tkn.issueCustom(user.id, client.client_id);
        await recordAudit(r.storage, r.clock.now(), actor, 'user.custom_token_minted', `user:${user.id}`, 'success', {
          client_id: client.client_id,
        });
        return { token, expires_in: CUSTOM_TOKEN_TTL_SECONDS };
      },
    }),
  ];
}
