// Login CSRF (issue 33, item 4). A tkn (password login, signup, passkey sign-in) signs in whichever
// browser opens /oauth/authorize?tkn=: a stranger's own tkn would sign this browser into the
// stranger's account. So a tkn minted for a browser's call remembers that browser: the origin the call came
// from and the pre-login cookie it carried or was given. /oauth/authorize uses it at once only in a
// browser it recognises: the same cookie (Ward on the app's site), or a navigation whose Referer is
// the origin of the call (Ward on another site, where the browser withholds Ward's cookie from the
// app's call: the SDK navigates from the app's page). Any other browser confirms on a page first.
// The same rule for a passwordless code opened by GET (src/http/routes/passwordless.ts). A request
// that is no browser's (a server, the SDK in Node) is no victim of login CSRF.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CSRF_COOKIE } from '../interaction/csrf.js';
import { safeEqual, sha256 } from '../lib/secrets.js';
import type { TknPayload } from '../protocol/tkn.js';
import { browserCookie } from './routes/hosted-form.js';

type Binding = Pick<TknPayload, 'origin' | 'browser'>;

/** What binds a tkn minted now to the calling browser (nothing for a call without Origin: a server's). */
export function tknBinding(req: FastifyRequest, reply: FastifyReply): Binding {
  const origin = req.headers.origin;
  if (origin === undefined || origin === 'null') return {};
  return { origin, browser: sha256(browserCookie(req, reply)) };
}

/**
 * Whether a browser sent a request, of any kind: Fetch Metadata (Sec-Fetch-Site, which browsers send
 * on every request; an image or a fetch of another site's page would plant a SameSite=None session
 * cookie as well as a navigation), or an older browser's navigation asking for a page.
 */
export function isBrowserRequest(req: FastifyRequest): boolean {
  if (req.headers['sec-fetch-site'] !== undefined) return true;
  return /\btext\/html\b/.test(req.headers.accept ?? '');
}

/** Whether a navigation comes from a page of `origin` (its Referer; a page of another site cannot forge it). */
export function navigatesFrom(req: FastifyRequest, origin: string | undefined): boolean {
  const referer = req.headers.referer;
  if (!origin || !referer) return false;
  try {
    return new URL(referer).origin === origin;
  } catch {
    return false;
  }
}

/** Whether the browser opening a tkn is the one its call came from. */
export function tknBoundHere(req: FastifyRequest, payload: TknPayload): boolean {
  const cookie = req.cookies[CSRF_COOKIE];
  if (payload.browser && cookie && cookie.length <= 100 && safeEqual(payload.browser, sha256(cookie))) return true;
  return navigatesFrom(req, payload.origin);
}
