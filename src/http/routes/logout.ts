import type { FastifyReply, FastifyRequest } from 'fastify';
import type { WardApp } from '../typed-app.js';
import { logoutBodySchema, logoutQuerySchema } from './schemas/logout-social.js';
import { SESSION_COOKIE, type SessionService } from '../../accounts/sessions.js';
import { forbidden } from '../../errors/refusals.js';
import { WardError } from '../../errors/ward-error.js';
import {
  logoutConfirmPage,
  logoutErrorPage,
  signedOutPage,
  stillSignedInPage,
} from '../../interaction/pages/logout.js';
import { endSessionEverywhere, type LogoutDelivery } from '../../logout/backchannel.js';
import {
  END_SESSION_PARAMS,
  confirmationToken,
  confirmationValid,
  returnUrl,
  tiedTo,
  validateEndSession,
} from '../../logout/end-session.js';
import { requireSingle, type Params } from '../../protocol/params.js';
import { clearSessionCookie } from '../cookies.js';
import { sendRendered } from '../pages.js';
import { pageLanguage } from '../page-language.js';
import type { SecurityEvents, StagedEvent } from '../../audit/events.js';
import type { ClientService } from '../../clients/service.js';
import type { WardConfig } from '../../config/types.js';
import type { KeyStore } from '../../keys/key-store.js';
import type { Clock } from '../../lib/clock.js';
import type { Storage } from '../../storage/storage.js';

/** The services this module uses (registry.ts builds them; the composition passes them in). */
interface LogoutDeps {
  clients: ClientService;
  clock: Clock;
  config: WardConfig;
  events: SecurityEvents;
  keys: KeyStore;
  logoutDelivery: LogoutDelivery;
  masterKey: Buffer;
  sessions: SessionService;
  storage: Storage;
}

/**
 * The end_session_endpoint, `/identity/v1/logout` (GET and POST): the Core SDK's `redirect_to`
 * logout as it always was, and OpenID Connect RP-Initiated Logout 1.0 (logout/end-session.ts).
 * Ending a session also queues the Back-Channel Logout tokens of the clients that had it.
 */
export function logoutRoutes(app: WardApp, r: LogoutDeps): void {
  /**
   * The SDK's logout changes state with the SSO cookie (SameSite=None), so a cross-site page must not
   * be able to fire it (SS-03): a request carrying an Origin must come from Ward or a client's allowed
   * origin; without one, a cross-site request must be a top-level navigation (the Core SDK's
   * window.location.assign), never an image, script, iframe or no-cors fetch.
   */
  async function sdkLogoutAllowed(headers: FastifyRequest['headers']): Promise<boolean> {
    const origin = headers.origin;
    if (origin !== undefined)
      return (
        origin === new URL(r.config.issuer).origin ||
        (typeof origin === 'string' && (await r.clients.allowedOrigins()).has(origin))
      );
    const site = headers['sec-fetch-site'];
    if (site === undefined || site === 'same-origin' || site === 'none') return true;
    const dest = headers['sec-fetch-dest'];
    return headers['sec-fetch-mode'] === 'navigate' && (dest === undefined || dest === 'document');
  }

  async function endCurrentSession(req: FastifyRequest, reply: FastifyReply) {
    const session = await r.sessions.fromCookie(req.cookies[SESSION_COOKIE]);
    if (session) {
      // Audited, and its `logout` webhook event written with the session's end: whose session ended.
      let ended: StagedEvent | undefined;
      await endSessionEverywhere({ ...r, delivery: r.logoutDelivery }, session, async (tx) => {
        ended = await r.events.stage(tx, 'logout', { user_id: session.userId });
      });
      if (ended) r.events.emitStaged(ended, 'signed out');
    }
    clearSessionCookie(reply);
  }

  /** The Core SDK's `?redirect_to=&state=`: back to a URL some client registered, else a page. */
  async function sdkLogout(req: FastifyRequest, reply: FastifyReply, q: Params) {
    if (!(await sdkLogoutAllowed(req.headers))) {
      await r.events.emit(
        'logout.refused',
        { origin: String(req.headers.origin ?? '').slice(0, 200), site: req.headers['sec-fetch-site'] },
        'cross-site logout refused',
        'warn',
      );
      throw forbidden('Logout must be a top-level navigation or come from an allowed origin');
    }
    await endCurrentSession(req, reply);
    const redirectTo = typeof q.redirect_to === 'string' ? q.redirect_to : undefined;
    if (redirectTo) {
      // Only to a URL some client registered, compared exactly: logout is no open redirector.
      const allowed = (await r.clients.returnUrls()).has(redirectTo);
      if (allowed) {
        const url = new URL(redirectTo);
        if (typeof q.state === 'string') url.searchParams.set('state', q.state);
        return reply.code(302).header('Location', url.toString()).header('Cache-Control', 'no-store').send();
      }
    }
    return sendRendered(reply, signedOutPage(pageLanguage(req), redirectTo));
  }

  /** RP-Initiated Logout: validated first; ends the session at once only when the request is tied to it. */
  async function endSession(req: FastifyRequest, reply: FastifyReply, params: Params, post: boolean) {
    const request = await validateEndSession(params, { issuer: r.config.issuer, keys: r.keys, clients: r.clients });
    const language = request.language ?? pageLanguage(req);
    const session = await r.sessions.fromCookie(req.cookies[SESSION_COOKIE]);
    const target = returnUrl(request);
    const done = () =>
      target
        ? reply
            .code(post ? 303 : 302)
            .header('Location', target)
            .header('Cache-Control', 'no-store')
            .send()
        : sendRendered(reply, signedOutPage(language));
    if (post && params.confirm !== undefined) {
      // The answer of the confirmation page: only with the token bound to this very session.
      if (!session) {
        clearSessionCookie(reply);
        return done();
      }
      if (!confirmationValid(r.masterKey, session.id, params.confirmation))
        throw new WardError('logoutConfirmationInvalid');
      if (params.confirm !== 'yes') return sendRendered(reply, stillSignedInPage(language));
    } else if (session && !tiedTo(request, session)) {
      const user = session.user;
      return sendRendered(
        reply,
        logoutConfirmPage({
          language,
          clientName: request.client?.name ?? null,
          who: user?.email ?? user?.phone_number ?? [user?.given_name, user?.family_name].filter(Boolean).join(' '),
          token: confirmationToken(r.masterKey, session.id),
          carried: request.carried,
          target,
        }),
      );
    }
    await endCurrentSession(req, reply);
    return done();
  }

  async function handle(req: FastifyRequest, reply: FastifyReply) {
    const post = req.method === 'POST';
    const params = requireSingle(post ? req.body : req.query);
    const standard = END_SESSION_PARAMS.some((p) => params[p] !== undefined);
    // Without any OpenID Connect parameter a GET is the Core SDK's logout (`?redirect_to=&state=`, or
    // nothing), answered as it always was.
    if (!post && !standard) return sdkLogout(req, reply, params);
    try {
      return await endSession(req, reply, params, post);
    } catch (e) {
      // A browser sees the refusal as a page (nothing changed, nobody redirected); an API caller as JSON.
      if (!(e instanceof WardError) || !req.headers.accept?.includes('text/html')) throw e;
      // The refused request's ui_locales still says the user's language (the first language of it Ward speaks).
      const language = pageLanguage(req, {
        uiLocales: typeof params.ui_locales === 'string' ? params.ui_locales : undefined,
      });
      return sendRendered(reply, logoutErrorPage(e.status, language, e.userMessage(language), e.error));
    }
  }

  app.get('/identity/v1/logout', { schema: logoutQuerySchema }, handle);
  app.post('/identity/v1/logout', { schema: logoutBodySchema }, handle);
}
