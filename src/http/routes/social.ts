import type { FastifyReply, FastifyRequest } from 'fastify';
import type { WardApp } from '../typed-app.js';
import {
  socialCallbackGetSchema,
  socialCallbackPostSchema,
  socialLinkSchema,
  socialStartSchema,
} from './schemas/logout-social.js';
import { WardError } from '../../errors/ward-error.js';
import { CSRF_COOKIE, csrfValid } from '../../interaction/csrf.js';
import { expiredSocialPage } from '../../interaction/pages/expired.js';
import { type LinkPageError, linkPage } from '../../interaction/pages/link.js';
import type { Interaction } from '../../interaction/service.js';
import type { User } from '../../storage/sql/users.js';
import { sendRendered } from '../pages.js';
import { pageLanguage } from '../page-language.js';
import type { AuthorizeRequest } from '../../protocol/authorize/request.js';
import { singleValued } from '../../protocol/params.js';
import type { SignInDeps } from '../sign-in.js';
import { answerOutcome, browserState, ensureCsrf, sameOriginPost } from './hosted-form.js';
import { completionUrl } from './signup-completion.js';
import { SOCIAL_COOKIE, startSocialLogin } from './social-start.js';
import type { UserService } from '../../accounts/users.js';
import type { SecurityEvents } from '../../audit/events.js';
import { failureReason, signInAudit } from '../../sign-in-methods/audit.js';
import type { AccountSettings, WardConfig } from '../../config/types.js';
import type { Clock } from '../../lib/clock.js';
import type { AccessTokenCodec } from '../../protocol/access-token-codec.js';
import type { Storage } from '../../storage/storage.js';

/** The services this module uses (registry.ts builds them; the composition passes them in). */
export interface SocialRouteDeps {
  accessTokens: AccessTokenCodec;
  account: () => AccountSettings;
  clock: Clock;
  config: WardConfig;
  events: SecurityEvents;
  masterKey: Buffer;
  storage: Storage;
  users: UserService;
}

/**
 * Social login: the login page's buttons, the provider's callback, the link page (unlink: profile.ts;
 * the completion of a new identity's profile: signup-completion.ts).
 */
export function socialRoutes(app: WardApp, r: SocialRouteDeps, deps: SignInDeps): void {
  const { interactions, nextStep, social } = deps;
  const audit = signInAudit(r.events);
  /** The sign-in's request says the language when it is still known; else Accept-Language. */
  const expired = (req: FastifyRequest, reply: FastifyReply, request?: AuthorizeRequest) =>
    sendRendered(reply, expiredSocialPage(pageLanguage(req, request)));

  /** After the provider: the first factor is done; the next step decides the rest. */
  async function finish(
    req: FastifyRequest,
    reply: FastifyReply,
    interaction: Interaction,
    user: User,
    amr: string[],
    detail: Record<string, unknown>,
  ) {
    const who = { user, amr, authTime: r.clock.now(), method: 'social' as const, detail };
    return answerOutcome(
      r,
      req,
      reply,
      await nextStep.afterFirstFactor(interaction, who, browserState(req, reply, interaction.request)),
    );
  }

  function sendLinkPage(
    req: FastifyRequest,
    reply: FastifyReply,
    status: number,
    request: AuthorizeRequest,
    p: { linkToken: string; email: string; provider: string; error?: LinkPageError },
  ) {
    const providerLabel = social.providers().find((x) => x.name === p.provider)?.label ?? p.provider;
    const csrf = ensureCsrf(r, req, reply);
    const page = { ...p, providerLabel, csrf, target: request.target, language: pageLanguage(req, request) };
    return sendRendered(reply, linkPage(status, page));
  }

  /** The login page's "Continue with ..." buttons: the interaction the page belongs to, in this browser. */
  app.get('/oauth/authorize/social', { schema: socialStartSchema }, async (req, reply) => {
    const { params, duplicates } = singleValued(req.query);
    const interaction = duplicates.length
      ? null
      : await interactions.open(params.interaction, req.cookies[CSRF_COOKIE]);
    if (!interaction) return expired(req, reply);
    if (!social.has(params.provider)) {
      throw new WardError('authorizeInvalidRequest', {
        description: 'Unknown provider',
        authorizeRequest: interaction.request,
      });
    }
    return startSocialLogin(social, reply, interaction, params.provider);
  });

  // A provider that posts its answer (Apple's `response_mode=form_post`) posts it cross-site, so the
  // SameSite=Lax cookie that binds the state to the browser is not sent with the POST. Two ways out:
  // trust the state alone on a POST, which lets an attacker post the answer to their own sign-in into
  // a victim's browser (login CSRF); or keep the binding by coming back once by GET. This does the
  // second: the POST only parks the answer under a one-time handle (for a live state of this provider)
  // and answers 303 to the GET callback with that handle, a top-level GET navigation on which the Lax
  // cookie is sent; the GET then checks state, browser, nonce and PKCE as for any answer. The code
  // never appears in a URL.
  app.post('/identity/v1/oauth/callback/:name', { schema: socialCallbackPostSchema }, async (req, reply) => {
    const { params, duplicates } = singleValued(req.body);
    const handle = duplicates.length ? null : await social.park(req.params.name, params);
    if (!handle) return expired(req, reply);
    const back = `${r.config.issuer}/identity/v1/oauth/callback/${encodeURIComponent(req.params.name)}?resume=${handle}`;
    return reply
      .code(303)
      .header('Location', back)
      .header('Cache-Control', 'no-store')
      .header('Referrer-Policy', 'no-referrer')
      .send();
  });

  app.get('/identity/v1/oauth/callback/:name', { schema: socialCallbackGetSchema }, async (req, reply) => {
    const { params: query } = singleValued(req.query);
    const params = query.resume === undefined ? query : await social.unpark(req.params.name, query.resume);
    if (!params) return expired(req, reply);
    const outcome = await social.callback(req.params.name, params, req.cookies[SOCIAL_COOKIE]);
    reply.clearCookie(SOCIAL_COOKIE, { path: '/', secure: true, httpOnly: true, sameSite: 'lax' });
    if (outcome.kind === 'bad_state') return expired(req, reply);
    const interaction = await interactions.byDigest(outcome.interaction);
    if (!interaction) return expired(req, reply);
    if (outcome.kind === 'refused') {
      await audit.failed({
        method: 'social',
        clientId: interaction.request.client.client_id,
        ip: req.ip,
        reason: outcome.error,
        detail: { provider: req.params.name },
      });
      const id = outcome.error === 'access_denied' ? 'authorizeAccessDenied' : 'authorizeServerError';
      throw new WardError(id, { description: outcome.description, authorizeRequest: interaction.request });
    }
    if (outcome.kind === 'complete') {
      // A new identity that lacks what the account requires: no user yet, the profile is completed first.
      return reply
        .code(302)
        .header('Location', completionUrl(r, interaction.request, outcome.signupToken))
        .header('Cache-Control', 'no-store')
        .header('Referrer-Policy', 'no-referrer')
        .send();
    }
    if (outcome.kind === 'link') {
      const { linkToken, email, provider } = outcome;
      return sendLinkPage(req, reply, 200, interaction.request, { linkToken, email, provider });
    }
    return finish(req, reply, interaction, outcome.user, ['social', outcome.provider], { provider: outcome.provider });
  });

  app.post('/identity/v1/oauth/link', { schema: socialLinkSchema }, async (req, reply) => {
    const { params, duplicates } = singleValued(req.body);
    if (
      duplicates.length ||
      !sameOriginPost(req, r.config.issuer) ||
      !csrfValid(r.masterKey, req.cookies[CSRF_COOKIE], params.csrf)
    )
      return expired(req, reply);
    let done: Awaited<ReturnType<typeof social.confirmLink>>;
    let refused: WardError | null = null;
    try {
      done = await social.confirmLink(params.link_token, params.password);
    } catch (e) {
      // Per-account protection: too many failed passwords for this email.
      if (!(e instanceof WardError) || e.status !== 429) throw e;
      for (const [k, v] of Object.entries(e.headers)) reply.header(k, v);
      refused = e;
      done = null;
    }
    if (!done) {
      const pending = await social.pendingLink(params.link_token);
      const interaction = pending && (await interactions.byDigest(pending.interaction));
      if (!pending || !interaction) return expired(req, reply);
      const { email, provider } = pending;
      // The existing account's password was wrong (or refused by its protection): a failed sign-in.
      await audit.failed({
        method: 'social',
        clientId: interaction.request.client.client_id,
        ip: req.ip,
        reason: refused ? failureReason(refused) : 'wrong_password',
        detail: { provider, linking: true },
      });
      const error = !refused
        ? 'incorrectPassword'
        : refused.id === 'accountLocked'
          ? 'accountLocked'
          : 'accountDelayed';
      return sendLinkPage(req, reply, refused ? 429 : 401, interaction.request, {
        linkToken: params.link_token as string,
        email,
        provider,
        error,
      });
    }
    const interaction = await interactions.byDigest(done.interaction);
    if (!interaction) return expired(req, reply);
    const detail = { provider: done.provider, linked: true };
    return finish(req, reply, interaction, done.user, ['pwd', 'social', done.provider], detail);
  });
}
