import { Type } from 'typebox';
import { notFound } from '../errors/refusals.js';
import { nullable } from '../http/schema-types.js';
import { listFactors, resetFactors } from '../stepup/factor-reset.js';
import { requireAuthorityOver } from './auth.js';
import { managementRoute, type ManagementRoute } from './route.js';
import type { UserService } from '../accounts/users.js';
import type { RateLimit } from '../config/types.js';
import type { Clock } from '../lib/clock.js';
import type { FactorNotices } from '../stepup/factor-notices.js';
import type { Storage } from '../storage/storage.js';

/** The services this module uses (registry.ts builds them; the composition passes them in). */
export interface UserFactorsRoutesDeps {
  clock: Clock;
  notices: FactorNotices;
  storage: Storage;
  users: UserService;
  limiter: (name: string, key: string, rule: RateLimit) => Promise<void>;
}

/** Per administrator: generous for a console, a bound for a script gone wrong. */
const RULE: RateLimit = { limit: 120, window_seconds: 60 };

const userIdParam = Type.Object(
  { userId: Type.String({ pattern: '^[a-f0-9]{32}$' }) },
  { additionalProperties: false },
);
const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

const listingSchema = Type.Object({
  factors: Type.Array(
    Type.Object({
      id: Type.String({ description: 'remove it with DELETE .../mfa-credentials/{id} or .../passkeys/{id}' }),
      type: Type.String({ description: 'email, sms, totp (an authenticator app) or passkey' }),
      destination: nullable(Type.String()),
      name: nullable(Type.String()),
      verified: Type.Boolean(),
      second_factor: Type.Boolean({
        description: 'it answers a second factor (a verified code factor or app; a passkey or security key)',
      }),
      created_at: Type.String(),
      last_used_at: nullable(Type.String()),
    }),
  ),
  recovery_codes_left: Type.Integer({ minimum: 0 }),
});

/**
 * A user's factors for administrators (docs/mfa.md): every one listed (no secret, no code, no key), and
 * all of them reset at once for a user who lost them, with a reason the audit trail keeps; the user is
 * told. Removing one factor: DELETE /api/v1/users/{id}/mfa-credentials/{id} and .../passkeys/{id}.
 * Nothing is made for the user: only they enrol new factors.
 */
export function userFactorRoutes(r: UserFactorsRoutesDeps): ManagementRoute[] {
  return [
    managementRoute({
      method: 'GET',
      url: '/api/v1/users/:userId/factors',
      tag: 'users',
      permission: 'read:users',
      params: userIdParam,
      summary: 'List every factor of a user: email and SMS codes, authenticator app, passkeys, recovery codes left',
      response: { status: 200, schema: listingSchema },
      handler: async ({ actor, params }) => {
        await r.limiter('management_factors', `${actor.type}:${actor.id}`, RULE);
        if (!(await r.users.find(params.userId))) throw notFound('No such user');
        const listing = await listFactors(r, params.userId);
        return {
          factors: listing.factors.map((f) => ({
            id: f.id,
            type: f.type,
            destination: f.destination,
            name: f.name,
            verified: f.verified,
            second_factor: f.secondFactor,
            created_at: iso(f.createdAt)!,
            last_used_at: iso(f.lastUsedAt),
          })),
          recovery_codes_left: listing.recoveryCodesLeft,
        };
      },
    }),
    managementRoute({
      method: 'POST',
      url: '/api/v1/users/:userId/factors/reset',
      tag: 'users',
      permission: 'manage:users',
      audit: 'user.factors_reset',
      params: userIdParam,
      body: Type.Object(
        {
          reason: Type.String({
            minLength: 3,
            maxLength: 500,
            description: 'why (e.g. the identity check done outside Ward); kept in the audit trail',
          }),
        },
        { additionalProperties: false },
      ),
      summary: 'Remove every factor of a user who lost them (audited with the reason; the user is told)',
      response: {
        status: 200,
        schema: Type.Object({
          removed_factors: Type.Integer(),
          removed_passkeys: Type.Integer(),
          removed_recovery_codes: Type.Integer(),
        }),
      },
      handler: async ({ actor, params, body }) => {
        await r.limiter('management_factors', `${actor.type}:${actor.id}`, RULE);
        const user = await r.users.find(params.userId);
        if (!user) throw notFound('No such user');
        requireAuthorityOver(actor, user);
        const done = await resetFactors(r, actor, user, body.reason.trim());
        return {
          removed_factors: done.factors,
          removed_passkeys: done.passkeys,
          removed_recovery_codes: done.recoveryCodes,
        };
      },
    }),
  ];
}
