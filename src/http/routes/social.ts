import type { WardApp } from '../typed-app.js';
import {
  socialCallbackGetSchema,
  socialCallbackPostSchema,
  socialLinkSchema,
  socialStartSchema,
} from './schemas/logout-social.js';
import { WardError } from '../../errors/ward-error.js';
import { CSRF_COOKIE, csrfValid } from '../../interaction/csrf.js';
import { singleValued } from '../../protocol/params.js';
import type { SignInDeps } from '../sign-in.js';
import { sameOriginPost } from './hosted-form.js';
import { SOCIAL_COOKIE, startSocialLogin } from './social-start.js';
import { type SocialOutcomeDeps, socialOutcomes } from './social-outcome.js';
import type { UserService } from '../../accounts/users.js';
import { failureReason, signInAudit } from '../../sign-in-methods/audit.js';
import type { AccessTokenCodec } from '../../protocol/access-token-codec.js';

/** The services this module uses (registry.ts builds them; the composition passes them in). */
export interface SocialRouteDeps extends SocialOutcomeDeps {
  accessTokens: AccessTokenCodec;
  users: UserService;
}

/**
 * Social login: the login page's buttons, the provider's callback, the link page (unlink: profile.ts;
 * the completion of a new identity's profile: signup-completion.ts).
 */
export function socialRoutes(app: WardApp, r: SocialRouteDeps, deps: SignInDeps): void {
  const { interactions, social } = deps;
  const audit = signInAudit(r.events);
  const { expired, finish, sendLinkPage, answer } = socialOutcomes(r, deps);

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
    return answer(req, reply, req.params.name, outcome);
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
