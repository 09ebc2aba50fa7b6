import { Type } from 'typebox';
import { anyObject, partialObject } from '../http/schema-types.js';
import { isRole, permissionsOf, ROLES, type Role } from '../authz/roles.js';
import { WardError } from '../errors/ward-error.js';
import { notFound } from '../errors/refusals.js';
import { verifiedFactors } from '../stepup/factors.js';
import type { User } from '../storage/sql/users.js';
import { recordAudit } from '../audit/record.js';
import { endSessionsOfUser, type LogoutDelivery } from '../logout/backchannel.js';
import { userView, userViewSchema } from '../accounts/user-view.js';
import { readCustomIdentifier, storeCustomIdentifier } from '../accounts/custom-identifiers.js';
import { requireAuthorityOver, requireHolds } from './auth.js';
import { managementRoute, type ManagementRoute } from './route.js';
import { emptyBody } from './schemas.js';
import { profileFields, profileView, profileViewSchema } from './user-profile.js';
import type { ProfileService } from '../accounts/profiles.js';
import type { ConsentChanges } from '../accounts/consent-changes.js';
import type { UserService } from '../accounts/users.js';
import type { ClientService } from '../clients/service.js';
import type { Clock } from '../lib/clock.js';
import type { FactorNotices } from '../stepup/factor-notices.js';
import type { Repos, Storage } from '../storage/storage.js';

/** The services this module uses (registry.ts builds them; the composition passes them in). */
export interface UsersRoutesDeps {
  clients: ClientService;
  clock: Clock;
  consentChanges: ConsentChanges;
  logoutDelivery: LogoutDelivery;
  notices: FactorNotices;
  profiles: ProfileService;
  storage: Storage;
  users: UserService;
}

const userId = Type.String({ pattern: '^[a-f0-9]{32}$' });
const userIdParam = Type.Object({ userId }, { additionalProperties: false });

// The management view's fields (accounts/user-view.ts), each optional: a `fields` filter answers some.
const userSchema = partialObject(userViewSchema.properties);

const userWithProfileSchema = partialObject({
  ...userSchema.properties,
  custom_identifier: Type.Union([Type.String(), Type.Null()]),
  ...profileViewSchema,
});

const view = userView;

/** Users for the console: search, view (factors, identities), remove a factor, end sessions, disable, roles. */
export function userRoutes(r: UsersRoutesDeps): ManagementRoute[] {
  async function existing(id: string): Promise<User> {
    const u = await r.users.find(id);
    if (!u) throw notFound('No such user');
    return u;
  }
  /** Ends every session of a user and revokes every grant (refresh and access tokens). */
  const endEverything = (userId: string, within?: (tx: Repos) => Promise<void>) =>
    endSessionsOfUser({ ...r, delivery: r.logoutDelivery }, userId, undefined, within);
  return [
    managementRoute({
      method: 'GET',
      url: '/api/v1/users',
      tag: 'users',
      permission: 'read:users',
      summary: 'Search users by email, phone, name or id',
      query: partialObject(
        {
          q: Type.String({ maxLength: 200, pattern: '^[^\\u0000]*$' }),
          limit: Type.String({ pattern: '^[0-9]{1,3}$' }),
        },
        { additionalProperties: false },
      ),
      response: {
        status: 200,
        schema: partialObject({ users: Type.Array(userSchema) }),
      },
      handler: async ({ query }) => ({
        users: (await r.storage.users.search(query.q?.trim() ?? '', Math.min(Number(query.limit ?? 50), 200))).map(
          view,
        ),
      }),
    }),
    managementRoute({
      method: 'GET',
      url: '/api/v1/users/:userId',
      tag: 'users',
      permission: 'read:users',
      params: userIdParam,
      summary: 'A user, their second factors and linked identities',
      response: { status: 200, schema: anyObject() },
      handler: async ({ params }) => {
        const u = await existing(params.userId);
        const factors = await r.storage.mfaCredentials.listOfUser(u.id);
        const identities = await r.storage.identities.listOfUser(u.id);
        return {
          ...view(u),
          custom_identifier: (await r.storage.customIdentifiers.ofUser(u.id)) ?? null,
          ...profileView(await r.storage.profiles.find(u.id)),
          mfa_credentials: factors.map((f) => ({
            id: f.id,
            type: f.type,
            destination: f.destination,
            verified: f.verified_at !== null,
            created_at: new Date(f.created_at).toISOString(),
          })),
          identities: identities.map((i) => ({
            id: i.id,
            provider: i.provider,
            email: i.email,
            created_at: new Date(i.created_at).toISOString(),
          })),
        };
      },
    }),
    managementRoute({
      method: 'DELETE',
      url: '/api/v1/users/:userId/mfa-credentials/:credentialId',
      tag: 'users',
      permission: 'manage:users',
      audit: 'user.factor_removed',
      params: Type.Object({ userId, credentialId: userId }, { additionalProperties: false }),
      summary: "Remove a user's second factor (their trusted devices are revoked; the user is told)",
      response: { status: 204 },
      handler: async ({ actor, params }) => {
        const f = await r.storage.mfaCredentials.find(params.credentialId);
        if (!f || f.user_id !== params.userId) throw notFound('No such factor for this user');
        requireAuthorityOver(actor, await existing(f.user_id));
        const before = await verifiedFactors(r.storage, f.user_id);
        const now = r.clock.now();
        await r.storage.transaction(async (tx) => {
          if (!(await tx.mfaCredentials.delete(f.id))) throw notFound('No such factor for this user');
          // An authenticator app's secret and its recovery codes go with it.
          if (f.type === 'totp') {
            await tx.totpSecrets.delete(f.id);
            await tx.recoveryCodes.deleteAllOfUser(f.user_id);
          }
          await tx.trustedDevices.revokeAllOfUser(f.user_id, now);
          await recordAudit(tx, now, actor, 'user.factor_removed', `user:${f.user_id}`, 'success', { type: f.type });
        });
        // The user is told, as when they remove it themselves (MF-03).
        const user = await r.users.find(f.user_id);
        if (user && f.verified_at !== null)
          r.notices.factorChanged({
            user,
            change: 'factor_removed',
            factor: { type: f.type, destination: f.destination },
            before,
            at: now,
          });
      },
    }),
    managementRoute({
      method: 'POST',
      url: '/api/v1/users/:userId/sessions/revoke',
      tag: 'users',
      permission: 'manage:users',
      audit: 'user.sessions_revoked',
      params: userIdParam,
      body: emptyBody,
      summary: 'End every session of a user and revoke their tokens',
      response: { status: 204 },
      handler: async ({ actor, params }) => {
        const u = await existing(params.userId);
        const now = r.clock.now();
        await endEverything(u.id, (tx) =>
          recordAudit(tx, now, actor, 'user.sessions_revoked', `user:${u.id}`, 'success'),
        );
      },
    }),
    managementRoute({
      method: 'PATCH',
      url: '/api/v1/users/:userId',
      tag: 'users',
      permission: 'manage:users',
      audit: 'user.updated',
      params: userIdParam,
      body: partialObject(
        {
          disabled: Type.Boolean(),
          custom_identifier: Type.Union([Type.String({ maxLength: 400 }), Type.Null()], {
            description: 'the identifier the user may sign in with where sign_in_identifiers allow it; null removes it',
          }),
          ...profileFields,
          consents: anyObject({
            description:
              "the user's consents by key, each {granted, consent_version?: {version_id, language}} (reporter: managed)",
          }),
        },
        { additionalProperties: false, minProperties: 1 },
      ),
      summary:
        'Disable or enable a user (disabling ends their sessions and tokens), or edit their profile and custom fields',
      response: { status: 200, schema: userWithProfileSchema },
      handler: async ({ actor, params, body }) => {
        const u = await existing(params.userId);
        const { disabled, custom_identifier, consents: givenConsents, ...profile } = body;
        if (disabled !== undefined) requireAuthorityOver(actor, u);
        // Validated before anything is written: a refused field changes nothing.
        const customIdentifier = readCustomIdentifier(custom_identifier, 'custom_identifier');
        const change = r.profiles.read(profile, { writer: 'admin', prefix: '', mode: 'update' });
        const consents = r.consentChanges.read(givenConsents, 'consents');
        const now = r.clock.now();
        if (customIdentifier !== undefined)
          await r.storage.transaction(async (tx) => {
            await storeCustomIdentifier(tx, u.id, customIdentifier, now);
            await recordAudit(tx, now, actor, 'user.updated', `user:${u.id}`, 'success', {
              fields: ['custom_identifier'],
            });
          });
        if (disabled !== undefined) {
          // The flag, its audit row and webhook event in one transaction; disabling ends the sessions after.
          await r.storage.transaction(async (tx) => {
            await tx.users.setDisabled(u.id, disabled, now);
            await recordAudit(tx, now, actor, 'user.updated', `user:${u.id}`, 'success', { disabled });
          });
          if (disabled) await endEverything(u.id);
        }
        await r.profiles.apply(u, change, actor);
        if (consents.length) {
          const pending = await r.storage.transaction((tx) =>
            r.consentChanges.store(tx, u.id, consents, 'managed', actor),
          );
          r.consentChanges.sendConfirmations(u, pending);
        }
        return {
          ...view((await r.users.find(u.id))!),
          custom_identifier: (await r.storage.customIdentifiers.ofUser(u.id)) ?? null,
          ...profileView(await r.storage.profiles.find(u.id)),
        };
      },
    }),
    managementRoute({
      method: 'PUT',
      url: '/api/v1/users/:userId/role',
      tag: 'users',
      permission: 'manage:roles',
      audit: 'user.role_changed',
      params: userIdParam,
      body: Type.Object(
        { role: Type.Unsafe<Role | null>({ type: ['string', 'null'], enum: [...ROLES, null] }) },
        { additionalProperties: false },
      ),
      summary: 'Give a user a console role (Administrators only)',
      response: { status: 200, schema: userSchema },
      handler: async ({ actor, params, body }) => {
        const u = await existing(params.userId);
        const role = body.role !== null && isRole(body.role) ? body.role : null;
        if (actor.type === 'user' && actor.id === u.id && role !== 'administrator') throw new WardError('ownRole');
        // No caller gives a role with more than it holds, nor changes the role of someone who holds more.
        requireHolds(actor, permissionsOf(role), `The role ${role}`);
        requireHolds(actor, permissionsOf(u.role), `Changing the role of a user who is ${u.role}`);
        const now = r.clock.now();
        await r.storage.transaction(async (tx) => {
          await tx.users.setRole(u.id, role, now);
          await recordAudit(tx, now, actor, 'user.role_changed', `user:${u.id}`, 'success', { role });
        });
        return view((await r.users.find(u.id))!);
      },
    }),
  ];
}
