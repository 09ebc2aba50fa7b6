import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { SESSION_COOKIE } from '../../accounts/sessions.js';
import { AuthorizeError } from '../../errors/oauth-error.js';
import { CSRF_COOKIE, csrfToken, csrfValid, newCsrfCookie } from '../../flows/login/csrf.js';
import { sendLoginPage } from '../../flows/login/page.js';
import { completeAuthorization, type Authenticated } from '../../protocol/authorize/complete.js';
import { validateAuthorizeRequest } from '../../protocol/authorize/pipeline.js';
import { verifyIdTokenHint } from '../../protocol/id-token-hint.js';
import type { AuthorizeRequest } from '../../protocol/authorize/request.js';
import { sendAuthorizeError } from '../../protocol/authorize/respond.js';
import type { Registry } from '../../registry.js';
import { ApiError } from '../../errors/api-error.js';
import { setSessionCookie } from '../cookies.js';
import { sendPage } from '../pages.js';
import { singleValued } from '../params.js';

const FORCE_LOGIN = new Set(['login', 'consent', 'select_account']);

/** Whether an authentication at `authTime` is recent enough for max_age (seconds; undefined: any). */
function withinMaxAge(now: number, authTime: number, maxAge: number | undefined): boolean {
  return maxAge === undefined || now - authTime <= maxAge * 1000;
}

/**
 * Whether a form post may come from Ward's own login page. The page is `Referrer-Policy: no-referrer`,
 * so browsers send `Origin: null` for its POST (Fetch, "append a request Origin header"): `null` means
 * "not said", not "foreign", and the CSRF token decides. A real foreign Origin, or Sec-Fetch-Site
 * other than same-origin, is refused.
 */
function sameOriginPost(req: FastifyRequest, issuer: string): boolean {
  const origin = req.headers.origin;
  if (origin !== undefined && origin !== 'null' && origin !== new URL(issuer).origin) return false;
  const site = req.headers['sec-fetch-site'];
  return site === undefined || site === 'same-origin';
}

/** A raw query string as Fastify's parser gives it: a repeated name becomes an array of its values. */
function queryParams(raw: string): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [k, v] of new URLSearchParams(raw)) {
    const prev = out[k];
    out[k] = prev === undefined ? v : [...(Array.isArray(prev) ? prev : [prev]), v];
  }
  return out;
}

/** GET /oauth/authorize and the hosted login form it shows (POST /oauth/authorize/login). */
export function authorizeRoutes(app: FastifyInstance, r: Registry): void {
  const findClient = (id: string) => r.clients.find(id);

  async function validate(reply: FastifyReply, query: unknown): Promise<AuthorizeRequest | null> {
    const { params, duplicates } = singleValued(query);
    const v = await validateAuthorizeRequest(params, duplicates, findClient);
    if (!v.ok) {
      sendAuthorizeError(reply, v.error, v.partial, r.config.issuer);
      return null;
    }
    return v.req;
  }

  function loginPage(req: FastifyRequest, reply: FastifyReply, ar: AuthorizeRequest, rawQuery: string, status = 200, error?: string, email?: string) {
    let csrfCookie = req.cookies[CSRF_COOKIE];
    if (!csrfCookie || csrfCookie.length > 100) {
      csrfCookie = newCsrfCookie();
      reply.setCookie(CSRF_COOKIE, csrfCookie, { path: '/', secure: true, httpOnly: true, sameSite: 'lax' });
    }
    return sendLoginPage(reply, status, { clientName: ar.client.name, request: rawQuery, csrf: csrfToken(r.masterKey, csrfCookie), error, email, target: ar.target });
  }

  /** A login: a new session id, and the session the browser had (if any) is ended (ASVS 7.2.4). */
  async function startSession(req: FastifyRequest, reply: FastifyReply, userId: string, amr: string[], authTime: number): Promise<string> {
    const { cookie, session } = await r.sessions.create(userId, amr, authTime, req.cookies[SESSION_COOKIE]);
    setSessionCookie(reply, cookie, r.account().session_ttl);
    return session.id;
  }

  app.get('/oauth/authorize', async (req, reply) => {
    const ar = await validate(reply, req.query);
    if (!ar) return reply;
    const rawQuery = req.url.includes('?') ? req.url.slice(req.url.indexOf('?') + 1) : '';
    // id_token_hint: one of Ward's own ID tokens for this client, signed by a key still published.
    const hintSub = ar.idTokenHint ? verifyIdTokenHint(ar.idTokenHint, ar.client, { issuer: r.config.issuer, keys: r.keys, clients: r.clients }) : undefined;
    if (hintSub === null) return sendAuthorizeError(reply, new AuthorizeError('invalid_request', 'id_token_hint is not a valid ID token of this client', true), ar, r.config.issuer);
    let auth: Authenticated | null = null;
    if (ar.tkn) {
      const t = await r.tkn.consume(ar.tkn, ar.client.client_id);
      if (!t.ok) return sendAuthorizeError(reply, new AuthorizeError('access_denied', 'The authentication token (tkn) is invalid, expired or already used', true), ar, r.config.issuer);
      if (t.payload.mfa_pending) return sendAuthorizeError(reply, new AuthorizeError('access_denied', 'A step-up is required: this tkn is only good for /identity/v1/mfa/stepup', true), ar, r.config.issuer);
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
      const user = fresh ? await r.users.find(session.userId) : undefined;
      // A session of another user than the hint names does not answer this request.
      if (session && user && !user.disabled && (hintSub === undefined || hintSub === user.id)) auth = { user, sessionId: session.id, authTime: session.authTime, amr: session.amr };
    }
    if (auth) {
      await completeAuthorization(r, reply, ar, auth);
      return reply;
    }
    if (ar.prompt === 'none') return sendAuthorizeError(reply, new AuthorizeError('login_required', 'The user is not signed in', true), ar, r.config.issuer);
    if (ar.responseMode === 'web_message') return sendAuthorizeError(reply, new AuthorizeError('login_required', 'The user is not signed in', true), ar, r.config.issuer);
    return loginPage(req, reply, ar, rawQuery);
  });

  app.post('/oauth/authorize/login', async (req, reply) => {
    const { params, duplicates } = singleValued(req.body);
    if (duplicates.length || !sameOriginPost(req, r.config.issuer) || !csrfValid(r.masterKey, req.cookies[CSRF_COOKIE], params.csrf)) {
      return sendPage(reply, 403, 'Sign-in expired', '<h1>This sign-in form has expired</h1><p>Go back to the application and start again.</p>');
    }
    const rawQuery = typeof params.request === 'string' ? params.request : '';
    // Parsed like a query string: a repeated parameter stays repeated, so it is refused (never last wins).
    const ar = await validate(reply, queryParams(rawQuery));
    if (!ar) return reply;
    const email = typeof params.email === 'string' ? params.email.slice(0, 320) : '';
    try {
      await r.limiter('login', req.ip, r.account().rate_limits.login);
    } catch (e) {
      if (e instanceof ApiError && e.status === 429) {
        for (const [k, v] of Object.entries(e.headers)) reply.header(k, v);
        return loginPage(req, reply, ar, rawQuery, 429, 'Too many sign-in attempts. Wait a minute and try again.', email);
      }
      throw e;
    }
    const user = await r.users.authenticate({ email }, params.password);
    if (!user) return loginPage(req, reply, ar, rawQuery, 401, 'The email or password is incorrect.', email);
    const authTime = r.clock.now();
    const sessionId = await startSession(req, reply, user.id, ['pwd'], authTime);
    // After a POST, redirect with 303 so the browser never re-posts credentials (RFC 9700 4.12).
    await completeAuthorization(r, reply, ar, { user, sessionId, authTime, amr: ['pwd'] }, 303);
    return reply;
  });
}
