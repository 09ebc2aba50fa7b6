import { mustBePushed, pushedParameters } from '../../protocol/par.js';
import { singleValued } from '../../protocol/params.js';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ResourceLookup } from '../../resources/service.js';
import type { RequestObjects } from '../../protocol/authorize/request-object.js';
import type { WardApp } from '../typed-app.js';
import {
  authorizePostSchema,
  authorizeSchema,
  loginFormSchema,
  loginPageSchema,
  passkeyFormSchema,
} from './schemas/authorize.js';
import { SESSION_COOKIE, type SessionService } from '../../accounts/sessions.js';
import type { ErrorName } from '../../errors/catalog.js';
import { WardError } from '../../errors/ward-error.js';
import { loginPage as renderLogin } from '../../interaction/pages/login.js';
import { sendRendered } from '../pages.js';
import { authorizeForm } from '../oauth-body.js';
import { forcesLogin, withinMaxAge } from '../../interaction/next-step.js';
import { verifyIdTokenHint } from '../../protocol/id-token-hint.js';
import type { AuthorizeRequest } from '../../protocol/authorize/request.js';
import type { SignInDeps } from '../sign-in.js';
import { confirmationPage } from './authorize-consent.js';
import { signInConfirmPage } from '../../interaction/pages/confirm.js';
import { isBrowserRequest, tknBoundHere } from '../browser-binding.js';
import {
  acceptHostedPost,
  answerOutcome,
  browserCookie,
  browserState,
  ensureCsrf,
  expiredPage,
  interactionAtLogin,
  validatedRequest,
} from './hosted-form.js';
import { pageLanguage } from '../page-language.js';
import { hostedMessage, type HostedMessage, isHostedMessage } from '../../interaction/pages/hosted-messages.js';
import { startSocialLogin } from './social-start.js';
import { answerFromSession } from './session-answer.js';
import { authenticationResponse } from '../../passkeys/wire.js';
import { sha256 } from '../../lib/secrets.js';
import { LITE_PROFILE } from '../../accounts/lite-profiles.js';
import type { UserService } from '../../accounts/users.js';
import { type Captcha, isCaptchaRefusal } from '../../captcha/siteverify.js';
import type { SecurityEvents } from '../../audit/events.js';
import type { ClientService } from '../../clients/service.js';
import type { AccountSettings, WardConfig } from '../../config/types.js';
import type { KeyStore } from '../../keys/key-store.js';
import type { Clock } from '../../lib/clock.js';
import type { Limiter } from '../../limits/rate-limit.js';
import type { Passkeys } from '../../passkeys/service.js';
import type { TknService } from '../../protocol/tkn.js';
import type { Storage } from '../../storage/storage.js';

/** The services this module uses (registry.ts builds them; the composition passes them in). */
export interface AuthorizeDeps {
  account: () => AccountSettings;
  captcha: Pick<Captcha, 'checkHosted' | 'widget'>;
  clients: ClientService;
  /** The API resources a `resource` parameter may name (RFC 8707). */
  resources: ResourceLookup;
  /** Verifies signed request objects (RFC 9101). */
  requestObjects: RequestObjects;
  clock: Clock;
  config: WardConfig;
  events: SecurityEvents;
  keys: KeyStore;
  limiter: Limiter;
  masterKey: Buffer;
  passkeys: Passkeys;
  sessions: SessionService;
  storage: Storage;
  tkn: TknService;
  users: UserService;
}
import { loginEntries } from '../../sign-in-methods/index.js';
import { failureReason, signInAudit } from '../../sign-in-methods/audit.js';
import { passwordFirstFactor } from '../../sign-in-methods/password/first-factor.js';
import { anyIdentifier } from '../../accounts/sign-in-identifiers.js';
import { socialOutcomes } from './social-outcome.js';

/** The captcha refusals the login page shows when a hosted passwordless request sends the user back. */
const CAPTCHA_REFUSED = new Map<unknown, ErrorName>([
  ['missing', 'captchaMissing'],
  ['failed', 'captchaFailed'],
  ['unavailable', 'captchaUnavailable'],
]);

/** GET and POST /oauth/authorize and the hosted login form it shows (POST /oauth/authorize/login). */
export function authorizeRoutes(app: WardApp, r: AuthorizeDeps, deps: SignInDeps): void {
  const { interactions, nextStep, social } = deps;
  const audit = signInAudit(r.events);
  // Thrown: the error handler redirects it to the client (or shows the page when it cannot).
  const refuse = (ar: AuthorizeRequest, id: ErrorName, description?: string) =>
    new WardError(id, { description, authorizeRequest: ar });

  /** Ward's own origin allowed: a discoverable passkey sign-in's options, bound to this interaction. */
  async function passkeyOffer(at: { handle: string; request: AuthorizeRequest }) {
    try {
      const options = await r.passkeys.requestOptions(
        { anyone: true },
        {
          clientId: at.request.client.client_id,
          origin: new URL(r.config.issuer).origin,
          data: { interaction: sha256(at.handle) },
        },
      );
      return { options };
    } catch (e) {
      if (e instanceof WardError) return undefined; // the issuer's origin is not one of the passkey origins
      throw e;
    }
  }

  async function loginPage(
    req: FastifyRequest,
    reply: FastifyReply,
    at: { handle: string; request: AuthorizeRequest },
    status = 200,
    error?: HostedMessage | string,
    email?: string,
  ) {
    const language = pageLanguage(req, at.request);
    const ids = r.account().sign_in_identifiers;
    const identifier = !ids.custom_identifier ? 'email' : ids.email || ids.phone_number ? 'any' : 'custom';
    // The enabled sign-in methods fill their parts of the page (sign-in-methods/index.ts).
    const entries = await loginEntries({
      account: r.account(),
      request: at.request,
      providers: social.providers(),
      interaction: at.handle,
      passkeyOptions: () => passkeyOffer(at),
    });
    return sendRendered(
      reply,
      renderLogin(status, {
        clientName: at.request.client.name,
        interaction: at.handle,
        csrf: ensureCsrf(r, req, reply),
        error: error && isHostedMessage(error) ? hostedMessage(language, error) : error,
        email,
        identifier,
        language,
        target: at.request.target,
        signupHref: `/oauth/authorize/signup?interaction=${encodeURIComponent(at.handle)}`,
        captcha: { password: r.captcha.widget('password_login'), passwordless: r.captcha.widget('passwordless_start') },
        ...entries,
      }),
    );
  }

  const outcomes = socialOutcomes(r, deps);

  /** The authorization request's parameters: the query of a GET, the form of a POST. */
  async function authorize(req: FastifyRequest, reply: FastifyReply, query: Record<string, unknown>) {
    // A pushed request (RFC 9126): its stored parameters, used up, stand for the query's.
    const pushed = await pushedParameters(r, singleValued(query).params);
    const ar = await validatedRequest(r, pushed?.params ?? query, pushed?.signed);
    if (!pushed && mustBePushed(ar.client, r.account().require_pushed_authorization_requests))
      throw refuse(
        ar,
        'authorizeInvalidRequest',
        'This client must push its authorization request to /oauth/par (RFC 9126)',
      );
    // id_token_hint: one of Ward's own ID tokens for this client, signed by a key still published.
    const hintSub = ar.idTokenHint
      ? await verifyIdTokenHint(ar.idTokenHint, ar.client, {
          issuer: r.config.issuer,
          keys: r.keys,
          clients: r.clients,
        })
      : undefined;
    if (hintSub === null)
      throw refuse(ar, 'authorizeInvalidRequest', 'id_token_hint is not a valid ID token of this client');
    // Social login: the user chose a provider; they authenticate there, whatever session they have.
    const provider = query.provider;
    if (provider !== undefined) {
      if (!social.has(provider)) throw refuse(ar, 'authorizeInvalidRequest', 'Unknown provider');
      const { interaction } = await interactions.start(ar, 'social', browserCookie(req, reply));
      // Google One Tap (the Core SDK's loginWithIdToken): the browser brings the provider's id_token.
      const { id_token: idToken, nonce } = query;
      if (idToken !== undefined) {
        const client = ar.client.client_id;
        const outcome = await social.idTokenSignIn(provider, idToken, nonce, interaction.digest, client);
        return outcomes.answer(req, reply, provider, outcome);
      }
      return startSocialLogin(social, reply, interaction, provider);
    }
    if (ar.tkn) {
      const t = await r.tkn.consume(ar.tkn, ar.client.client_id);
      if (!t.ok)
        throw refuse(ar, 'authorizeAccessDenied', 'The authentication token (tkn) is invalid, expired or already used');
      if (t.payload.mfa_pending) {
        throw refuse(
          ar,
          'authorizeAccessDenied',
          'A step-up is required: this tkn is only good for /identity/v1/mfa/stepup',
        );
      }
      const user = await r.users.find(t.userId);
      // max_age applies to the login behind a tkn too (OIDC Core 3.1.2.1): an older one is not enough.
      if (user && !user.disabled && withinMaxAge(r.clock.now(), t.payload.auth_time, ar.maxAge)) {
        // A tkn's sign-in was recorded where the tkn was issued (method null: not again).
        const who = { user, amr: t.payload.amr, authTime: t.payload.auth_time, method: null };
        // Opened in a browser that did not ask for it: the user confirms first (login CSRF).
        if (isBrowserRequest(req) && !tknBoundHere(req, t.payload)) {
          const { interaction } = await interactions.start(ar, 'login', browserCookie(req, reply));
          const moved = await interactions.advance(interaction, 'tkn', {
            userId: user.id,
            amr: who.amr,
            authTime: who.authTime,
          });
          if (!moved) return expiredPage(req, reply, ar);
          const shown = user.email ?? user.phone_number ?? user.id;
          return confirmationPage(r, req, reply, { handle: moved.handle, request: ar }, shown, signInConfirmPage);
        }
        return answerOutcome(r, req, reply, await nextStep.afterFirstFactor(ar, who, browserState(req, reply, ar)));
      }
    } else if (!forcesLogin(ar)) {
      const session = await r.sessions.fromCookie(req.cookies[SESSION_COOKIE]);
      if (session?.user && (await nextStep.sessionAnswers(ar, session, hintSub)))
        return answerFromSession(r, deps, req, reply, ar, { ...session, user: session.user });
    }
    if (ar.prompt === 'none' || ar.responseMode === 'web_message') {
      throw refuse(ar, 'authorizeLoginRequired', 'The user is not signed in');
    }
    const { handle } = await interactions.start(ar, 'login', browserCookie(req, reply));
    // login_hint (OIDC Core 3.1.2.1): the identifier the relying party knows, prefilled.
    return loginPage(req, reply, { handle, request: ar }, 200, undefined, ar.loginHint);
  }

  app.get('/oauth/authorize', { schema: authorizeSchema }, (req, reply) =>
    authorize(req, reply, req.query as Record<string, unknown>),
  );
  // OIDC Core 3.1.2.1: the authorization endpoint supports POST too, its parameters as a form.
  app.post('/oauth/authorize', { schema: authorizePostSchema }, (req, reply) =>
    authorize(req, reply, authorizeForm(req)),
  );

  // The login page of a sign-in in progress, shown again (the signup page's "Sign in" link).
  // `captcha=missing|failed|unavailable`: a hosted passwordless request its captcha refused, sent back here.
  app.get('/oauth/authorize/login', { schema: loginPageSchema }, async (req, reply) => {
    const at = await interactionAtLogin(interactions, req);
    if (!at) return expiredPage(req, reply);
    const refused = CAPTCHA_REFUSED.get((req.query as Record<string, unknown>).captcha);
    const shown = { handle: at.handle, request: at.interaction.request };
    if (!refused) return loginPage(req, reply, shown);
    const e = new WardError(refused);
    return loginPage(req, reply, shown, e.status, e.userMessage(pageLanguage(req, at.interaction.request)));
  });

  app.post('/oauth/authorize/login', { schema: loginFormSchema }, async (req, reply) => {
    const accepted = await acceptHostedPost(r, interactions, req, reply);
    if (!accepted) return reply;
    const { params, interaction, handle } = accepted;
    const at = { handle, request: interaction.request };
    const email = typeof params.email === 'string' ? params.email.slice(0, 320) : '';
    try {
      await r.limiter('login', req.ip, r.account().rate_limits.login);
    } catch (e) {
      if (e instanceof WardError && e.status === 429) {
        for (const [k, v] of Object.entries(e.headers)) reply.header(k, v);
        return loginPage(req, reply, at, 429, 'tooManyAttempts', email);
      }
      throw e;
    }
    try {
      await r.captcha.checkHosted('password_login', params, req.ip);
    } catch (e) {
      if (!isCaptchaRefusal(e)) throw e;
      return loginPage(req, reply, at, e.status, e.userMessage(pageLanguage(req, at.request)), email);
    }
    let user: Awaited<ReturnType<typeof passwordFirstFactor>>;
    try {
      user = await passwordFirstFactor(
        { users: r.users, audit },
        {
          identifier: anyIdentifier(email),
          password: params.password,
          clientId: interaction.request.client.client_id,
          ip: req.ip,
          language: (userLocale) => pageLanguage(req, at.request, userLocale),
        },
      );
    } catch (e) {
      if (e instanceof WardError && e.id === 'emailNotVerified')
        return loginPage(req, reply, at, 403, e.userMessage(pageLanguage(req, at.request)), email);
      // Per-account protection: too many failed passwords for this email (account or not).
      if (!(e instanceof WardError) || e.status !== 429) throw e;
      for (const [k, v] of Object.entries(e.headers)) reply.header(k, v);
      return loginPage(req, reply, at, 429, e.id === 'accountLocked' ? 'accountLocked' : 'accountDelayed', email);
    }
    if (!user) return loginPage(req, reply, at, 401, 'wrongPassword', email);
    const who = { user, amr: ['pwd'], authTime: r.clock.now(), method: 'password' as const };
    return answerOutcome(
      r,
      req,
      reply,
      await nextStep.afterFirstFactor(interaction, who, browserState(req, reply, interaction.request)),
    );
  });

  // The login page's passkey (autofill or its button): a discoverable assertion for this interaction.
  app.post('/oauth/authorize/passkey', { schema: passkeyFormSchema }, async (req, reply) => {
    const accepted = await acceptHostedPost(r, interactions, req, reply);
    if (!accepted) return reply;
    const { params, interaction, handle } = accepted;
    const at = { handle, request: interaction.request };
    const clientId = interaction.request.client.client_id;
    /** Every refusal is a login.failed with its reason, then the login page again. */
    const failed = async (reason: string, userId?: string) => {
      await audit.failed({ method: 'passkey', clientId, ip: req.ip, reason, userId });
      return loginPage(req, reply, at, 400, 'passkeyFailed');
    };
    try {
      await r.limiter('login', req.ip, r.account().rate_limits.login);
    } catch (e) {
      if (e instanceof WardError && e.status === 429) {
        for (const [k, v] of Object.entries(e.headers)) reply.header(k, v);
        return loginPage(req, reply, at, 429, 'tooManyAttempts');
      }
      throw e;
    }
    let v: Awaited<ReturnType<typeof r.passkeys.verifyAssertion<{ origin: string; interaction: string }>>>;
    try {
      const raw = typeof params.assertion === 'string' && params.assertion.length < 100_000 ? params.assertion : '';
      v = await r.passkeys.verifyAssertion<{ origin: string; interaction: string }>(
        authenticationResponse(JSON.parse(raw), 'assertion'),
      );
    } catch (e) {
      if (!(e instanceof WardError) && !(e instanceof SyntaxError)) throw e;
      return failed(e instanceof WardError ? failureReason(e) : 'malformed');
    }
    // Options minted for another interaction (or client) sign nothing in here.
    if (v.clientId !== clientId || v.data.interaction !== sha256(handle)) return failed('other_interaction');
    const user = await r.users.find(v.userId);
    if (!user || user.disabled) return failed(user ? 'user_disabled' : 'unknown_user', user?.id);
    // A lite profile signs in with nothing, even a passkey it somehow has: the same page as a failed key.
    if (user.lite) return failed(LITE_PROFILE, user.id);
    const who = { user, amr: r.passkeys.amr(v.userVerified), authTime: r.clock.now(), method: 'passkey' as const };
    await r.events.emit(
      'passkey.login',
      { client_id: v.clientId, user_id: user.id, amr: who.amr },
      'passkey login (hosted page)',
    );
    return answerOutcome(
      r,
      req,
      reply,
      await nextStep.afterFirstFactor(interaction, who, browserState(req, reply, interaction.request)),
    );
  });
}
