import type { FastifyReply, FastifyRequest } from 'fastify';
import { publicConsents } from '../../accounts/user-consents.js';
import type { WardApp } from '../typed-app.js';
import { completeFormSchema, completePageSchema, signupDataSchema } from './schemas/signup.js';
import { WardError } from '../../errors/ward-error.js';
import { CSRF_COOKIE, csrfValid } from '../../interaction/csrf.js';
import { completeProfilePage, fieldErrorText } from '../../interaction/pages/complete-profile.js';
import { expiredSocialPage } from '../../interaction/pages/expired.js';
import type { Interaction } from '../../interaction/service.js';
import type { AuthorizeRequest } from '../../protocol/authorize/request.js';
import { requiredStr, requireSingle, singleValued } from '../../protocol/params.js';
import { completionInput } from '../../social/completion-form.js';
import { signupClaims, type PendingSignup } from '../../social/signup-completion.js';
import { sendRendered } from '../pages.js';
import type { SignInDeps } from '../sign-in.js';
import { answerOutcome, browserState, ensureCsrf, sameOriginPost } from './hosted-form.js';
import { pageLanguage, requestLanguage } from '../page-language.js';
import { clientOf } from './identity-request.js';
import type { ClientService } from '../../clients/service.js';
import type { AccountSettings, WardConfig } from '../../config/types.js';
import type { Clock } from '../../lib/clock.js';
import type { Limiter } from '../../limits/rate-limit.js';
import type { Addresses } from '../../self-service/addresses.js';
import type { Storage } from '../../storage/storage.js';

/** The services this module uses (registry.ts builds them; the composition passes them in). */
export interface SignupCompletionRouteDeps {
  account: () => AccountSettings;
  addresses: Addresses;
  clients: ClientService;
  clock: Clock;
  config: WardConfig;
  limiter: Limiter;
  masterKey: Buffer;
  storage: Storage;
}

/** Fields of the completion form the route reads itself. */
const ROUTE_FIELDS = ['signup_token', 'csrf'];

/**
 * Where a first social sign-in that lacks what the account requires goes on: the app's own completion
 * page when the account names one and the client lists it among its callback URLs, else Ward's page;
 * either gets `signup_token`.
 */
export function completionUrl(
  r: Pick<SignupCompletionRouteDeps, 'account' | 'config'>,
  request: AuthorizeRequest,
  token: string,
) {
  const app = r.account().social_signup.completion_url;
  const own = app !== null && request.client.allowed_callback_urls.includes(app);
  const url = new URL(own ? app : `${r.config.issuer}/identity/v1/signup/complete`);
  url.searchParams.set('signup_token', token);
  return url.toString();
}

/**
 * The profile completion of a first social sign-in (src/social/signup-completion.ts): the Core SDK's
 * getSignupData, Ward's "Complete your profile" page, and its form, which the app's own page may post.
 */
export function signupCompletionRoutes(app: WardApp, r: SignupCompletionRouteDeps, deps: SignInDeps): void {
  const { interactions, nextStep, social } = deps;
  const expired = (req: FastifyRequest, reply: FastifyReply) =>
    sendRendered(reply, expiredSocialPage(pageLanguage(req)));
  type Bound = { token: string; pending: PendingSignup; interaction: Interaction };

  /** A live signup token whose sign-in was started in this browser (its interaction's binding cookie). */
  async function boundSignup(req: FastifyRequest, token: unknown): Promise<Bound | null> {
    const pending = await social.signup.pending(token);
    const interaction = pending && (await interactions.byDigest(pending.interaction));
    if (!pending || !interaction || !(await interactions.boundTo(interaction, req.cookies[CSRF_COOKIE]))) return null;
    return { token: token as string, pending, interaction };
  }

  function sendForm(
    req: FastifyRequest,
    reply: FastifyReply,
    status: number,
    at: Bound,
    values: Record<string, string>,
    errors: Record<string, string>,
  ) {
    const { claims, missing, provider } = at.pending;
    const askEmail = missing.includes('email') || values.email !== undefined || errors.email !== undefined;
    const posted = new Set([...Object.keys(values), ...Object.keys(errors)]);
    const fields = r.account().custom_fields.filter((f) => f.required || posted.has(`custom_fields.${f.name}`));
    const language = pageLanguage(req, at.interaction.request);
    const consents = publicConsents(r.account().consents, language);
    const shown = new Set([
      'email',
      ...fields.map((f) => `custom_fields.${f.name}`),
      ...consents.map((c) => `consents.${c.key}`),
    ]);
    const name = [claims.given_name, claims.family_name].filter(Boolean).join(' ');
    const unverified = claims.email && !claims.email_verified ? claims.email : undefined;
    return sendRendered(
      reply,
      completeProfilePage(status, {
        language,
        signupToken: at.token,
        csrf: ensureCsrf(r, req, reply),
        clientName: at.interaction.request.client.name,
        providerLabel: social.providers().find((x) => x.name === provider)?.label ?? provider,
        given: { name: name || null, email: claims.email ?? null, emailVerified: claims.email_verified },
        askEmail,
        fields,
        consents,
        others: [...posted].filter((k) => !shown.has(k)),
        values: { ...(unverified ? { email: unverified } : {}), ...values },
        errors,
        target: at.interaction.request.target,
      }),
    );
  }

  /** The completion, from Ward's page or parked from the app's: validated, the user created, the sign-in goes on. */
  async function submit(req: FastifyRequest, reply: FastifyReply, form: Record<string, unknown>) {
    await r.limiter('signup', req.ip, r.account().rate_limits.signup);
    const at = await boundSignup(req, form.signup_token);
    if (!at) return expired(req, reply);
    const values: Record<string, string> = {};
    for (const [k, v] of Object.entries(form))
      if (typeof v === 'string' && !ROUTE_FIELDS.includes(k) && v !== '') values[k] = v;
    // A consent granted on the page grants the version shown, in the language shown.
    const offered = publicConsents(r.account().consents, pageLanguage(req, at.interaction.request));
    const shown = (key: string) => offered.find((c) => c.key === key);
    const input = completionInput(form, r.account().custom_fields, ROUTE_FIELDS, (key) => {
      const c = shown(key);
      return c && { version_id: c.version_id, language: c.language };
    });
    let done: Awaited<ReturnType<typeof social.signup.complete>>;
    try {
      done = await social.signup.complete(at.token, input);
    } catch (e) {
      if (!(e instanceof WardError) || e.status >= 500) throw e;
      const language = pageLanguage(req, at.interaction.request);
      const errors = e.details?.length
        ? Object.fromEntries(e.details.map((d) => [d.field, fieldErrorText(language, d)]))
        : { email: e.userMessage(language) };
      return sendForm(req, reply, e.status, at, values, errors);
    }
    if (!done) return expired(req, reply);
    if (done.emailToVerify && r.account().self_service.email_verification !== 'off')
      r.addresses.sendSignupVerification(done.user, {
        clientId: done.pending.clientId,
        locale: requestLanguage(req, { uiLocales: at.interaction.request.uiLocales }),
      });
    const who = {
      user: done.user,
      amr: ['social', done.pending.provider],
      authTime: r.clock.now(),
      method: 'social' as const,
      detail: { provider: done.pending.provider, created: true },
    };
    return answerOutcome(
      r,
      req,
      reply,
      await nextStep.afterFirstFactor(at.interaction, who, browserState(req, reply, at.interaction.request)),
    );
  }

  /** A post without Ward's CSRF token comes from the app's completion page (or from no page at all). */
  function fromAppPage(req: FastifyRequest): boolean {
    const page = r.account().social_signup.completion_url;
    const origin = req.headers.origin;
    return page !== null && (origin === undefined || origin === 'null' || origin === new URL(page).origin);
  }

  // The Core SDK's getSignupData: the claims the provider gave, for the client of the sign-in. Reading
  // spends nothing; the token is the app's (it came in the completion page's URL).
  app.get('/identity/v1/signup/data', { schema: signupDataSchema }, async (req, reply) => {
    const q = requireSingle(req.query);
    const client = await clientOf(r, q);
    const pending = await social.signup.pending(requiredStr(q, 'token', 100), client.client_id);
    if (!pending) throw new WardError('signupTokenInvalid');
    return reply.header('Cache-Control', 'no-store').send(signupClaims(pending));
  });

  app.get('/identity/v1/signup/complete', { schema: completePageSchema }, async (req, reply) => {
    const { params, duplicates } = singleValued(req.query);
    if (duplicates.length) return expired(req, reply);
    if (params.resume !== undefined) {
      const parked = await social.signup.unpark(params.resume);
      return parked ? submit(req, reply, parked) : expired(req, reply);
    }
    const at = await boundSignup(req, params.signup_token);
    return at ? sendForm(req, reply, 200, at, {}, {}) : expired(req, reply);
  });

  // Ward's page posts with its CSRF token, same-origin. The app's own page posts cross-site, so the
  // SameSite=Lax cookie that binds the sign-in to the browser is not sent with it: the post is parked
  // under a one-time handle (for a live token) and answered 303 to the GET above, a top-level
  // navigation that carries the cookie, where the binding is checked as for Ward's own form.
  app.post('/identity/v1/signup/complete', { schema: completeFormSchema }, async (req, reply) => {
    const { params, duplicates } = singleValued(req.body);
    if (duplicates.length) return expired(req, reply);
    if (params.csrf !== undefined) {
      if (!sameOriginPost(req, r.config.issuer) || !csrfValid(r.masterKey, req.cookies[CSRF_COOKIE], params.csrf))
        return expired(req, reply);
      return submit(req, reply, params);
    }
    const handle = fromAppPage(req) ? await social.signup.park(params.signup_token, params) : null;
    if (!handle) return expired(req, reply);
    return reply
      .code(303)
      .header('Location', `${r.config.issuer}/identity/v1/signup/complete?resume=${handle}`)
      .header('Cache-Control', 'no-store')
      .header('Referrer-Policy', 'no-referrer')
      .send();
  });
}
