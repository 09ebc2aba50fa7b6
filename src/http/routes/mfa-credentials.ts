import type { FastifyRequest } from 'fastify';
import type { WardApp } from '../typed-app.js';
import { factorCaller } from './factor-caller.js';
import { localeOf } from './identity-request.js';
import { normalizePhone } from '../../accounts/identifiers.js';
import { WardError } from '../../errors/ward-error.js';
import { invalidField, notFound } from '../../errors/refusals.js';
import { verifiedFactors } from '../../stepup/factors.js';
import type { BearerContext } from '../../protocol/bearer.js';
import type { CredentialRow } from '../../storage/sql/mfa.js';
import { requireSingle, str } from '../../protocol/params.js';
import {
  listCredentialsSchema,
  listTrustedDevicesSchema,
  registerEmailSchema,
  registerPhoneSchema,
  removeEmailSchema,
  removePhoneSchema,
  trustedDeviceParams,
  verifyCredentialSchema,
} from './schemas/mfa-credentials.js';
import type { UserService } from '../../accounts/users.js';
import type { SecurityEvents } from '../../audit/events.js';
import type { Clock } from '../../lib/clock.js';
import type { AccessTokenCodec } from '../../protocol/access-token-codec.js';
import type { VerificationService, Channel } from '../../stepup/challenges.js';
import type { FactorNotices } from '../../stepup/factor-notices.js';
import type { Storage } from '../../storage/storage.js';
import type { MessageFactors } from '../../stepup/message-factors.js';

/** The services this module uses (registry.ts builds them; the composition passes them in). */
export interface MfaCredentialsDeps {
  accessTokens: AccessTokenCodec;
  clock: Clock;
  events: SecurityEvents;
  notices: FactorNotices;
  storage: Storage;
  users: UserService;
  verification: VerificationService;
  /** Email and SMS factors (stepup/message-factors.ts), shared with the enrolment page. */
  messageFactors: Pick<MessageFactors, 'register' | 'confirm'>;
}

const isJson = (ct: string | undefined) => !!ct?.startsWith('application/json');

const view = (c: CredentialRow & { type: Channel }) => ({
  type: c.type,
  ...(c.type === 'email' ? { email: c.destination } : { phone_number: c.destination }),
  created_at: new Date(c.created_at).toISOString(),
  friendly_name: c.friendly_name ?? c.destination,
});

/**
 * The user's second factors (identity-api.md, "MFA credentials"), with a Bearer access token.
 * The first registration needs no step-up; once a factor exists, adding, changing or deleting one
 * needs an access token that came out of a step-up (amr has mfa) done within 5 minutes (its auth_time).
 */
export function mfaCredentialRoutes(app: WardApp, r: MfaCredentialsDeps): void {
  const caller = (req: FastifyRequest, needsStepUpIfFactors: boolean) => factorCaller(r, req, needsStepUpIfFactors);

  /** Registers a factor (pending) and sends a code to it; an already verified one is just reported. */
  async function register(ctx: BearerContext, type: Channel, destination: string, req: FastifyRequest) {
    const action = str(requireSingle(req.body ?? {}, isJson(req.headers['content-type'])), 'action', 100);
    const out = await r.messageFactors.register(ctx.user.id, type, destination, localeOf(req), action);
    return out.credential
      ? { status: out.status, credential: view({ ...out.credential, type }) }
      : { status: out.status };
  }

  const confirm = (ctx: BearerContext, channel: Channel, code: unknown, locale: string | undefined) =>
    r.messageFactors.confirm(ctx.user, channel, code, locale);

  async function remove(ctx: BearerContext, type: Channel, destination: string | null, locale: string | undefined) {
    const all = await r.storage.mfaCredentials.listOfUser(ctx.user.id);
    const target = all.find((c) => c.type === type && (destination === null || c.destination === destination));
    if (!target) throw notFound(`No ${type} factor to remove`);
    const now = r.clock.now();
    // Two removals at once: the second finds it gone (one change, one notice). The removal, the end of
    // the devices' trust and the webhook event in one transaction.
    const removed = await r.storage.transaction(async (tx) => {
      if (!(await tx.mfaCredentials.delete(target.id))) throw notFound(`No ${type} factor to remove`);
      await tx.trustedDevices.revokeAllOfUser(ctx.user.id, now);
      return r.events.stage(tx, 'mfa.credential_removed', { user_id: ctx.user.id, type });
    });
    r.events.emitStaged(removed, 'second factor removed');
    // A pending registration was no factor: its removal changes nothing to tell.
    if (target.verified_at !== null) {
      r.notices.factorChanged({
        user: ctx.user,
        change: 'factor_removed',
        factor: { type, destination: target.destination },
        before: all.filter((c) => c.verified_at !== null),
        at: now,
        locale,
      });
    }
  }

  const phoneOf = (params: Record<string, unknown>) => {
    const phone = normalizePhone(params.phone_number);
    if (!phone)
      throw invalidField('phone_number', 'must be a phone number in international format, such as +33612345678');
    return phone;
  };

  app.get('/identity/v1/mfa/credentials', { schema: listCredentialsSchema }, async (req, reply) => {
    const ctx = await caller(req, false);
    // The factors the Core SDK knows (email, sms); an authenticator app is read at .../credentials/totp.
    const credentials = (await verifiedFactors(r.storage, ctx.user.id))
      .filter((c): c is CredentialRow & { type: Channel } => c.type !== 'totp')
      .map(view);
    return reply.header('Cache-Control', 'no-store').send({ credentials });
  });

  app.post('/identity/v1/mfa/credentials/emails', { schema: registerEmailSchema }, async (req, reply) => {
    const ctx = await caller(req, true);
    if (!ctx.user.email) throw new WardError('noEmailAddress');
    return reply.send(await register(ctx, 'email', ctx.user.email, req));
  });

  app.post('/identity/v1/mfa/credentials/emails/verify', { schema: verifyCredentialSchema }, async (req, reply) => {
    const params = requireSingle(req.body, isJson(req.headers['content-type']));
    const ctx = await caller(req, true);
    await confirm(ctx, 'email', params.verification_code, localeOf(req));
    return reply.code(204).send();
  });

  app.post('/identity/v1/mfa/credentials/phone-numbers', { schema: registerPhoneSchema }, async (req, reply) => {
    const params = requireSingle(req.body, isJson(req.headers['content-type']));
    const ctx = await caller(req, true);
    return reply.send(await register(ctx, 'sms', phoneOf(params), req));
  });

  app.post(
    '/identity/v1/mfa/credentials/phone-numbers/verify',
    { schema: verifyCredentialSchema },
    async (req, reply) => {
      const params = requireSingle(req.body, isJson(req.headers['content-type']));
      const ctx = await caller(req, true);
      await confirm(ctx, 'sms', params.verification_code, localeOf(req));
      return reply.code(204).send();
    },
  );

  app.delete('/identity/v1/mfa/credentials/emails', { schema: removeEmailSchema }, async (req, reply) => {
    const ctx = await caller(req, true);
    await remove(ctx, 'email', null, localeOf(req));
    return reply.code(204).send();
  });

  app.delete('/identity/v1/mfa/credentials/phone-numbers', { schema: removePhoneSchema }, async (req, reply) => {
    const params = requireSingle(req.body ?? {}, isJson(req.headers['content-type']));
    const ctx = await caller(req, true);
    await remove(ctx, 'sms', phoneOf(params), localeOf(req));
    return reply.code(204).send();
  });

  app.get('/identity/v1/mfa/trusteddevices', { schema: listTrustedDevicesSchema }, async (req, reply) => {
    const ctx = await caller(req, false);
    const devices = await r.storage.trustedDevices.listOfUser(ctx.user.id, r.clock.now());
    return reply.header('Cache-Control', 'no-store').send({
      trusted_devices: devices.map((d) => ({
        id: d.id,
        user_id: d.user_id,
        created_at: new Date(d.created_at).toISOString(),
        expires_at: new Date(d.expires_at).toISOString(),
        metadata: { device_name: d.name },
      })),
    });
  });

  app.delete('/identity/v1/mfa/trusteddevices/:id', { schema: trustedDeviceParams }, async (req, reply) => {
    const ctx = await caller(req, false);
    // Another user's device id is simply not found (no IDOR).
    if (!(await r.storage.trustedDevices.revoke(req.params.id.slice(0, 64), ctx.user.id, r.clock.now())))
      throw notFound('No such trusted device');
    return reply.code(204).send();
  });
}
