import type { FastifyRequest } from 'fastify';
import type { WardApp } from '../typed-app.js';
import { sendRendered } from '../pages.js';
import { pageLanguage } from '../page-language.js';
import { WardError } from '../../errors/ward-error.js';
import { requireSingle } from '../../protocol/params.js';
import { CONSENT_CONFIRM_PATH, type ConsentChanges } from '../../accounts/consent-changes.js';
import { consentConfirmedPage, consentConfirmPage } from '../../interaction/pages/consent-confirm.js';
import { invalidLinkPage } from '../../interaction/pages/self-service.js';
import { consentLinkFormSchema, consentLinkSchema } from './schemas/self-service.js';
import type { AccountSettings } from '../../config/types.js';
import type { Limiter } from '../../limits/rate-limit.js';

/** The services this module uses (registry.ts builds them; the composition passes them in). */
interface Deps {
  account: () => AccountSettings;
  consentChanges: ConsentChanges;
  limiter: Limiter;
}

/**
 * A double opt-in consent's emailed link: the link shows a page, and only its button (a POST) grants
 * the consent, so a mail scanner that opens links grants nothing. The grant is audited
 * (`user.consents_changed`) and kept in the user's consent history.
 */
export function consentConfirmationRoutes(app: WardApp, r: Deps): void {
  const limit = (req: FastifyRequest) => r.limiter('self_service', req.ip, r.account().rate_limits.verification);
  const tokenOf = (params: Record<string, unknown>) => (typeof params.token === 'string' ? params.token : '');

  app.get(CONSENT_CONFIRM_PATH, { schema: consentLinkSchema }, async (req, reply) => {
    await limit(req);
    const language = pageLanguage(req);
    const token = tokenOf(requireSingle(req.query));
    const shown = token ? await r.consentChanges.peek(token) : undefined;
    if (!shown) return sendRendered(reply, invalidLinkPage(language));
    return sendRendered(reply, consentConfirmPage(language, { title: shown.title, token }));
  });

  app.post(CONSENT_CONFIRM_PATH, { schema: consentLinkFormSchema }, async (req, reply) => {
    await limit(req);
    const language = pageLanguage(req);
    const token = tokenOf(requireSingle(req.body ?? {}));
    try {
      const done = await r.consentChanges.confirm(token, req.ip);
      return sendRendered(reply, consentConfirmedPage(language, done.title));
    } catch (e) {
      if (e instanceof WardError && e.status < 500) return sendRendered(reply, invalidLinkPage(language));
      throw e;
    }
  });
}
