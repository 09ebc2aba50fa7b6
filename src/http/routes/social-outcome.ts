import type { FastifyReply, FastifyRequest } from 'fastify';
import { WardError } from '../../errors/ward-error.js';
import { expiredSocialPage } from '../../interaction/pages/expired.js';
import { type LinkPageError, linkPage } from '../../interaction/pages/link.js';
import type { Interaction } from '../../interaction/service.js';
import type { AuthorizeRequest } from '../../protocol/authorize/request.js';
import { signInAudit } from '../../sign-in-methods/audit.js';
import type { CallbackOutcome } from '../../social/service.js';
import type { User } from '../../storage/sql/users.js';
import { pageLanguage } from '../page-language.js';
import { sendRendered } from '../pages.js';
import type { SignInDeps } from '../sign-in.js';
import { answerOutcome, browserState, ensureCsrf } from './hosted-form.js';
import { completionUrl } from './signup-completion.js';
import type { SecurityEvents } from '../../audit/events.js';
import type { AccountSettings, WardConfig } from '../../config/types.js';
import type { Clock } from '../../lib/clock.js';
import type { Storage } from '../../storage/storage.js';

/** What answering a social login's outcome uses. */
export interface SocialOutcomeDeps {
  account: () => AccountSettings;
  clock: Clock;
  config: WardConfig;
  events: SecurityEvents;
  masterKey: Buffer;
  storage: Storage;
}

/**
 * The answers to a social login's outcome, for the provider's callback and for an id_token the browser
 * brought (Google One Tap, at /oauth/authorize): the next step for a user, the link page, the profile's
 * completion, or the refusal.
 */
export function socialOutcomes(r: SocialOutcomeDeps, deps: Pick<SignInDeps, 'interactions' | 'nextStep' | 'social'>) {
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

  /** The answer to an outcome of `provider` (bad_state: the expired page). */
  async function answer(req: FastifyRequest, reply: FastifyReply, provider: string, outcome: CallbackOutcome) {
    if (outcome.kind === 'bad_state') return expired(req, reply);
    const interaction = await interactions.byDigest(outcome.interaction);
    if (!interaction) return expired(req, reply);
    if (outcome.kind === 'refused') {
      await audit.failed({
        method: 'social',
        clientId: interaction.request.client.client_id,
        ip: req.ip,
        reason: outcome.reason ?? outcome.error,
        userId: outcome.userId,
        detail: { provider },
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
      const { linkToken, email } = outcome;
      return sendLinkPage(req, reply, 200, interaction.request, { linkToken, email, provider: outcome.provider });
    }
    return finish(req, reply, interaction, outcome.user, ['social', outcome.provider], { provider: outcome.provider });
  }

  return { expired, finish, sendLinkPage, answer };
}
