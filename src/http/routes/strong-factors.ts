import type { FastifyRequest } from 'fastify';
import type { WardApp } from '../typed-app.js';
import { factorCaller } from './factor-caller.js';
import { localeOf } from './identity-request.js';
import { sendAuthorizationJson } from '../authorization-json.js';
import { rememberDevice } from './trusted-device.js';
import { SESSION_COOKIE } from '../../accounts/sessions.js';
import { WardError } from '../../errors/ward-error.js';
import { invalidRequest } from '../../errors/refusals.js';
import { requireSingle } from '../../protocol/params.js';
import { authenticationResponse, snakeKeys } from '../../passkeys/wire.js';
import { TOTP_DESTINATION, type StrongFactors } from '../../stepup/strong-factors.js';
import {
  recoveryCodesSchema,
  recoveryCodesStatusSchema,
  stepUpKeyOptionsSchema,
  stepUpVerifySchema,
  totpEnrolSchema,
  totpRemoveSchema,
  totpStatusSchema,
  totpVerifySchema,
} from './schemas/strong-factors.js';
import type { SignInDeps } from '../sign-in.js';
import type { UserService } from '../../accounts/users.js';
import type { AccountSettings } from '../../config/types.js';
import type { Clock } from '../../lib/clock.js';
import type { Limiter } from '../../limits/rate-limit.js';
import type { AccessTokenCodec } from '../../protocol/access-token-codec.js';
import type { Storage } from '../../storage/storage.js';

/** The services this module uses (registry.ts builds them; the composition passes them in). */
export interface StrongFactorRouteDeps {
  accessTokens: AccessTokenCodec;
  account: () => AccountSettings;
  clock: Clock;
  limiter: Limiter;
  storage: Storage;
  strongFactors: StrongFactors;
  users: UserService;
}

const isJson = (ct: string | undefined) => !!ct?.startsWith('application/json');

/**
 * Authenticator apps (TOTP) and recovery codes through the JSON API (docs/mfa.md), with a Bearer access
 * token like the other factors: enrolling needs a fresh step-up once the user has a factor, removing
 * always does (the app is then a factor). The step-up of a sign-in is answered with either at
 * /identity/v1/mfa/stepup/verify, beside the sent codes' /passwordless/verify (unchanged).
 */
export function strongFactorRoutes(app: WardApp, r: StrongFactorRouteDeps, deps: SignInDeps): void {
  const { interactions, nextStep, stepUps } = deps;
  const limit = (req: FastifyRequest) => r.limiter('verification', req.ip, r.account().rate_limits.verification);

  const caller = (req: FastifyRequest, needsStepUpIfFactors: boolean) => factorCaller(r, req, needsStepUpIfFactors);

  app.get('/identity/v1/mfa/credentials/totp', { schema: totpStatusSchema }, async (req, reply) => {
    const ctx = await caller(req, false);
    const c = await r.storage.mfaCredentials.findOne(ctx.user.id, 'totp', TOTP_DESTINATION);
    const left = await r.strongFactors.recoveryCodesLeft(ctx.user.id);
    return reply.header('Cache-Control', 'no-store').send({
      status: !c ? 'none' : c.verified_at === null ? 'pending' : 'enabled',
      ...(c?.verified_at ? { created_at: new Date(c.verified_at).toISOString() } : {}),
      recovery_codes_left: left,
    });
  });

  app.post('/identity/v1/mfa/credentials/totp', { schema: totpEnrolSchema }, async (req, reply) => {
    await limit(req);
    const ctx = await caller(req, true);
    const started = await r.strongFactors.startTotp(ctx.user);
    return reply
      .header('Cache-Control', 'no-store')
      .send({ secret: started.secret, otpauth_uri: started.uri, qr_svg: started.qrSvg });
  });

  app.post('/identity/v1/mfa/credentials/totp/verify', { schema: totpVerifySchema }, async (req, reply) => {
    await limit(req);
    const params = requireSingle(req.body, isJson(req.headers['content-type']));
    const ctx = await caller(req, true);
    const { recoveryCodes } = await r.strongFactors.confirmTotp(ctx.user, params.verification_code, localeOf(req));
    return reply
      .header('Cache-Control', 'no-store')
      .send({ status: 'enabled', ...(recoveryCodes ? { recovery_codes: recoveryCodes } : {}) });
  });

  app.delete('/identity/v1/mfa/credentials/totp', { schema: totpRemoveSchema }, async (req, reply) => {
    await limit(req);
    const ctx = await caller(req, true);
    await r.strongFactors.removeTotp(ctx.user, localeOf(req));
    return reply.code(204).send();
  });

  app.get('/identity/v1/mfa/recovery-codes', { schema: recoveryCodesStatusSchema }, async (req, reply) => {
    const ctx = await caller(req, false);
    const remaining = await r.strongFactors.recoveryCodesLeft(ctx.user.id);
    return reply.header('Cache-Control', 'no-store').send({ remaining });
  });

  app.post('/identity/v1/mfa/recovery-codes', { schema: recoveryCodesSchema }, async (req, reply) => {
    await limit(req);
    const ctx = await caller(req, true);
    const codes = await r.strongFactors.regenerateRecoveryCodes(ctx.user);
    return reply.header('Cache-Control', 'no-store').send({ recovery_codes: codes });
  });

  // The options for a security key or passkey of the step-up's user to answer it (user verification
  // discouraged, their credentials allowed, the challenge single use and bound to this step-up).
  app.post('/identity/v1/mfa/stepup/webauthn-options', { schema: stepUpKeyOptionsSchema }, async (req, reply) => {
    await limit(req);
    const params = requireSingle(req.body, isJson(req.headers['content-type']));
    const options = await stepUps.webAuthnOptions(params.step_up, params.origin);
    return reply
      .header('Cache-Control', 'no-store')
      .send({ public_key: snakeKeys(options) as Record<string, unknown> });
  });

  // The step-up of /identity/v1/mfa/stepup (an API sign-in's second factor) answered with an authenticator
  // app's code or a recovery code: like /passwordless/verify, the token used up ends its interaction.
  app.post('/identity/v1/mfa/stepup/verify', { schema: stepUpVerifySchema }, async (req, reply) => {
    await limit(req);
    const params = requireSingle(req.body, isJson(req.headers['content-type']));
    const type = params.auth_type;
    if (type !== 'totp' && type !== 'recovery_code' && type !== 'webauthn')
      throw invalidRequest('auth_type must be totp, recovery_code or webauthn', [
        { field: 'auth_type', message: 'must be totp, recovery_code or webauthn', code: 'invalid' },
      ]);
    const done =
      type === 'webauthn'
        ? await stepUps.finishApiStepUpWithKey(params.step_up, authenticationResponse(params.credential, 'credential'))
        : await stepUps.finishApiStepUpWithFactor(params.step_up, type, params.verification_code, localeOf(req));
    const interaction = done.interaction ? await interactions.restore(done.interaction) : null;
    if (!interaction || interaction.request.client.client_id !== done.clientId) throw new WardError('invalidStepUp');
    if (params.trust_device === true || params.trust_device === 'true')
      await rememberDevice(r, reply, done.user.id, req.headers['user-agent']);
    const who = { user: done.user, amr: done.amr, authTime: r.clock.now(), stepUpAction: done.action };
    const outcome = await nextStep.afterSecondFactor(
      interaction,
      who,
      { sessionCookie: req.cookies[SESSION_COOKIE], userAgent: req.headers['user-agent'] },
      true,
    );
    if (outcome.kind !== 'authorized') throw new WardError('invalidStepUp');
    // The last recovery code used: the answer says so, and the client offers a new set (docs/mfa.md).
    const left = done.recoveryCodesLeft;
    const codes = left === undefined ? {} : { recovery_codes_left: left, recovery_codes_renew: left === 0 };
    return sendAuthorizationJson(r, reply, outcome, codes);
  });
}
