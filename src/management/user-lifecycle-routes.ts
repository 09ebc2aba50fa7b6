import { Type } from 'typebox';
import { keysOfUser } from '../accounts/sign-in-protection.js';
import { recordAudit } from '../audit/record.js';
import { invalidField, missingField, notFound } from '../errors/refusals.js';
import { randomId } from '../lib/random.js';
import { WardError } from '../errors/ward-error.js';
import { anyObject, nullable, partialObject } from '../http/schema-types.js';
import type { LogoutDelivery } from '../logout/backchannel.js';
import { eraseUser } from '../self-service/account-deletion.js';
import type { User } from '../storage/sql/users.js';
import { userView } from '../accounts/user-view.js';
import { requireAuthorityOver } from './auth.js';
import { managementRoute, type ManagementRoute } from './route.js';
import { emptyBody } from './schemas.js';
import { exportUser } from '../accounts/data-export.js';
import type { UserService } from '../accounts/users.js';
import type { ClientService } from '../clients/service.js';
import type { Clock } from '../lib/clock.js';
import type { PasswordReset } from '../self-service/password-reset.js';
import type { Repos, Storage } from '../storage/storage.js';

/** The services this module uses (registry.ts builds them; the composition passes them in). */
export interface UserLifecycleRoutesDeps {
  clients: ClientService;
  clock: Clock;
  logoutDelivery: LogoutDelivery;
  passwordReset: PasswordReset;
  storage: Storage;
  users: UserService;
}

const userId = Type.String({ pattern: '^[a-f0-9]{32}$' });
const userIdParam = Type.Object({ userId }, { additionalProperties: false });
const name = Type.String({ maxLength: 200, pattern: '^[^\\u0000]*$' });

export const createdUserSchema = partialObject({
  id: Type.String(),
  email: nullable(Type.String()),
  email_verified: Type.Boolean(),
  phone_number: nullable(Type.String()),
  phone_number_verified: Type.Boolean(),
  given_name: nullable(Type.String()),
  family_name: nullable(Type.String()),
  disabled: Type.Boolean(),
  has_password: Type.Boolean(),
  created_at: Type.String(),
});

const view = userView;

const signInStateSchema = partialObject({
  failures: Type.Integer(),
  locked: Type.Boolean(),
  blocked_until: nullable(Type.String()),
});

/** The signup service names its fields `data.*` (the Core SDK's body): here they are top-level. */
function topLevelFields(e: unknown): unknown {
  if (!(e instanceof WardError) || !e.details) return e;
  return new WardError(e.id, {
    description: e.description.replace(/\bdata\./g, ''),
    details: e.details.map((d) => ({ ...d, field: d.field.replace(/^data\./, '') })),
    headers: e.headers,
  });
}

/**
 * A user's life by an administrator: create (with a password that meets the policy), mark the email
 * or phone verified or not, delete completely, export their data, and unlock their password sign-in.
 */
export function userLifecycleRoutes(r: UserLifecycleRoutesDeps): ManagementRoute[] {
  async function existing(id: string): Promise<User> {
    const u = await r.users.find(id);
    if (!u) throw notFound('No such user');
    return u;
  }
  return [
    managementRoute({
      method: 'POST',
      url: '/api/v1/users',
      tag: 'users',
      permission: 'manage:users',
      audit: 'user.created',
      summary:
        'Create a user with a password (the password policy applies), or invite them by email to choose one; an ' +
        'email or a phone number is required',
      body: Type.Object(
        {
          email: Type.Optional(Type.String({ maxLength: 320 })),
          phone_number: Type.Optional(Type.String({ maxLength: 40 })),
          password: Type.Optional(Type.String({ minLength: 1, maxLength: 1024 })),
          invite: Type.Optional(
            Type.Boolean({ description: 'no password: email the user a link to choose one (it verifies the email)' }),
          ),
          given_name: Type.Optional(name),
          family_name: Type.Optional(name),
          email_verified: Type.Optional(Type.Boolean()),
          phone_number_verified: Type.Optional(Type.Boolean()),
        },
        { additionalProperties: false },
      ),
      response: { status: 201, schema: createdUserSchema },
      handler: async ({ actor, body }) => {
        const { email_verified, phone_number_verified, invite, ...data } = body;
        if (invite === true && data.password !== undefined)
          throw invalidField('invite', 'an invited user chooses their password: send no password');
        if (invite !== true && data.password === undefined) throw missingField('password');
        if (invite === true && data.email === undefined) throw missingField('email');
        const now = r.clock.now();
        // The verification flags, the audit row and its webhook event go in the user's transaction:
        // a failure after the user's insert leaves neither the user nor the event.
        const within = async (tx: Repos, u: User) => {
          const flags = {
            email_verified: !!(email_verified && u.email),
            phone_number_verified: !!(phone_number_verified && u.phone_number),
          };
          if (flags.email_verified || flags.phone_number_verified) await tx.users.setVerification(u.id, flags, now);
          await recordAudit(tx, now, actor, 'user.created', `user:${u.id}`, 'success', {
            email: u.email !== null,
            phone_number: u.phone_number !== null,
            invited: invite === true,
            ...flags,
          });
        };
        let u: User;
        try {
          u = invite
            ? await r.users.createPasswordless(
                randomId(),
                await r.users.passwordlessProfile(data, 'data'),
                within,
                'administrator',
              )
            : await r.users.signup(data, null, { byAdministrator: true, within });
        } catch (e) {
          throw topLevelFields(e);
        }
        if (invite) await r.passwordReset.sendByAdministrator(u, 'invitation');
        return view((await r.users.find(u.id))!);
      },
    }),
    managementRoute({
      method: 'PATCH',
      url: '/api/v1/users/:userId/verification',
      tag: 'users',
      permission: 'manage:users',
      audit: 'user.verification_changed',
      params: userIdParam,
      body: partialObject(
        { email_verified: Type.Boolean(), phone_number_verified: Type.Boolean() },
        { additionalProperties: false, minProperties: 1 },
      ),
      summary: "Mark a user's email address or phone number verified, or not verified",
      response: { status: 200, schema: createdUserSchema },
      handler: async ({ actor, params, body }) => {
        const u = await existing(params.userId);
        if (body.email_verified && !u.email) throw invalidField('email_verified', 'the user has no email address');
        if (body.phone_number_verified && !u.phone_number)
          throw invalidField('phone_number_verified', 'the user has no phone number');
        const now = r.clock.now();
        await r.storage.transaction(async (tx) => {
          await tx.users.setVerification(u.id, body, now);
          await recordAudit(tx, now, actor, 'user.verification_changed', `user:${u.id}`, 'success', { ...body });
        });
        return view((await r.users.find(u.id))!);
      },
    }),
    managementRoute({
      method: 'DELETE',
      url: '/api/v1/users/:userId',
      tag: 'users',
      permission: 'manage:users',
      audit: 'user.deleted',
      params: userIdParam,
      summary:
        'Delete a user completely: sessions, tokens, codes, factors, trusted devices, passkeys, identities, ' +
        'pending sign-ins and counted failures (the audit trail stays; clients with Back-Channel Logout are told)',
      response: { status: 204 },
      handler: async ({ actor, params }) => {
        const u = await existing(params.userId);
        if (actor.type === 'user' && actor.id === u.id) throw new WardError('ownAccountDeletion');
        requireAuthorityOver(actor, u);
        if (u.role === 'administrator' && (await r.storage.users.countByRole('administrator')) <= 1)
          throw new WardError('lastAdministrator');
        // The same erasure as a user's own deletion; clients with Back-Channel Logout are told.
        await eraseUser(r, u, actor);
      },
    }),
    managementRoute({
      method: 'GET',
      url: '/api/v1/users/:userId/export',
      tag: 'users',
      permission: 'read:users',
      audit: 'user.exported',
      params: userIdParam,
      summary:
        "A user's data as JSON (GDPR art. 15 and 20): profile, identifiers, identities, factors (masked), " +
        'passkeys, sessions, grants per client, audit events; no secret or hash',
      response: { status: 200, schema: anyObject() },
      handler: async ({ actor, params }) => {
        const u = await existing(params.userId);
        const now = r.clock.now();
        const out = await exportUser({ storage: r.storage, protection: r.users.protection, now }, u);
        await recordAudit(r.storage, now, actor, 'user.exported', `user:${u.id}`, 'success');
        return out;
      },
    }),
    managementRoute({
      method: 'GET',
      url: '/api/v1/users/:userId/sign-in-protection',
      tag: 'users',
      permission: 'read:users',
      params: userIdParam,
      summary: "The failed password sign-ins counted for a user's email and phone number, and any wait or lockout",
      response: { status: 200, schema: signInStateSchema },
      handler: async ({ params }) => {
        const u = await existing(params.userId);
        const s = await r.users.protection.state(keysOfUser(u));
        return { ...s, blocked_until: s.blocked_until === null ? null : new Date(s.blocked_until).toISOString() };
      },
    }),
    managementRoute({
      method: 'POST',
      url: '/api/v1/users/:userId/unlock',
      tag: 'users',
      permission: 'manage:users',
      audit: 'user.unlocked',
      params: userIdParam,
      body: emptyBody,
      bodyOptional: true,
      summary: "Forget a user's failed password sign-ins: any wait or lockout ends at once",
      response: { status: 200, schema: partialObject({ unlocked: Type.Boolean() }) },
      handler: async ({ actor, params }) => {
        const u = await existing(params.userId);
        const now = r.clock.now();
        const unlocked = await r.storage.transaction(async (tx) => {
          const done = await r.users.protection.unlock(keysOfUser(u), tx);
          await recordAudit(tx, now, actor, 'user.unlocked', `user:${u.id}`, 'success', { unlocked: done });
          return done;
        });
        return { unlocked };
      },
    }),
    managementRoute({
      method: 'POST',
      url: '/api/v1/users/:userId/password-reset',
      tag: 'users',
      permission: 'manage:users',
      audit: 'user.password_reset_sent',
      params: userIdParam,
      body: emptyBody,
      bodyOptional: true,
      summary:
        'Email a user a link and a code to choose a new password (the hosted reset page); the previous one stops ' +
        'working. The current password keeps working until the user sets a new one.',
      response: { status: 204 },
      handler: async ({ actor, params }) => {
        const u = await existing(params.userId);
        if (u.disabled) throw invalidField('userId', 'the user is disabled');
        await r.passwordReset.sendByAdministrator(u, 'reset_password');
        await recordAudit(r.storage, r.clock.now(), actor, 'user.password_reset_sent', `user:${u.id}`, 'success');
      },
    }),
  ];
}
