// The Device Authorization Grant (RFC 8628): the device asks at POST /oauth/device_authorization,
// the user opens /device (verification_uri; verification_uri_complete prefills the code), types the
// code, signs in through the usual sign-in (every method and second factor, or the SSO session),
// then approves or denies on the approval page (the consent page, always shown for a device). The
// device polls /oauth/token (protocol/token/grant-device-code.ts).
//
// Guessing user codes: each try counts against the per-IP limit (rate_limits.device), and every
// wrong code counts against one limit for all callers together (GLOBAL_WRONG_CODES per window), past
// which the form refuses everyone until the window ends (RFC 8628 5.1); each wrong code is audited.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { WardApp } from '../typed-app.js';
import { SESSION_COOKIE, type SessionService } from '../../accounts/sessions.js';
import { WardError } from '../../errors/ward-error.js';
import { CSRF_COOKIE, csrfValid } from '../../interaction/csrf.js';
import { deviceCodePage } from '../../interaction/pages/device.js';
import { startDeviceAuthorization, userCodeDigest } from '../../protocol/device/authorization-request.js';
import type { DeviceAuthorizationDeps } from '../../protocol/device/authorization-request.js';
import { normaliseUserCode } from '../../protocol/device/user-code.js';
import type { AuthorizeRequest } from '../../protocol/authorize/request.js';
import { singleValued } from '../../protocol/params.js';
import { bodyParams, methodNotAllowed } from '../oauth-body.js';
import { pageLanguage } from '../page-language.js';
import { sendRendered } from '../pages.js';
import { textsIn } from '../../texts/texts.js';
import type { SignInDeps } from '../sign-in.js';
import {
  answerOutcome,
  browserCookie,
  browserState,
  ensureCsrf,
  expiredPage,
  type HostedFormDeps,
  sameOriginPost,
} from './hosted-form.js';
import { deviceAuthorizationSchema, deviceFormSchema, devicePageSchema } from './schemas/device.js';
import type { Limiter } from '../../limits/rate-limit.js';

/** The services this module uses (registry.ts builds them; the composition passes them in). */
export interface DeviceDeps extends DeviceAuthorizationDeps, HostedFormDeps {
  limiter: Limiter;
  sessions: SessionService;
}

/** Wrong user codes from all callers together, per window, before the form refuses everyone. */
export const GLOBAL_WRONG_CODES = { limit: 1000, window_seconds: 3600 };

export function deviceRoutes(app: WardApp, r: DeviceDeps, deps: SignInDeps): void {
  const { interactions, nextStep } = deps;

  app.post('/oauth/device_authorization', { schema: deviceAuthorizationSchema }, async (req, reply) => {
    const params = bodyParams(req);
    await r.limiter('token', req.ip, r.account().rate_limits.token);
    const out = await startDeviceAuthorization(r, r.config.issuer, req.headers.authorization, params);
    return reply.header('Cache-Control', 'no-store').header('Pragma', 'no-cache').send(out);
  });
  app.route({
    method: ['GET', 'PUT', 'DELETE', 'PATCH'],
    url: '/oauth/device_authorization',
    handler: (_req, reply) => methodNotAllowed(reply),
  });

  const codePage = (req: FastifyRequest, reply: FastifyReply, status: number, userCode?: string, error?: string) =>
    sendRendered(
      reply,
      deviceCodePage(status, { csrf: ensureCsrf(r, req, reply), userCode, error, language: pageLanguage(req) }),
    );

  /** A 429 page: the per-IP limit, or every caller's wrong codes together. */
  async function limited(req: FastifyRequest, reply: FastifyReply, typed: string): Promise<FastifyReply | null> {
    const now = r.clock.now();
    const windowMs = GLOBAL_WRONG_CODES.window_seconds * 1000;
    const start = Math.floor(now / windowMs) * windowMs;
    const wrong = await r.storage.counters.read('device_wrong_codes:all', start);
    try {
      if (wrong >= GLOBAL_WRONG_CODES.limit) throw new WardError('rateLimited');
      await r.limiter('device', req.ip, r.account().rate_limits.device);
    } catch (e) {
      if (!(e instanceof WardError) || e.status !== 429) throw e;
      for (const [k, v] of Object.entries(e.headers)) reply.header(k, v);
      return codePage(req, reply, 429, typed, textsOf(req).tooMany);
    }
    return null;
  }

  const textsOf = (req: FastifyRequest) => textsIn(pageLanguage(req)).device;

  app.get('/device', { schema: devicePageSchema }, async (req, reply) => {
    await r.limiter('device_page', req.ip, r.account().rate_limits.device);
    const prefill = (req.query as Record<string, unknown>).user_code;
    return codePage(req, reply, 200, typeof prefill === 'string' ? prefill.slice(0, 20) : undefined);
  });

  app.post('/device', { schema: deviceFormSchema }, async (req, reply) => {
    const { params, duplicates } = singleValued(req.body);
    const cookie = req.cookies[CSRF_COOKIE];
    if (duplicates.length || !sameOriginPost(req, r.config.issuer) || !csrfValid(r.masterKey, cookie, params.csrf))
      return expiredPage(req, reply);
    const typed = typeof params.user_code === 'string' ? params.user_code.slice(0, 20) : '';
    const refused = await limited(req, reply, typed);
    if (refused) return refused;
    const now = r.clock.now();
    const code = normaliseUserCode(params.user_code);
    const row = code ? await r.storage.deviceAuthorizations.findLiveByUserCode(userCodeDigest(code), now) : undefined;
    const client = row?.status === 'pending' ? await r.clients.find(row.client_id) : undefined;
    if (!row || !client) {
      const windowMs = GLOBAL_WRONG_CODES.window_seconds * 1000;
      const start = Math.floor(now / windowMs) * windowMs;
      await r.storage.counters.hit('device_wrong_codes:all', start, start + windowMs);
      await r.events.emit('device.user_code_failed', { ip: req.ip }, 'a wrong device user code was typed', 'warn');
      return codePage(req, reply, 400, typed, textsOf(req).unknownCode);
    }
    const ar: AuthorizeRequest = {
      client,
      redirectUri: null,
      target: null,
      responseType: 'code',
      responseMode: 'query',
      scopes: row.scope.split(' ').filter(Boolean),
      ...(row.resource ? { resource: row.resource } : {}),
      device: row.id,
    };
    // Signed in already (and enough for this client): straight to the approval page.
    const session = await r.sessions.fromCookie(req.cookies[SESSION_COOKIE]);
    if (session?.user && (await nextStep.sessionAnswers(ar, session, undefined))) {
      const user = session.user;
      const outcome = await nextStep.consentFromSession(ar, { ...session, user }, browserState(req, reply, ar));
      if (outcome) return answerOutcome(r, req, reply, outcome);
    }
    // Else the usual sign-in, whose end is the approval page (interaction/consent.ts).
    const { handle } = await interactions.start(ar, 'login', browserCookie(req, reply));
    return reply
      .code(303)
      .header('Location', `/oauth/authorize/login?interaction=${encodeURIComponent(handle)}`)
      .header('Cache-Control', 'no-store')
      .send();
  });
}
