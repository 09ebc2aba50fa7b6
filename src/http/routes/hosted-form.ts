import type { FastifyReply, FastifyRequest } from 'fastify';
import { SESSION_COOKIE } from '../../accounts/sessions.js';
import { CSRF_COOKIE, csrfToken, csrfValid, newCsrfCookie } from '../../flows/login/csrf.js';
import { sendPage } from '../pages.js';
import { validateAuthorizeRequest } from '../../protocol/authorize/pipeline.js';
import type { AuthorizeRequest } from '../../protocol/authorize/request.js';
import { sendAuthorizeError } from '../../protocol/authorize/respond.js';
import type { Registry } from '../../registry.js';
import { setSessionCookie } from '../cookies.js';
import { singleValued } from '../params.js';

// What the hosted pages (login form, second-factor form) share.

/**
 * Whether a form post may come from Ward's own login page. The page is `Referrer-Policy: no-referrer`,
 * so browsers send `Origin: null` for its POST (Fetch, "append a request Origin header"): `null` means
 * "not said", not "foreign", and the CSRF token decides. A real foreign Origin, or Sec-Fetch-Site
 * other than same-origin, is refused.
 */
export function sameOriginPost(req: FastifyRequest, issuer: string): boolean {
  const origin = req.headers.origin;
  if (origin !== undefined && origin !== 'null' && origin !== new URL(issuer).origin) return false;
  const site = req.headers['sec-fetch-site'];
  return site === undefined || site === 'same-origin';
}

/** A raw query string as Fastify's parser gives it: a repeated name becomes an array of its values. */
export function queryParams(raw: string): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [k, v] of new URLSearchParams(raw)) {
    const prev = out[k];
    out[k] = prev === undefined ? v : [...(Array.isArray(prev) ? prev : [prev]), v];
  }
  return out;
}

/** Validates an authorization request; on failure the error is already answered (page or redirect). */
export async function validateOrAnswer(
  r: Registry,
  reply: FastifyReply,
  query: unknown,
): Promise<AuthorizeRequest | null> {
  const { params, duplicates } = singleValued(query);
  const v = await validateAuthorizeRequest(params, duplicates, (id) => r.clients.find(id));
  if (!v.ok) {
    sendAuthorizeError(reply, v.error, v.partial, r.config.issuer);
    return null;
  }
  return v.req;
}

/** A login: a new session id, and the session the browser had (if any) is ended (ASVS 7.2.4). */
export async function startLoginSession(
  r: Registry,
  req: FastifyRequest,
  reply: FastifyReply,
  userId: string,
  amr: string[],
  authTime: number,
): Promise<string> {
  const { cookie, session } = await r.sessions.create(userId, amr, authTime, req.cookies[SESSION_COOKIE]);
  setSessionCookie(reply, cookie, r.account().session_ttl);
  return session.id;
}

/** The form token of a hosted page, bound to the pre-login cookie (set now when the browser has none). */
export function ensureCsrf(r: Registry, req: FastifyRequest, reply: FastifyReply): string {
  let cookie = req.cookies[CSRF_COOKIE];
  if (!cookie || cookie.length > 100) {
    cookie = newCsrfCookie();
    reply.setCookie(CSRF_COOKIE, cookie, { path: '/', secure: true, httpOnly: true, sameSite: 'lax' });
  }
  return csrfToken(r.masterKey, cookie);
}

/**
 * The checks every hosted-page POST starts with: no parameter twice, the same origin, the CSRF token
 * of the pre-login cookie, then the authorization request the form carries (parsed like a query
 * string, so a repeated parameter stays repeated and is refused). Null when already answered.
 */
export async function acceptHostedPost(
  r: Registry,
  req: FastifyRequest,
  reply: FastifyReply,
): Promise<{ params: Record<string, unknown>; rawQuery: string; ar: AuthorizeRequest } | null> {
  const { params, duplicates } = singleValued(req.body);
  if (
    duplicates.length ||
    !sameOriginPost(req, r.config.issuer) ||
    !csrfValid(r.masterKey, req.cookies[CSRF_COOKIE], params.csrf)
  ) {
    sendPage(
      reply,
      403,
      'Sign-in expired',
      '<h1>This sign-in form has expired</h1><p>Go back to the application and start again.</p>',
    );
    return null;
  }
  const rawQuery = typeof params.request === 'string' ? params.request : '';
  const ar = await validateOrAnswer(r, reply, queryParams(rawQuery));
  return ar ? { params, rawQuery, ar } : null;
}
