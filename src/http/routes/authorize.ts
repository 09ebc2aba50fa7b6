import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { SESSION_COOKIE } from '../../accounts/sessions.js';
import { AuthorizeError } from '../../errors/oauth-error.js';
import { sendLoginPage } from '../../flows/login/page.js';
import { completeAuthorization, type Authenticated } from '../../protocol/authorize/complete.js';
import { verifyIdTokenHint } from '../../protocol/id-token-hint.js';
import { stepUpRequiredAtLogin } from '../../flows/stepup/factors.js';
import type { AuthorizeRequest } from '../../protocol/authorize/request.js';
import { sendAuthorizeError } from '../../protocol/authorize/respond.js';
import type { Registry } from '../../registry.js';
import { ApiError } from '../../errors/api-error.js';
import { consentRoutes } from './authorize-consent.js';
import type { hostedMfaRoutes } from './authorize-mfa.js';
import type { socialRoutes } from './social.js';
import { acceptHostedPost, ensureCsrf, startLoginSession, validateOrAnswer } from './hosted-form.js';
import { TRUSTED_DEVICE_COOKIE, isTrustedDevice } from './trusted-device.js';

const FORCE_LOGIN = new Set(['login', 'consent', 'select_account']);

/** Whether an authentication at `authTime` is recent enough for max_age (seconds; undefined: any). */
function withinMaxAge(now: number, authTime: number, maxAge: number | undefined): boolean {
  return maxAge === undefined || now - authTime <= maxAge * 1000;
}

/** GET /oauth/authorize and the hosted login form it shows (POST /oauth/authorize/login). */
export interface AuthorizeDeps {
  mfa: ReturnType<typeof hostedMfaRoutes>;
  social: ReturnType<typeof socialRoutes>;
  providers: () => Array<{ name: string; label: string }>;
}

export function authorizeRoutes(app: FastifyInstance, r: Registry, deps: AuthorizeDeps): void {
  const { mfa, social } = deps;
  const consent = consentRoutes(app, r);

  const validate = (reply: FastifyReply, query: unknown) => validateOrAnswer(r, reply, query);

  function loginPage(
    req: FastifyRequest,
    reply: FastifyReply,
    ar: AuthorizeRequest,
    rawQuery: string,
    status = 200,
    error?: string,
    email?: string,
  ) {
    const social = deps
      .providers()
      .map((p) => ({ label: p.label, href: `/oauth/authorize?${rawQuery}&provider=${encodeURIComponent(p.name)}` }));
    return sendLoginPage(reply, status, {
      clientName: ar.client.name,
      request: rawQuery,
      csrf: ensureCsrf(r, req, reply),
      error,
      email,
      target: ar.target,
      social,
    });
  }

  const startSession = (req: FastifyRequest, reply: FastifyReply, userId: string, amr: string[], authTime: number) =>
    startLoginSession(r, req, reply, userId, amr, authTime);

  app.get('/oauth/authorize', async (req, reply) => {
    const ar = await validate(reply, req.query);
    if (!ar) return reply;
    const rawQuery = req.url.includes('?') ? req.url.slice(req.url.indexOf('?') + 1) : '';
    // id_token_hint: one of Ward's own ID tokens for this client, signed by a key still published.
    const hintSub = ar.idTokenHint
      ? verifyIdTokenHint(ar.idTokenHint, ar.client, { issuer: r.config.issuer, keys: r.keys, clients: r.clients })
      : undefined;
    if (hintSub === null)
      return sendAuthorizeError(
        reply,
        new AuthorizeError('invalid_request', 'id_token_hint is not a valid ID token of this client', true),
        ar,
        r.config.issuer,
      );
    // Social login: the user chose a provider; they authenticate there, whatever session they have.
    const provider = (req.query as Record<string, unknown>).provider;
    if (provider !== undefined) return social.start(reply, ar, rawQuery, provider);
    let auth: Authenticated | null = null;
    if (ar.tkn) {
      const t = await r.tkn.consume(ar.tkn, ar.client.client_id);
      if (!t.ok)
        return sendAuthorizeError(
          reply,
          new AuthorizeError(
            'access_denied',
            'The authentication token (tkn) is invalid, expired or already used',
            true,
          ),
          ar,
          r.config.issuer,
        );
      if (t.payload.mfa_pending)
        return sendAuthorizeError(
          reply,
          new AuthorizeError(
            'access_denied',
            'A step-up is required: this tkn is only good for /identity/v1/mfa/stepup',
            true,
          ),
          ar,
          r.config.issuer,
        );
      const user = await r.users.find(t.userId);
      // max_age applies to the login behind a tkn too (OIDC Core 3.1.2.1): an older one is not enough.
      if (user && !user.disabled && withinMaxAge(r.clock.now(), t.payload.auth_time, ar.maxAge)) {
        // A login is a new session identifier (no fixation).
        const sessionId = await startSession(req, reply, user.id, t.payload.amr, t.payload.auth_time);
        auth = { user, sessionId, authTime: t.payload.auth_time, amr: t.payload.amr };
      }
    } else if (!ar.prompt || !FORCE_LOGIN.has(ar.prompt)) {
      const session = await r.sessions.fromCookie(req.cookies[SESSION_COOKIE]);
      const fresh = session && withinMaxAge(r.clock.now(), session.authTime, ar.maxAge);
      const user = fresh ? session.user : undefined;
      // A session of another user than the hint names does not answer this request; nor does a
      // password-only session of a user who must step up at login (the cookie is no second factor).
      const needsMfa =
        session &&
        user &&
        !session.amr.includes('mfa') &&
        (await stepUpRequiredAtLogin(r.storage, r.account(), user.id));
      if (session && user && !user.disabled && !needsMfa && (hintSub === undefined || hintSub === user.id))
        auth = { user, sessionId: session.id, authTime: session.authTime, amr: session.amr };
    }
    if (auth) {
      // Messenger linking from an SSO cookie alone: the user confirms first (never a silent code).
      if (ar.responseType === 'messenger_code' && !ar.tkn) {
        if (ar.prompt === 'none')
          return sendAuthorizeError(
            reply,
            new AuthorizeError('interaction_required', 'Linking needs the user to confirm', true),
            ar,
            r.config.issuer,
          );
        return consent.page(req, reply, ar, rawQuery, auth.user.email ?? auth.user.phone_number ?? auth.user.id);
      }
      await completeAuthorization(r, reply, ar, auth);
      return reply;
    }
    if (ar.prompt === 'none')
      return sendAuthorizeError(
        reply,
        new AuthorizeError('login_required', 'The user is not signed in', true),
        ar,
        r.config.issuer,
      );
    if (ar.responseMode === 'web_message')
      return sendAuthorizeError(
        reply,
        new AuthorizeError('login_required', 'The user is not signed in', true),
        ar,
        r.config.issuer,
      );
    return loginPage(req, reply, ar, rawQuery);
  });

  app.post('/oauth/authorize/login', async (req, reply) => {
    const accepted = await acceptHostedPost(r, req, reply);
    if (!accepted) return reply;
    const { params, rawQuery, ar } = accepted;
    const email = typeof params.email === 'string' ? params.email.slice(0, 320) : '';
    try {
      await r.limiter('login', req.ip, r.account().rate_limits.login);
    } catch (e) {
      if (e instanceof ApiError && e.status === 429) {
        for (const [k, v] of Object.entries(e.headers)) reply.header(k, v);
        return loginPage(
          req,
          reply,
          ar,
          rawQuery,
          429,
          'Too many sign-in attempts. Wait a minute and try again.',
          email,
        );
      }
      throw e;
    }
    const user = await r.users.authenticate({ email }, params.password);
    if (!user) return loginPage(req, reply, ar, rawQuery, 401, 'The email or password is incorrect.', email);
    // MFA required = Always: the password is only the first step (a trusted device skips the second).
    if (
      (await stepUpRequiredAtLogin(r.storage, r.account(), user.id)) &&
      !(await isTrustedDevice(r, req.cookies[TRUSTED_DEVICE_COOKIE], user.id))
    ) {
      return mfa.begin(req, reply, ar, rawQuery, user);
    }
    const authTime = r.clock.now();
    const sessionId = await startSession(req, reply, user.id, ['pwd'], authTime);
    // After a POST, redirect with 303 so the browser never re-posts credentials (RFC 9700 4.12).
    await completeAuthorization(r, reply, ar, { user, sessionId, authTime, amr: ['pwd'] }, 303);
    return reply;
  });
}
