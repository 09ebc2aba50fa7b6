import type { FastifyReply } from 'fastify';
import { cleanDescription, type Language, type WardError } from '../errors/ward-error.js';
import { authorizeErrorPage } from '../interaction/pages/authorize-error.js';
import { formPostPage } from '../interaction/pages/form-post.js';
import { deviceDonePage } from '../interaction/pages/device.js';
import { pageLanguage } from './page-language.js';
import { html } from '../lib/html.js';
import { jsonInScript, sendPage, sendRendered } from './pages.js';
import { sendPopupResponse } from './popup-response.js';
import type { AuthorizeRequest } from '../protocol/authorize/request.js';

/**
 * Sends an authorization response (success or error) to the validated target, built with the URL
 * API: query for codes, fragment for tokens, a page posting to the window that framed it
 * (web_message), or a page answering the window that opened it (display=popup, popup.ts).
 */
export function sendAuthorizationResponse(
  reply: FastifyReply,
  req: Partial<AuthorizeRequest>,
  issuer: string,
  values: Record<string, string | number | undefined>,
  redirectStatus = 302,
): FastifyReply {
  // A device's sign-in has no redirect: a page tells the user to go back to the device.
  if (req.device) {
    const end = values.device === 'approved' ? 'approved' : values.device === 'expired' ? 'expired' : 'denied';
    return sendRendered(reply, deviceDonePage(end, pageLanguage(reply.request, req)));
  }
  const response: Record<string, string> = {};
  for (const [k, v] of Object.entries(values)) if (v !== undefined) response[k] = String(v);
  if (req.responseType === 'messenger_code') {
    // Messenger's URL gains authorization_code (or error), everything else in it kept (ML-02, ML-04).
    const url = new URL(req.target!);
    if (response.code) url.searchParams.append('authorization_code', response.code);
    else for (const k of ['error', 'error_description']) if (response[k]) url.searchParams.append(k, response[k]!);
    return reply
      .code(redirectStatus)
      .header('Location', url.toString())
      .header('Cache-Control', 'no-store')
      .header('Referrer-Policy', 'no-referrer')
      .send();
  }
  if (req.state !== undefined) response.state = req.state;
  response.iss = issuer;
  if (req.responseMode === 'web_message') return sendWebMessage(reply, req, response);
  // The pages below speak the request's language (ui_locales, else the browser's Accept-Language).
  if (req.responseMode === 'form_post')
    return sendRendered(reply, formPostPage(req.target!, response, pageLanguage(reply.request, req)));
  const url = new URL(req.target!);
  if (req.responseMode === 'fragment') {
    url.hash = new URLSearchParams(response).toString();
  } else {
    for (const [k, v] of Object.entries(response)) url.searchParams.append(k, v);
  }
  // After the Messenger and web_message answers above: display=popup changes only how a redirect is delivered.
  if (req.display === 'popup') {
    const data: Record<string, string | number> = { ...response };
    for (const [k, v] of Object.entries(values)) if (typeof v === 'number') data[k] = v;
    return sendPopupResponse(reply, req, data, url.toString(), pageLanguage(reply.request, req));
  }
  return reply
    .code(redirectStatus)
    .header('Location', url.toString())
    .header('Cache-Control', 'no-store')
    .header('Referrer-Policy', 'no-referrer')
    .send();
}

/**
 * An error on /oauth/authorize: redirected to the client only when its catalog entry allows it and
 * the target is validated (the request it carries says where); otherwise Ward's error page, in the
 * user's language.
 */
export function sendAuthorizeError(
  reply: FastifyReply,
  err: WardError,
  language: Language,
  issuer: string | undefined,
): FastifyReply {
  const req = (err.authorizeRequest ?? {}) as Partial<AuthorizeRequest>;
  if (!err.redirectable || issuer === undefined || (!req.target && req.responseMode !== 'web_message')) {
    // Escaped by the page: only control and format characters go (cleanDescription, for URLs, would
    // also drop the accents of the French messages).
    const message = err
      .userMessage(language)
      .replace(/[\p{Cc}\p{Cf}]/gu, ' ')
      .slice(0, 300);
    return sendRendered(reply, authorizeErrorPage(err.status, language, message, err.error));
  }
  const description = cleanDescription(err.description);
  return sendAuthorizationResponse(
    reply,
    req,
    issuer,
    { error: err.error, error_description: description },
    err.redirectStatus,
  );
}

/**
 * response_mode=web_message: a page that posts {type: "authorization_response", response} to its
 * parent, addressed to each allowed origin of the client (postMessage delivers only to a matching
 * one). It may be framed only by those origins.
 */
function sendWebMessage(
  reply: FastifyReply,
  req: Partial<AuthorizeRequest>,
  response: Record<string, string>,
): FastifyReply {
  const origins = req.client?.allowed_origins ?? [];
  const script =
    `(function(){var m=${jsonInScript({ type: 'authorization_response', response })};var ` +
    `o=${jsonInScript(origins)};var w=window.opener||window.parent;for(var ` +
    `i=0;i<o.length;i++){w.postMessage(m,o[i]);}})();`;
  return sendPage(reply, 200, 'Authorization response', html``, { script, frameAncestors: origins });
}
