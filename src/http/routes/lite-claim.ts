import type { FastifyRequest } from 'fastify';
import type { WardApp } from '../typed-app.js';
import { sendRendered } from '../pages.js';
import { pageLanguage } from '../page-language.js';
import { WardError } from '../../errors/ward-error.js';
import { requireSingle } from '../../protocol/params.js';
import { CSRF_COOKIE, csrfValid } from '../../interaction/csrf.js';
import { liteClaimDonePage, liteClaimPage } from '../../interaction/pages/lite-claim.js';
import { invalidLinkPage } from '../../interaction/pages/self-service.js';
import type { LiteClaims } from '../../self-service/lite-claim.js';
import { ensureCsrf, sameOriginPost } from './hosted-form.js';
import { liteClaimFormSchema, liteClaimPageSchema } from './schemas/self-service.js';
import type { AccountSettings, WardConfig } from '../../config/types.js';
import type { Limiter } from '../../limits/rate-limit.js';

/** The services this module uses (registry.ts builds them; the composition passes them in). */
interface Deps {
  account: () => AccountSettings;
  config: WardConfig;
  limiter: Limiter;
  liteClaims: LiteClaims;
  masterKey: Buffer;
}

const tokenOf = (params: Record<string, unknown>) => (typeof params.token === 'string' ? params.token : '');

/**
 * The link that finishes a signup with a lite profile's email (self-service/lite-claim.ts): its page
 * asks for the password typed at signup; the form (same origin, CSRF token) finishes the claim, or shows
 * the page again. Rate-limited as self-service; audited by the flow (account.lite_claim_failed,
 * user.lite_profile_claimed, user.profile_updated, account.email_verified).
 */
export function liteClaimRoutes(app: WardApp, r: Deps): void {
  const limit = (req: FastifyRequest) => r.limiter('self_service', req.ip, r.account().rate_limits.verification);

  app.get('/identity/v1/signup/claim', { schema: liteClaimPageSchema }, async (req, reply) => {
    await limit(req);
    const language = pageLanguage(req);
    const token = tokenOf(requireSingle(req.query));
    const link = await r.liteClaims.peek(token);
    if (!link) return sendRendered(reply, invalidLinkPage(language));
    const csrf = ensureCsrf(r, req, reply);
    return sendRendered(reply, liteClaimPage(language, 200, { ...link, token, csrf }));
  });

  app.post('/identity/v1/signup/claim', { schema: liteClaimFormSchema }, async (req, reply) => {
    await limit(req);
    const language = pageLanguage(req);
    const params = requireSingle(req.body ?? {});
    if (!sameOriginPost(req, r.config.issuer) || !csrfValid(r.masterKey, req.cookies[CSRF_COOKIE], params.csrf))
      return sendRendered(reply, invalidLinkPage(language));
    const token = tokenOf(params);
    try {
      const done = await r.liteClaims.confirm(token, params.password);
      if (!done.done) {
        const csrf = ensureCsrf(r, req, reply);
        return sendRendered(reply, liteClaimPage(language, 400, { ...done, token, csrf, wrongPassword: true }));
      }
      if (done.redirectUrl) return reply.code(303).header('Cache-Control', 'no-store').redirect(done.redirectUrl, 303);
      return sendRendered(reply, liteClaimDonePage(language, done.email, done.returnTo));
    } catch (e) {
      if (e instanceof WardError && e.status < 500) return sendRendered(reply, invalidLinkPage(language));
      throw e;
    }
  });
}
