import type { WardApp } from '../typed-app.js';
import { reconsentFormSchema } from './schemas/authorize.js';
import { SESSION_COOKIE, type SessionService } from '../../accounts/sessions.js';
import type { ConsentRenewal } from '../../accounts/consent-renewal.js';
import { WardError } from '../../errors/ward-error.js';
import { pageLanguage } from '../page-language.js';
import type { SignInDeps } from '../sign-in.js';
import { acceptHostedPost, answerOutcome, browserState, ensureCsrf, expiredPage } from './hosted-form.js';
import { sendReconsentPage } from './reconsent-page.js';
import { answerFromSession } from './session-answer.js';
import type { SecurityEvents } from '../../audit/events.js';
import type { AccountSettings, WardConfig } from '../../config/types.js';
import type { Limiter } from '../../limits/rate-limit.js';
import type { Storage } from '../../storage/storage.js';

/** The services this module uses (registry.ts builds them; the composition passes them in). */
export interface AuthorizeReconsentDeps {
  account: () => AccountSettings;
  config: WardConfig;
  consentRenewal: ConsentRenewal;
  events: SecurityEvents;
  limiter: Limiter;
  masterKey: Buffer;
  sessions: SessionService;
  storage: Storage;
}

/** The boxes the page posted checked (`consent_<key>=1`). */
const checkedIn = (params: Record<string, unknown>) =>
  new Set(
    Object.entries(params)
      .filter(([k, v]) => k.startsWith('consent_') && v === '1')
      .map(([k]) => k.slice('consent_'.length)),
  );

/**
 * Continue on the page of the consents to accept again (interaction/reconsent.ts, docs/profiles.md):
 * the answers are recorded (reporter `end_user`), then the sign-in goes on (step `reconsent`: its
 * session starts and the code is issued) or the SSO session answers (step `reconsent_session`). A
 * required consent left unchecked records nothing and shows the page again, saying the sign-in cannot
 * complete without it. The page's Cancel posts to /oauth/authorize/consent (access_denied).
 */
export function reconsentRoutes(app: WardApp, r: AuthorizeReconsentDeps, deps: SignInDeps): void {
  const { interactions, nextStep } = deps;
  app.post('/oauth/authorize/reconsent', { schema: reconsentFormSchema }, async (req, reply) => {
    const accepted = await acceptHostedPost(r, interactions, req, reply);
    if (!accepted) return reply;
    await r.limiter('consents', req.ip, r.account().rate_limits.consents);
    const { params, interaction, handle } = accepted;
    const ar = interaction.request;
    const step = interaction.step;
    if ((step !== 'reconsent' && step !== 'reconsent_session') || params.decision !== 'accept')
      return expiredPage(req, reply, ar);
    const user = interaction.userId ? await r.storage.users.findById(interaction.userId) : undefined;
    if (!user || user.disabled || !interaction.amr || interaction.authTime === null) return expiredPage(req, reply, ar);
    const checked = checkedIn(params);
    try {
      await r.consentRenewal.answer(user, checked, pageLanguage(req, ar), req.ip);
    } catch (e) {
      if (!(e instanceof WardError) || e.id !== 'consentRequired') throw e;
      const detail = { user_id: user.id, client_id: ar.client.client_id, where: 'page' };
      await r.events.emit('user.reconsent_refused', detail, 'a required consent was not accepted: no sign-in');
      const consents = await r.consentRenewal.owed(user.id);
      const at = { handle, interaction, consents };
      return sendReconsentPage(r, req, reply, at, ensureCsrf(r, req, reply), { status: 403, checked });
    }
    if (step === 'reconsent') {
      const who = { user, amr: interaction.amr, authTime: interaction.authTime };
      return answerOutcome(
        r,
        req,
        reply,
        await nextStep.afterReconsent(interaction, who, browserState(req, reply, ar)),
      );
    }
    // An SSO session's: it goes on in that session, shown to its user only.
    const session = await r.sessions.fromCookie(req.cookies[SESSION_COOKIE]);
    if (!session?.user || session.user.disabled || session.user.id !== user.id)
      throw new WardError('authorizeLoginRequired', { description: 'The session has ended', authorizeRequest: ar });
    if (!(await interactions.finish(interaction))) return expiredPage(req, reply, ar);
    return answerFromSession(r, deps, req, reply, ar, { ...session, user: session.user }, 303);
  });
}
