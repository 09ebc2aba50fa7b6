import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ResourceLookup } from '../../resources/service.js';
import type { WardApp } from '../typed-app.js';
import { SESSION_COOKIE } from '../../accounts/sessions.js';
import type { CheckedCode } from '../../accounts/codes.js';
import { WardError } from '../../errors/ward-error.js';
import { CSRF_COOKIE, csrfValid } from '../../interaction/csrf.js';
import type { Interaction } from '../../interaction/service.js';
import { invalidLinkPage } from '../../interaction/pages/self-service.js';
import { passwordlessConfirmPage, passwordlessSentPage } from '../../interaction/pages/passwordless.js';
import {
  isLinkToken,
  passwordlessAddressOf,
  type PasswordlessAddress,
  type Passwordless,
  type PasswordlessMethod,
  type Redeemed,
} from '../../passwordless/service.js';
import { failureReason, signInAudit } from '../../sign-in-methods/audit.js';
import { validateAuthorizeRequest } from '../../protocol/authorize/pipeline.js';
import { requireSingle } from '../../protocol/params.js';
import { sendAuthorizationJson } from '../authorization-json.js';
import { sendRendered } from '../pages.js';
import type { SignInDeps } from '../sign-in.js';
import { requireAllowedOrigin } from '../sign-in-guard.js';
import { isBrowserRequest, navigatesFrom } from '../browser-binding.js';
import {
  acceptHostedPost,
  answerOutcome,
  browserCookie,
  browserState,
  ensureCsrf,
  sameOriginPost,
} from './hosted-form.js';
import { pageLanguage, requestLanguage } from '../page-language.js';
import { hostedMessage } from '../../interaction/pages/hosted-messages.js';
import { isJson } from './identity-request.js';
import {
  hostedPasswordlessSchema,
  hostedPasswordlessVerifySchema,
  passwordlessConfirmSchema,
  passwordlessVerifyGetSchema,
  verifyAuthCodeSchema,
} from './schemas/passwordless.js';
import { TRUSTED_DEVICE_COOKIE } from './trusted-device.js';
import type { ClientService } from '../../clients/service.js';
import type { AccountSettings, WardConfig } from '../../config/types.js';
import type { Clock } from '../../lib/clock.js';
import type { Limiter } from '../../limits/rate-limit.js';
import type { Storage } from '../../storage/storage.js';
import type { SecurityEvents } from '../../audit/events.js';
import { type Captcha, isCaptchaRefusal } from '../../captcha/siteverify.js';

/** The services this module uses (registry.ts builds them; the composition passes them in). */
interface Deps {
  account: () => AccountSettings;
  captcha: Pick<Captcha, 'check' | 'checkHosted'>;
  clients: ClientService;
  /** The API resources a `resource` parameter may name (RFC 8707). */
  resources: ResourceLookup;
  clock: Clock;
  config: WardConfig;
  limiter: Limiter;
  masterKey: Buffer;
  events: SecurityEvents;
  passwordless: Passwordless;
  storage: Storage;
}

/** The passwordless method a request names: its auth_type, or a link's token (links go by email only). */
function methodOf(params: Record<string, unknown>): PasswordlessMethod | null {
  if (params.auth_type === 'magic_link' || params.auth_type === 'sms') return params.auth_type;
  return params.auth_type === undefined && isLinkToken(params.verification_code) ? 'magic_link' : null;
}

/** A refused code or link is a login.failed of its method (when the request names one); the caller answers it. */
async function recordRefusal(
  r: Pick<Deps, 'events'>,
  req: FastifyRequest,
  params: Record<string, unknown>,
  e: unknown,
  clientId?: string,
): Promise<void> {
  const method = methodOf(params);
  if (method && e instanceof WardError && e.status < 500)
    await signInAudit(r.events).failed({
      method,
      clientId,
      ip: req.ip,
      reason: failureReason(e),
      userId: e.audit?.userId,
    });
}

/** The first factor a redeemed code or link proved, for afterFirstFactor (which records login.succeeded). */
const firstFactor = (done: Redeemed, authTime: number) => ({
  user: done.user,
  amr: done.amr,
  authTime,
  method: done.method,
  detail: { created: done.created },
});

/** What the SDK sends with the OAuth parameters that is not one of them. */
const NOT_OAUTH = new Set(['auth_type', 'email', 'phone_number', 'captcha_token', 'captcha_provider', 'origin']);

/**
 * The first-factor halves of `POST /identity/v1/passwordless/start` and `/verify`: stepup.ts owns those
 * paths (the step-up flow) and hands a request over here when it carries no step_up / challenge_id.
 */
export function passwordlessFirstFactor(r: Deps, signIn: SignInDeps) {
  /**
   * The web_message verify's first factor: the code checked, its interaction found, the call from an
   * allowed origin of the client that started the sign-in, the code used. A refusal is recorded first.
   */
  async function redeemed(req: FastifyRequest, params: Record<string, unknown>) {
    let clientId: string | undefined;
    try {
      const row = await r.passwordless.check(passwordlessAddressOf(params), params.verification_code);
      const interaction = await signIn.interactions.byDigest(row.values.interaction);
      if (!interaction) throw new WardError('invalidVerificationCode');
      clientId = interaction.request.client.client_id;
      requireAllowedOrigin(req, new Set(interaction.request.client.allowed_origins), r.config.issuer);
      return { interaction, done: await r.passwordless.redeem(row) };
    } catch (e) {
      await recordRefusal(r, req, params, e, clientId);
      throw e;
    }
  }

  return {
    /** Stores the authorization request and sends the link or code; `{}` whether an account exists or not. */
    async start(req: FastifyRequest, reply: FastifyReply, params: Record<string, unknown>) {
      const a = passwordlessAddressOf(params);
      const oauth = Object.fromEntries(Object.entries(params).filter(([k]) => !NOT_OAUTH.has(k)));
      const v = await validateAuthorizeRequest(oauth, [], (id) => r.clients.find(id), r.resources);
      if (!v.ok) throw v.error;
      await r.captcha.check('passwordless_start', params, req.ip);
      await r.passwordless.admit(a);
      // Bound to this browser: its pre-login cookie, set now if it has none. A same-site app's browser
      // keeps it, so its magic link signs in there directly; elsewhere the link asks for confirmation.
      const browser = browserCookie(req, reply);
      const ttl = r.account().self_service.link_ttl * 1000;
      const pending = signIn.interactions.prepare(v.req, 'passwordless', browser, ttl);
      await pending.save();
      const origin = req.headers.origin;
      r.passwordless.send(a, {
        interactionDigest: pending.digest,
        clientId: v.req.client.client_id,
        locale: requestLanguage(req, { uiLocales: v.req.uiLocales }),
        origin: origin && origin !== 'null' ? origin : undefined,
      });
      return reply.header('Cache-Control', 'no-store').send({});
    },

    /** The SDK's web_message mode: the code (no OAuth parameters) finishes the stored request, as JSON. */
    async verify(req: FastifyRequest, reply: FastifyReply, params: Record<string, unknown>) {
      const { interaction, done } = await redeemed(req, params);
      const outcome = await signIn.nextStep.afterFirstFactor(interaction, firstFactor(done, r.clock.now()), {
        sessionCookie: req.cookies[SESSION_COOKIE],
        trustedDeviceCookie: req.cookies[TRUSTED_DEVICE_COOKIE],
        language: (userLocale) => requestLanguage(req, { uiLocales: interaction.request.uiLocales, userLocale }),
        ip: req.ip,
        userAgent: req.headers['user-agent'],
      });
      // The JSON mode has no second-factor screen: the hosted flow (the link, GET verify) has.
      if (outcome.kind === 'second_factor') throw new WardError('mfaRequired');
      // Nor an enrolment page (interaction/enrolment.ts refuses first: no page to show).
      if (outcome.kind === 'enrol') throw new WardError('mfaEnrollmentRequired');
      if (outcome.kind === 'expired') throw new WardError('invalidVerificationCode');
      // Nor a consent page (a third-party client: consent_required unless already granted).
      if (outcome.kind === 'consent') throw new WardError('authorizeConsentRequired');
      // Nor the consents to accept again (interaction/reconsent.ts refuses first: no page to show).
      if (outcome.kind === 'reconsent') throw new WardError('authorizeReconsentRequired');
      return sendAuthorizationJson(r, reply, outcome);
    },
  };
}

/**
 * Passwordless first factors by navigation: the emailed link and the SDK's default-mode verify
 * (`GET /identity/v1/passwordless/verify`, answered by redirect), the confirmation of a link opened in
 * another browser, and `verify-auth-code` (a code checked without being used).
 */
export function passwordlessRoutes(app: WardApp, r: Deps, signIn: SignInDeps): void {
  const limit = (req: FastifyRequest) => r.limiter('verification', req.ip, r.account().rate_limits.verification);

  /** Redeems the row and finishes its interaction; a navigation naming another client is refused first. */
  async function finish(req: FastifyRequest, reply: FastifyReply, row: CheckedCode, clientId?: unknown) {
    const interaction = await signIn.interactions.byDigest(row.values.interaction);
    if (!interaction || (clientId !== undefined && clientId !== interaction.request.client.client_id))
      throw new WardError('invalidVerificationCode');
    const done = await r.passwordless.redeem(row);
    const outcome = await signIn.nextStep.afterFirstFactor(
      interaction,
      firstFactor(done, r.clock.now()),
      browserState(req, reply, interaction.request),
    );
    return answerOutcome(r, req, reply, outcome);
  }

  /**
   * A link or code opened in a browser that did not ask for it (login CSRF: a stranger's own link
   * would sign this browser into the stranger's account): the user confirms who they sign in as.
   */
  function confirm(
    req: FastifyRequest,
    reply: FastifyReply,
    a: PasswordlessAddress,
    code: string,
    interaction: Interaction,
  ) {
    return sendRendered(
      reply,
      passwordlessConfirmPage(pageLanguage(req, interaction.request), {
        clientName: interaction.request.client.name,
        method: a.method,
        address: a.address,
        token: code,
        csrf: ensureCsrf(r, req, reply),
        target: interaction.request.target,
      }),
    );
  }

  /** Refusals of a navigation are a page (nothing here can be trusted to redirect to), and audit events. */
  async function asPage(
    req: FastifyRequest,
    reply: FastifyReply,
    params: Record<string, unknown>,
    run: () => Promise<FastifyReply>,
  ) {
    try {
      return await run();
    } catch (e) {
      if (!(e instanceof WardError) || e.status >= 500) throw e;
      await recordRefusal(r, req, params, e);
      return sendRendered(reply, invalidLinkPage(pageLanguage(req)));
    }
  }

  app.get('/identity/v1/passwordless/verify', { schema: passwordlessVerifyGetSchema }, async (req, reply) => {
    await limit(req);
    const q = requireSingle(req.query);
    return asPage(req, reply, q, async () => {
      const a = passwordlessAddressOf(q);
      const row = await r.passwordless.check(a, q.verification_code);
      // A link or a typed code signs in by this GET only in the browser that started the sign-in
      // (login CSRF): its pre-login cookie; for a typed code also a navigation from the page of the app
      // that asked, or no browser's navigation at all. Anywhere else the user confirms first.
      const interaction = await signIn.interactions.byDigest(row.values.interaction);
      if (!interaction) throw new WardError('invalidVerificationCode');
      const bound =
        (await signIn.interactions.boundTo(interaction, req.cookies[CSRF_COOKIE])) ||
        (!isLinkToken(q.verification_code) && (!isBrowserRequest(req) || navigatesFrom(req, row.values.origin)));
      if (!bound) return confirm(req, reply, a, String(q.verification_code), interaction);
      return finish(req, reply, row, q.client_id);
    });
  });

  app.post('/identity/v1/passwordless/confirm', { schema: passwordlessConfirmSchema }, async (req, reply) => {
    await limit(req);
    const params = requireSingle(req.body);
    if (!sameOriginPost(req, r.config.issuer) || !csrfValid(r.masterKey, req.cookies[CSRF_COOKIE], params.csrf))
      return sendRendered(reply, invalidLinkPage(pageLanguage(req)));
    return asPage(req, reply, params, async () => {
      // A typed code names its address; a link's token finds its row by itself.
      const row =
        params.auth_type === undefined && isLinkToken(params.verification_code)
          ? await r.passwordless.findLink(params.verification_code)
          : await r.passwordless.check(passwordlessAddressOf(params), params.verification_code);
      if (!row) throw new WardError('invalidVerificationCode');
      return finish(req, reply, row);
    });
  });

  /** The code form of a hosted passwordless sign-in (after the request, or after a refused code). */
  function sentPage(
    req: FastifyRequest,
    reply: FastifyReply,
    at: { interaction: Interaction; handle: string },
    status: number,
    a: PasswordlessAddress,
    error?: string,
  ) {
    return sendRendered(
      reply,
      passwordlessSentPage(status, {
        clientName: at.interaction.request.client.name,
        interaction: at.handle,
        csrf: ensureCsrf(r, req, reply),
        method: a.method,
        address: a.address,
        target: at.interaction.request.target,
        error,
        language: pageLanguage(req, at.interaction.request),
      }),
    );
  }

  // The login page's "Email me a sign-in link" / "Text me a code": the code form (a link opened in this browser
  // works too).
  app.post('/oauth/authorize/passwordless', { schema: hostedPasswordlessSchema }, async (req, reply) => {
    const accepted = await acceptHostedPost(r, signIn.interactions, req, reply);
    if (!accepted) return reply;
    const { params, interaction, handle } = accepted;
    const page = (status: number, a: PasswordlessAddress, error?: string) =>
      sentPage(req, reply, { interaction, handle }, status, a, error);
    const a = passwordlessAddressOf(params);
    try {
      await limit(req);
      await r.captcha.checkHosted('passwordless_start', params, req.ip);
      await r.passwordless.admit(a);
    } catch (e) {
      // A refused captcha: back to the login page, which says so (its forms draw the widget again).
      if (isCaptchaRefusal(e)) {
        const refused = { captchaMissing: 'missing', captchaFailed: 'failed' }[e.id as string] ?? 'unavailable';
        return reply.redirect(
          `/oauth/authorize/login?interaction=${encodeURIComponent(handle)}&captcha=${refused}`,
          303,
        );
      }
      if (!(e instanceof WardError) || e.status >= 500) throw e;
      return page(e.status, a, e.userMessage(pageLanguage(req, interaction.request)));
    }
    const clientId = interaction.request.client.client_id;
    r.passwordless.send(a, {
      interactionDigest: interaction.digest,
      clientId,
      locale: requestLanguage(req, { uiLocales: interaction.request.uiLocales }),
    });
    return page(200, a);
  });

  app.post('/oauth/authorize/passwordless/verify', { schema: hostedPasswordlessVerifySchema }, async (req, reply) => {
    const accepted = await acceptHostedPost(r, signIn.interactions, req, reply);
    if (!accepted) return reply;
    const { params, interaction, handle } = accepted;
    const a = passwordlessAddressOf(params);
    try {
      await limit(req);
      const row = await r.passwordless.check(a, params.verification_code);
      if (row.values.interaction !== interaction.digest) throw new WardError('invalidVerificationCode');
      return await finish(req, reply, row);
    } catch (e) {
      if (!(e instanceof WardError) || e.status >= 500) throw e;
      await recordRefusal(r, req, params, e, interaction.request.client.client_id);
      const language = pageLanguage(req, interaction.request);
      const error = e.id === 'invalidVerificationCode' ? hostedMessage(language, 'wrongCode') : e.userMessage(language);
      return sentPage(req, reply, { interaction, handle }, e.status, a, error);
    }
  });

  app.post('/identity/v1/verify-auth-code', { schema: verifyAuthCodeSchema }, async (req, reply) => {
    await limit(req);
    const params = requireSingle(req.body, isJson(req.headers['content-type']));
    await r.passwordless.check(passwordlessAddressOf(params), params.verification_code);
    return reply.code(204).send();
  });
}
