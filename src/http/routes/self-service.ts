import type { FastifyRequest } from 'fastify';
import { type Captcha, isCaptchaRefusal } from '../../captcha/siteverify.js';
import type { WardApp } from '../typed-app.js';
import { sendRendered } from '../pages.js';
import { afterAnswer } from '../after-answer.js';
import { clientOf, isJson, localeOf } from './identity-request.js';
import { WardError } from '../../errors/ward-error.js';
import { pageLanguage, requestLanguage } from '../page-language.js';
import { missingField } from '../../errors/refusals.js';
import { verifyBearer } from '../../protocol/bearer.js';
import { resourceRequest } from '../resource-request.js';
import { requireSingle, str } from '../../protocol/params.js';
import { requireFreshStepUp } from '../../stepup/factors.js';
import { changePassword } from '../../self-service/password-change.js';
import { resetAddressOf } from '../../self-service/address-request.js';
import { allowedReturnUrl } from '../../self-service/return-url.js';
import { CSRF_COOKIE, csrfValid } from '../../interaction/csrf.js';
import { textsIn } from '../../texts/texts.js';
import { ensureCsrf, sameOriginPost } from './hosted-form.js';
import {
  emailConfirmPage,
  emailVerifiedPage,
  forgotPasswordPage,
  forgotPasswordSentPage,
  invalidLinkPage,
  passwordResetDonePage,
  resetFormPage,
} from '../../interaction/pages/self-service.js';
import {
  accountRecoverySchema,
  emailLinkFormSchema,
  emailLinkSchema,
  forgotFormSchema,
  forgotPageSchema,
  forgotPasswordSchema,
  resetFormSchema,
  resetPageSchema,
  sendEmailVerificationSchema,
  sendPhoneVerificationSchema,
  updateEmailSchema,
  updatePasswordSchema,
  updatePhoneSchema,
  verifyEmailSchema,
  verifyPhoneSchema,
} from './schemas/self-service.js';
import type { UserService } from '../../accounts/users.js';
import type { SecurityEvents } from '../../audit/events.js';
import type { ClientService } from '../../clients/service.js';
import type { AccountSettings, WardConfig } from '../../config/types.js';
import type { Delivery } from '../../integrations/delivery.js';
import type { Background } from '../../lib/background.js';
import type { Clock } from '../../lib/clock.js';
import type { Outbound } from '../../lib/outbound/client.js';
import type { Limiter } from '../../limits/rate-limit.js';
import type { LogoutDelivery } from '../../logout/backchannel.js';
import type { AccessTokenCodec } from '../../protocol/access-token-codec.js';
import type { AccountRecovery } from '../../self-service/account-recovery.js';
import type { Addresses } from '../../self-service/addresses.js';
import type { PasswordReset } from '../../self-service/password-reset.js';
import type { Storage } from '../../storage/storage.js';

/** The services this module uses (registry.ts builds them; the composition passes them in). */
export interface SelfServiceDeps {
  accessTokens: AccessTokenCodec;
  account: () => AccountSettings;
  addresses: Addresses;
  background: Background;
  captcha: Pick<Captcha, 'check' | 'checkHosted' | 'widget'>;
  clients: ClientService;
  clock: Clock;
  config: WardConfig;
  delivery: Delivery;
  events: SecurityEvents;
  limiter: Limiter;
  logoutDelivery: LogoutDelivery;
  masterKey: Buffer;
  outbound: Outbound;
  passwordReset: PasswordReset;
  recovery: AccountRecovery;
  storage: Storage;
  users: UserService;
}

/**
 * Account self-service (identity-api.md, "Account self-service"): email and phone verification,
 * changes of email, phone and password by the signed-in user, and "forgot your password?" with its
 * hosted pages. The rules are in src/self-service/; these routes read, call and answer.
 */
export function selfServiceRoutes(app: WardApp, r: SelfServiceDeps): void {
  const limit = (req: FastifyRequest) => r.limiter('self_service', req.ip, r.account().rate_limits.verification);
  const body = (req: FastifyRequest) => requireSingle(req.body, isJson(req.headers['content-type']));
  const bearer = (req: FastifyRequest, authorization = req.headers.authorization) =>
    verifyBearer(r, resourceRequest(req, authorization));
  const clientById = (id: string) => r.clients.find(id);
  const sensitive = (ctx: Awaited<ReturnType<typeof bearer>>) =>
    requireFreshStepUp(
      { storage: r.storage, now: r.clock.now() },
      { userId: ctx.user.id, amr: ctx.amr, authTime: ctx.authTime },
    );

  app.post('/identity/v1/send-email-verification', { schema: sendEmailVerificationSchema }, async (req, reply) => {
    await limit(req);
    const ctx = await bearer(req);
    const params = body(req);
    const client = await clientById(ctx.clientId);
    const sent = await r.addresses.sendEmailVerification(ctx.user, {
      clientId: ctx.clientId,
      redirectUrl: allowedReturnUrl(client, 'redirect_url', params.redirect_url),
      returnTo: allowedReturnUrl(
        client,
        'return_to_after_email_confirmation',
        params.return_to_after_email_confirmation,
      ),
      locale: localeOf(req),
    });
    return reply.header('Cache-Control', 'no-store').send({ verification_email_sent: sent });
  });

  // The SDK sends the access token in the body here, and no Authorization header.
  app.post('/identity/v1/verify-email', { schema: verifyEmailSchema }, async (req, reply) => {
    await limit(req);
    const params = body(req);
    const token = str(params, 'access_token', 4096);
    const ctx = await bearer(req, req.headers.authorization ?? (token ? `Bearer ${token}` : undefined));
    if (params.email === undefined) throw missingField('email');
    if (params.verification_code === undefined) throw missingField('verification_code');
    await r.addresses.verifyEmail(ctx.user, params.email, params.verification_code);
    return reply.code(204).send();
  });

  // The emailed link shows a page whose button confirms (a mail scanner that opens links confirms nothing).
  app.get('/identity/v1/verify-email/link', { schema: emailLinkSchema }, async (req, reply) => {
    await limit(req);
    const language = pageLanguage(req);
    const q = requireSingle(req.query);
    const link = await r.addresses.peekEmailLink(q.token);
    if (!link) return sendRendered(reply, invalidLinkPage(language));
    return sendRendered(
      reply,
      emailConfirmPage(language, {
        email: link.email,
        token: String(q.token),
        csrf: ensureCsrf(r, req, reply),
        signup: !link.change,
        redirectUrl: link.redirectUrl,
      }),
    );
  });

  // The page's button: confirms the address and goes on to the app's page, or shows Ward's.
  app.post('/identity/v1/verify-email/link', { schema: emailLinkFormSchema }, async (req, reply) => {
    await limit(req);
    const language = pageLanguage(req);
    const params = requireSingle(req.body);
    if (!sameOriginPost(req, r.config.issuer) || !csrfValid(r.masterKey, req.cookies[CSRF_COOKIE], params.csrf))
      return sendRendered(reply, invalidLinkPage(language));
    let done: Awaited<ReturnType<typeof r.addresses.confirmEmailLink>>;
    try {
      done = await r.addresses.confirmEmailLink(params.token);
    } catch (e) {
      if (e instanceof WardError && e.status < 500) return sendRendered(reply, invalidLinkPage(language));
      throw e;
    }
    if (!done) return sendRendered(reply, invalidLinkPage(language));
    if (done.redirectUrl) return reply.code(303).header('Cache-Control', 'no-store').redirect(done.redirectUrl, 303);
    return sendRendered(reply, emailVerifiedPage(language, done.email, done.returnTo));
  });

  app.post(
    '/identity/v1/send-phone-number-verification',
    { schema: sendPhoneVerificationSchema },
    async (req, reply) => {
      await limit(req);
      const ctx = await bearer(req);
      await r.addresses.sendPhoneVerification(ctx.user, localeOf(req));
      return reply.code(204).send();
    },
  );

  app.post('/identity/v1/verify-phone-number', { schema: verifyPhoneSchema }, async (req, reply) => {
    await limit(req);
    const ctx = await bearer(req);
    const params = body(req);
    if (params.phone_number === undefined) throw missingField('phone_number');
    if (params.verification_code === undefined) throw missingField('verification_code');
    await r.addresses.verifyPhone(ctx.user, params.phone_number, params.verification_code);
    return reply.code(204).send();
  });

  app.post('/identity/v1/update-email', { schema: updateEmailSchema }, async (req, reply) => {
    await limit(req);
    const ctx = await bearer(req);
    const params = body(req);
    if (params.email === undefined) throw missingField('email');
    await sensitive(ctx);
    const client = await clientById(ctx.clientId);
    await r.addresses.requestEmailChange(ctx.user, params.email, {
      clientId: ctx.clientId,
      redirectUrl: allowedReturnUrl(client, 'redirect_url', params.redirect_url),
      locale: localeOf(req),
    });
    return reply.code(204).send();
  });

  app.post('/identity/v1/update-phone-number', { schema: updatePhoneSchema }, async (req, reply) => {
    await limit(req);
    const ctx = await bearer(req);
    const params = body(req);
    if (params.phone_number === undefined) throw missingField('phone_number');
    await sensitive(ctx);
    await r.addresses.requestPhoneChange(ctx.user, params.phone_number, localeOf(req));
    return reply.code(204).send();
  });

  app.post('/identity/v1/forgot-password', { schema: forgotPasswordSchema }, async (req, reply) => {
    await limit(req);
    const params = body(req);
    const client = await clientOf(r, params);
    await r.captcha.check('password_reset', params, req.ip);
    await r.passwordReset.request({
      clientId: client.client_id,
      address: resetAddressOf(params),
      redirectUrl: allowedReturnUrl(client, 'redirect_url', params.redirect_url),
      returnTo: allowedReturnUrl(client, 'return_to_after_password_reset', params.return_to_after_password_reset),
      locale: localeOf(req),
      later: afterAnswer(reply, r.background),
    });
    return reply.code(204).send();
  });

  // requestAccountRecovery: a code (and a link to redirect_url) to register a new passkey; 204 either way.
  app.post('/identity/v1/account-recovery', { schema: accountRecoverySchema }, async (req, reply) => {
    await limit(req);
    const params = body(req);
    const client = await clientOf(r, params);
    await r.recovery.request({
      clientId: client.client_id,
      address: resetAddressOf(params),
      redirectUrl: allowedReturnUrl(client, 'redirect_url', params.redirect_url),
      locale: localeOf(req),
      later: afterAnswer(reply, r.background),
    });
    return reply.code(204).send();
  });

  /**
   * update-password, three ways: with a Bearer token (and old_password when there is one), with the
   * code sent to an email or phone (forgot-password), or with a reset link's user_id and token.
   */
  app.post('/identity/v1/update-password', { schema: updatePasswordSchema }, async (req, reply) => {
    await limit(req);
    const params = body(req);
    const code = params.verification_code;
    if (code === undefined) {
      const ctx = await bearer(req);
      await changePassword(
        r,
        { user: ctx.user, keep: { grant: ctx.grantId }, amr: ctx.amr, authTime: ctx.authTime },
        { oldPassword: params.old_password, password: params.password },
      );
    } else if (params.user_id !== undefined) {
      await r.passwordReset.resetWithLink({ userId: params.user_id, token: code, password: params.password });
    } else {
      if (params.client_id !== undefined) await clientOf(r, params);
      await r.passwordReset.resetWithCode({ address: resetAddressOf(params), code, password: params.password });
    }
    return reply.code(204).send();
  });

  // The hosted pages: "Forgot your password?" (linked from the login page), the reset link's form.
  app.get('/identity/v1/password/forgot', { schema: forgotPageSchema }, async (req, reply) => {
    const query = requireSingle(req.query);
    const client = await clientOf(r, query);
    const uiLocales = str(query, 'ui_locales', 100);
    const language = pageLanguage(req, { uiLocales }); // the sign-in's, passed on by the login page
    const captcha = r.captcha.widget('password_reset');
    return sendRendered(reply, forgotPasswordPage(language, 200, { clientId: client.client_id, uiLocales, captcha }));
  });

  app.post('/identity/v1/password/forgot', { schema: forgotFormSchema }, async (req, reply) => {
    await limit(req);
    const params = requireSingle(req.body);
    const uiLocales = str(params, 'ui_locales', 100);
    const language = pageLanguage(req, { uiLocales }); // the sign-in's, passed on by the login page
    const client = await clientOf(r, params);
    try {
      await r.captcha.checkHosted('password_reset', params, req.ip);
      await r.passwordReset.request({
        clientId: client.client_id,
        address: resetAddressOf(params),
        locale: requestLanguage(req, { uiLocales }),
        later: afterAnswer(reply, r.background),
      });
    } catch (e) {
      if (!(e instanceof WardError) || (e.status >= 500 && !isCaptchaRefusal(e))) throw e;
      const error = e.userMessage(language);
      const form = { clientId: client.client_id, uiLocales, error, captcha: r.captcha.widget('password_reset') };
      return sendRendered(reply, forgotPasswordPage(language, e.status, form));
    }
    return sendRendered(reply, forgotPasswordSentPage(language));
  });

  app.get('/identity/v1/password/reset', { schema: resetPageSchema }, async (req, reply) => {
    const language = pageLanguage(req);
    const q = requireSingle(req.query);
    const found = await r.passwordReset.findLink(q.user_id, q.verification_code);
    if (!found) return sendRendered(reply, invalidLinkPage(language));
    const form = {
      userId: found.user.id,
      token: String(q.verification_code),
      minLength: r.account().password_min_length,
      clientId: found.row.client_id,
    };
    return sendRendered(reply, resetFormPage(language, 200, form));
  });

  app.post('/identity/v1/password/reset', { schema: resetFormSchema }, async (req, reply) => {
    await limit(req);
    const language = pageLanguage(req);
    const params = requireSingle(req.body);
    const found = await r.passwordReset.findLink(params.user_id, params.verification_code);
    if (!found) return sendRendered(reply, invalidLinkPage(language));
    const form = {
      userId: found.user.id,
      token: String(params.verification_code),
      minLength: r.account().password_min_length,
      clientId: found.row.client_id,
    };
    if (params.password !== params.password_confirmation) {
      const error = textsIn(language).pages.selfService.passwordsDiffer;
      return sendRendered(reply, resetFormPage(language, 400, { ...form, error }));
    }
    try {
      const done = await r.passwordReset.resetWithLink({
        userId: params.user_id,
        token: params.verification_code,
        password: params.password,
      });
      return sendRendered(reply, passwordResetDonePage(language, done.returnTo));
    } catch (e) {
      if (!(e instanceof WardError) || e.status >= 500) throw e;
      const error = e.details?.[0]?.message ?? e.userMessage(language);
      return sendRendered(reply, resetFormPage(language, e.status, { ...form, error }));
    }
  });
}
