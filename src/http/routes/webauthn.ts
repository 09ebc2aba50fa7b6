// Passkeys for the Core SDK, /identity/v1/webauthn/*: signup and sign-in (each ends in a tkn the SDK
// takes to /oauth/authorize, where next-step decides the rest), and a signed-in user's passkeys
// (Bearer): add, list, remove. A passkey signs in (with `mfa` when it verified the user), so adding or
// removing one is a factor change: the same fresh step-up as any other when the user has a verified
// factor (requireFreshStepUp), trusted devices revoked, the user told. The ceremonies are in src/passkeys.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { normalizeEmail, normalizePhone } from '../../accounts/identifiers.js';
import { invalidField } from '../../errors/refusals.js';
import { WardError } from '../../errors/ward-error.js';
import { randomId } from '../../lib/random.js';
import { authenticationResponse, registrationResponse, snakeKeys } from '../../passkeys/wire.js';
import { verifyBearer } from '../../protocol/bearer.js';
import { resourceRequest } from '../resource-request.js';
import { requireSingle, str, type Params } from '../../protocol/params.js';
import type { WardApp } from '../typed-app.js';
import { clientOf, isJson, localeOf, scopeOf } from './identity-request.js';
import type { FactorChange } from '../../integrations/notices.js';
import { requireFreshStepUp, verifiedFactors } from '../../stepup/factors.js';
import { resetAddressOf } from '../../self-service/address-request.js';
import {
  authenticationOptionsSchema,
  authenticationSchema,
  deviceParamsSchema,
  devicesSchema,
  registrationOptionsSchema,
  registrationSchema,
  resetOptionsSchema,
  resetSchema,
  signupOptionsSchema,
  signupSchema,
} from './schemas/webauthn.js';
import { tknBinding } from '../browser-binding.js';
import { LITE_PROFILE } from '../../accounts/lite-profiles.js';
import type { UserService } from '../../accounts/users.js';
import type { SecurityEvents, StagedEvent } from '../../audit/events.js';
import type { ClientService } from '../../clients/service.js';
import type { AccountSettings } from '../../config/types.js';
import type { Clock } from '../../lib/clock.js';
import type { Limiter } from '../../limits/rate-limit.js';
import type { Passkeys } from '../../passkeys/service.js';
import type { AccessTokenCodec } from '../../protocol/access-token-codec.js';
import type { TknService } from '../../protocol/tkn.js';
import type { AccountRecovery } from '../../self-service/account-recovery.js';
import type { FactorNotices } from '../../stepup/factor-notices.js';
import type { Storage } from '../../storage/storage.js';

/** The services this module uses (registry.ts builds them; the composition passes them in). */
export interface WebauthnDeps {
  accessTokens: AccessTokenCodec;
  account: () => AccountSettings;
  clients: ClientService;
  clock: Clock;
  events: SecurityEvents;
  limiter: Limiter;
  notices: FactorNotices;
  passkeys: Passkeys;
  recovery: AccountRecovery;
  storage: Storage;
  tkn: TknService;
  users: UserService;
}
import { failureReason, signInAudit } from '../../sign-in-methods/audit.js';

const BASE = '/identity/v1/webauthn';

const bodyOf = (req: FastifyRequest): Params => requireSingle(req.body, isJson(req.headers['content-type']));
const friendlyName = (params: Params): string => str(params, 'friendly_name', 200) ?? 'Passkey';
const noStore = (reply: FastifyReply) => reply.header('Cache-Control', 'no-store');
const iso = (ms: number | null) => (ms === null ? undefined : new Date(ms).toISOString());

export function webauthnRoutes(app: WardApp, r: WebauthnDeps): void {
  const limit = (kind: 'login' | 'signup', ip: string) => r.limiter(kind, ip, r.account().rate_limits[kind]);
  const audit = signInAudit(r.events);

  app.post(`${BASE}/signup-options`, { schema: signupOptionsSchema }, async (req, reply) => {
    r.passkeys.ensureEnabled();
    const params = bodyOf(req);
    await limit('signup', req.ip);
    const client = await clientOf(r, params);
    const scope = scopeOf(params).join(' ');
    const raw = params.profile;
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
      throw invalidField('profile', 'must be an object with email or phone_number');
    const profile = await r.users.passwordlessProfile(raw as Record<string, unknown>);
    const name = (profile.email ?? profile.phone_number)!;
    const options = await r.passkeys.creationOptions(
      'signup',
      {
        id: randomId(),
        name,
        displayName: [profile.given_name, profile.family_name].filter(Boolean).join(' ') || name,
      },
      {
        clientId: client.client_id,
        origin: params.origin,
        data: { friendlyName: friendlyName(params), scope, profile },
      },
    );
    return noStore(reply).send({ friendly_name: friendlyName(params), options: { public_key: snakeKeys(options) } });
  });

  app.post(`${BASE}/signup`, { schema: signupSchema }, async (req, reply) => {
    r.passkeys.ensureEnabled();
    const params = bodyOf(req);
    await limit('signup', req.ip);
    const credential = registrationResponse(params.public_key_credential, 'public_key_credential');
    const v = await r.passkeys.verifyCreation<{
      origin: string;
      friendlyName: string;
      scope: string;
      profile: Parameters<UserService['createPasswordless']>[1];
    }>('signup', credential);
    const webauthnId = str(params, 'webauthn_id', 200);
    if (
      webauthnId !== undefined &&
      webauthnId.replace(/=+$/, '') !== Buffer.from(v.passkey.user_id).toString('base64url')
    )
      throw invalidField('webauthn_id', 'must be the user id of the options');
    // The passkey and the signup's webhook event are written with the user, in its transaction.
    let signedUp: StagedEvent | undefined;
    const user = await r.users.createPasswordless(
      v.passkey.user_id,
      v.data.profile,
      async (tx, u) => {
        await tx.passkeys.insert(v.passkey);
        signedUp = await r.events.stage(tx, 'passkey.signup', { client_id: v.clientId, user_id: u.id });
      },
      { method: 'passkey' },
    );
    const tkn = await r.tkn.issue(user.id, v.clientId, {
      scope: v.data.scope,
      amr: r.passkeys.amr(v.userVerified),
      auth_time: r.clock.now(),
      mfa_pending: false,
      ...tknBinding(req, reply),
    });
    if (signedUp) r.events.emitStaged(signedUp, 'signup with a passkey');
    return noStore(reply).send({ tkn });
  });

  app.post(`${BASE}/authentication-options`, { schema: authenticationOptionsSchema }, async (req, reply) => {
    r.passkeys.ensureEnabled();
    const params = bodyOf(req);
    await limit('login', req.ip);
    const client = await clientOf(r, params);
    const scope = scopeOf(params).join(' ');
    const named = params.email !== undefined || params.phone_number !== undefined;
    let forUser: { userId: string } | { nobody: true } | { anyone: true } = { anyone: true };
    if (named) {
      const email = normalizeEmail(params.email);
      const phone = email ? null : normalizePhone(params.phone_number);
      if (!email && !phone)
        throw invalidField('email', 'must be a valid email address (or phone_number an E.164 number)');
      const user = email ? await r.storage.users.findByEmail(email) : await r.storage.users.findByPhone(phone!);
      const signsIn = user && !user.disabled && !user.lite;
      forUser = user && signsIn ? { userId: user.id } : { nobody: true };
    }
    const options = await r.passkeys.requestOptions(forUser, {
      clientId: client.client_id,
      origin: params.origin,
      data: { scope },
    });
    return noStore(reply).send({ public_key: snakeKeys(options) });
  });

  app.post(`${BASE}/authentication`, { schema: authenticationSchema }, async (req, reply) => {
    r.passkeys.ensureEnabled();
    const params = bodyOf(req);
    await limit('login', req.ip);
    const assertion = authenticationResponse(params, '');
    const attempt = { method: 'passkey' as const, ip: req.ip };
    const v = await r.passkeys.verifyAssertion<{ origin: string; scope: string }>(assertion).catch(async (e) => {
      if (e instanceof WardError) await audit.failed({ ...attempt, reason: failureReason(e) });
      throw e;
    });
    const refuse = async (e: WardError, userId?: string) => {
      await audit.failed({ ...attempt, clientId: v.clientId, reason: failureReason(e), userId });
      return e;
    };
    // A challenge of the hosted login page (bound to an interaction, no scope) is not one of this API.
    if (typeof v.data.scope !== 'string') throw await refuse(new WardError('passkeyChallenge'));
    const user = await r.users.find(v.userId);
    if (!user || user.disabled)
      throw await refuse(new WardError('passkeyNotVerified', { description: 'Unknown passkey' }), user?.id);
    // A lite profile signs in with nothing, even a passkey it somehow has: answered like an unknown passkey.
    if (user.lite)
      throw await refuse(
        new WardError('passkeyNotVerified', { description: 'Unknown passkey', audit: { reason: LITE_PROFILE } }),
        user.id,
      );
    const amr = r.passkeys.amr(v.userVerified);
    // No step-up decided here: /oauth/authorize hands the tkn's amr to next-step, the one place that
    // decides whether MFA required = Always still wants a second factor (a `mfa` amr does not).
    const tkn = await r.tkn.issue(user.id, v.clientId, {
      scope: v.data.scope,
      amr,
      auth_time: r.clock.now(),
      mfa_pending: false,
      ...tknBinding(req, reply),
    });
    await r.events.emit('passkey.login', { client_id: v.clientId, user_id: user.id, amr }, 'passkey login');
    // The sign-in's event; whether a second factor is still owed is decided where the tkn is used.
    await audit.succeeded({ ...attempt, clientId: v.clientId, userId: user.id, amr });
    return noStore(reply).send({ tkn });
  });

  const bearer = (req: FastifyRequest) => verifyBearer(r, resourceRequest(req));
  /** The caller of a passkey change: a fresh step-up when they have a verified factor (MF-01). */
  const changer = async (req: FastifyRequest) => {
    const ctx = await bearer(req);
    await requireFreshStepUp(
      { storage: r.storage, now: r.clock.now() },
      { userId: ctx.user.id, amr: ctx.amr, authTime: ctx.authTime },
    );
    return ctx;
  };
  /** After a passkey change: trusted devices revoked, the user told on the account's channels (MF-03). */
  async function changed(ctx: Awaited<ReturnType<typeof bearer>>, change: FactorChange, req: FastifyRequest) {
    const now = r.clock.now();
    await r.storage.trustedDevices.revokeAllOfUser(ctx.user.id, now);
    r.notices.factorChanged({
      user: ctx.user,
      change,
      factor: { type: 'passkey' },
      before: await verifiedFactors(r.storage, ctx.user.id),
      at: now,
      locale: localeOf(req),
    });
  }

  app.post(`${BASE}/registration-options`, { schema: registrationOptionsSchema }, async (req, reply) => {
    const ctx = await changer(req);
    r.passkeys.ensureEnabled();
    const params = bodyOf(req);
    const u = ctx.user;
    const name = u.email ?? u.phone_number ?? u.id;
    const options = await r.passkeys.creationOptions(
      'register',
      { id: u.id, name, displayName: [u.given_name, u.family_name].filter(Boolean).join(' ') || name },
      { clientId: ctx.clientId, origin: params.origin, data: { friendlyName: friendlyName(params) } },
    );
    return noStore(reply).send({ friendly_name: friendlyName(params), options: { public_key: snakeKeys(options) } });
  });

  app.post(`${BASE}/registration`, { schema: registrationSchema }, async (req, reply) => {
    const ctx = await changer(req);
    r.passkeys.ensureEnabled();
    const v = await r.passkeys.verifyCreation('register', registrationResponse(bodyOf(req), ''));
    // A challenge minted for another user (another token) is no challenge of this user.
    if (v.passkey.user_id !== ctx.user.id) throw new WardError('passkeyChallenge');
    const fields = { client_id: ctx.clientId, user_id: ctx.user.id };
    const added = await r.storage.transaction(async (tx) => {
      await tx.passkeys.insert(v.passkey);
      return r.events.stage(tx, 'passkey.added', fields);
    });
    await changed(ctx, 'factor_added', req);
    r.events.emitStaged(added, 'passkey added');
    return reply.code(204).send();
  });

  // After account recovery (requestAccountRecovery): the code names the user, who registers a new passkey.
  app.post(`${BASE}/reset-options`, { schema: resetOptionsSchema }, async (req, reply) => {
    await limit('login', req.ip);
    const params = bodyOf(req);
    const client = await clientOf(r, params);
    r.passkeys.ensureEnabled();
    const { user } = await r.recovery.check(resetAddressOf(params), params.verification_code);
    const name = user.email ?? user.phone_number ?? user.id;
    const options = await r.passkeys.creationOptions(
      'reset',
      { id: user.id, name, displayName: [user.given_name, user.family_name].filter(Boolean).join(' ') || name },
      { clientId: client.client_id, origin: params.origin, data: { friendlyName: friendlyName(params) } },
    );
    return noStore(reply).send({ friendly_name: friendlyName(params), options: { public_key: snakeKeys(options) } });
  });

  app.post(`${BASE}/reset`, { schema: resetSchema }, async (req, reply) => {
    await limit('login', req.ip);
    const params = bodyOf(req);
    await clientOf(r, params);
    r.passkeys.ensureEnabled();
    const { user, row } = await r.recovery.check(resetAddressOf(params), params.verification_code);
    const v = await r.passkeys.verifyCreation(
      'reset',
      registrationResponse(params.public_key_credential, 'public_key_credential'),
    );
    if (v.passkey.user_id !== user.id) throw new WardError('passkeyChallenge');
    await r.recovery.complete(user, row, v.passkey);
    return reply.code(204).send();
  });

  app.get(`${BASE}/registration`, { schema: devicesSchema }, async (req, reply) => {
    const ctx = await bearer(req);
    const keys = await r.passkeys.list(ctx.user.id);
    return noStore(reply).send(
      keys.map((k) => ({
        id: k.id,
        friendly_name: k.friendly_name,
        created_at: iso(k.created_at),
        last_used_at: iso(k.last_used_at),
        ...(k.aaguid ? { aaguid: k.aaguid } : {}),
      })),
    );
  });

  app.delete<{ Params: { id: string } }>(
    `${BASE}/registration/:id`,
    { schema: deviceParamsSchema },
    async (req, reply) => {
      const ctx = await changer(req);
      if (req.params.id.length > 64) throw new WardError('notFound', { description: 'No such passkey' });
      let removed: StagedEvent | undefined;
      await r.passkeys.remove(ctx.user, req.params.id, async (tx) => {
        removed = await r.events.stage(tx, 'passkey.removed', { client_id: ctx.clientId, user_id: ctx.user.id });
      });
      await changed(ctx, 'factor_removed', req);
      if (removed) r.events.emitStaged(removed, 'passkey removed');
      return reply.code(204).send();
    },
  );
}
