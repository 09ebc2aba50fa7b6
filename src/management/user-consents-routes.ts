import { Type } from 'typebox';
import { recordAudit } from '../audit/record.js';
import { CLIENT_ID_PATTERN } from '../config/schema/client.js';
import { notFound } from '../errors/refusals.js';
import { requireAuthorityOver } from './auth.js';
import { managementRoute, type ManagementRoute } from './route.js';
import type { UserService } from '../accounts/users.js';
import type { Clock } from '../lib/clock.js';
import type { Storage } from '../storage/storage.js';

/** The services this module uses (registry.ts builds them; the composition passes them in). */
export interface UserConsentsRoutesDeps {
  clock: Clock;
  storage: Storage;
  users: UserService;
}

const userId = Type.String({ pattern: '^[a-f0-9]{32}$' });

const consentSchema = Type.Object({
  client_id: Type.String(),
  scopes: Type.Array(Type.String()),
  created_at: Type.String(),
  updated_at: Type.String(),
});

/** A user's consents to third-party clients (docs/consent.md) for administrators: listed and revocable, audited. */
export function userConsentRoutes(r: UserConsentsRoutesDeps): ManagementRoute[] {
  return [
    managementRoute({
      method: 'GET',
      url: '/api/v1/users/:userId/consents',
      tag: 'users',
      permission: 'read:users',
      params: Type.Object({ userId }, { additionalProperties: false }),
      summary: 'List the third-party clients a user consented to, with the scopes granted',
      response: { status: 200, schema: Type.Array(consentSchema) },
      handler: async ({ params }) => {
        if (!(await r.users.find(params.userId))) throw notFound('No such user');
        return (await r.storage.consents.listForUser(params.userId)).map((c) => ({
          client_id: c.client_id,
          scopes: c.scopes,
          created_at: new Date(c.created_at).toISOString(),
          updated_at: new Date(c.updated_at).toISOString(),
        }));
      },
    }),
    managementRoute({
      method: 'DELETE',
      url: '/api/v1/users/:userId/consents/:clientId',
      tag: 'users',
      permission: 'manage:users',
      audit: 'consent.revoked',
      params: Type.Object(
        { userId, clientId: Type.String({ pattern: CLIENT_ID_PATTERN }) },
        { additionalProperties: false },
      ),
      summary: "Revoke a user's consent to a client; the client's refresh tokens of that user stop working",
      response: { status: 204 },
      handler: async ({ actor, params }) => {
        const user = await r.users.find(params.userId);
        if (!user) throw notFound('No such consent for this user');
        requireAuthorityOver(actor, user);
        const now = r.clock.now();
        const done = await r.storage.consents.revoke(params.userId, params.clientId, now);
        if (!done.revoked) throw notFound('No such consent for this user');
        await recordAudit(r.storage, now, actor, 'consent.revoked', `user:${params.userId}`, 'success', {
          client_id: params.clientId,
          revoked_grants: done.grants,
        });
      },
    }),
  ];
}
