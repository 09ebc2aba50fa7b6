import { Type } from 'typebox';
import { recordAudit } from '../audit/record.js';
import { notFound } from '../errors/refusals.js';
import { nullable } from '../http/schema-types.js';
import { requireAuthorityOver } from './auth.js';
import { managementRoute, type ManagementRoute } from './route.js';
import type { UserService } from '../accounts/users.js';
import type { SecurityEvents } from '../audit/events.js';
import type { Clock } from '../lib/clock.js';
import type { Storage } from '../storage/storage.js';

/** The services this module uses (registry.ts builds them; the composition passes them in). */
export interface UserPasskeysRoutesDeps {
  clock: Clock;
  events: SecurityEvents;
  storage: Storage;
  users: UserService;
}

const userId = Type.String({ pattern: '^[a-f0-9]{32}$' });
const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

const passkeySchema = Type.Object({
  id: Type.String(),
  friendly_name: Type.String(),
  device_type: Type.String(),
  backed_up: Type.Boolean(),
  aaguid: nullable(Type.String()),
  created_at: Type.String(),
  last_used_at: nullable(Type.String()),
});

/** A user's passkeys for administrators: listed (no key material) and removable, audited. */
export function userPasskeyRoutes(r: UserPasskeysRoutesDeps): ManagementRoute[] {
  return [
    managementRoute({
      method: 'GET',
      url: '/api/v1/users/:userId/passkeys',
      tag: 'users',
      permission: 'read:users',
      params: Type.Object({ userId }, { additionalProperties: false }),
      summary: "List a user's passkeys (names, authenticator kind, dates; no key material)",
      response: { status: 200, schema: Type.Array(passkeySchema) },
      handler: async ({ params }) => {
        if (!(await r.users.find(params.userId))) throw notFound('No such user');
        return (await r.storage.passkeys.listOfUser(params.userId)).map((k) => ({
          id: k.id,
          friendly_name: k.friendly_name,
          device_type: k.device_type,
          backed_up: k.backed_up,
          aaguid: k.aaguid,
          created_at: iso(k.created_at)!,
          last_used_at: iso(k.last_used_at),
        }));
      },
    }),
    managementRoute({
      method: 'DELETE',
      url: '/api/v1/users/:userId/passkeys/:passkeyId',
      tag: 'users',
      permission: 'manage:users',
      audit: 'user.passkey_removed',
      params: Type.Object(
        { userId, passkeyId: Type.String({ minLength: 1, maxLength: 64 }) },
        { additionalProperties: false },
      ),
      summary: "Remove a user's passkey (a lost or stolen authenticator); the user can recover with account recovery",
      response: { status: 204 },
      handler: async ({ actor, params }) => {
        const user = await r.users.find(params.userId);
        if (!user) throw notFound('No such passkey for this user');
        requireAuthorityOver(actor, user);
        const now = r.clock.now();
        await r.storage.transaction(async (tx) => {
          if (!(await tx.passkeys.delete(params.userId, params.passkeyId)))
            throw notFound('No such passkey for this user');
          await recordAudit(tx, now, actor, 'user.passkey_removed', `user:${params.userId}`, 'success', {
            passkey_id: params.passkeyId,
          });
        });
      },
    }),
  ];
}
