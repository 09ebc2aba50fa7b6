// display=popup: the Core SDK's popup mode (loginWithSocialProvider with popupMode) opens
// /oauth/authorize in a window and waits for the answer over postMessage, in the protocol of the
// winchan library it uses: the popup says {"a":"ready"} to its opener, the opener answers
// {"a":"request"}, the popup replies {"a":"response","d":{"success":true|false,"data":{...}}} and
// closes. The answer goes only to an opener whose origin is one the client trusts (an allowed
// origin, or the origin of the redirect_uri the response is for); to anyone else, nothing. Without
// such an opener (a plain OpenID relying party that asked for a popup-sized page, or a window
// opened with noopener) the page goes on to the redirect_uri as a redirect would have.
import type { FastifyReply } from 'fastify';
import type { Language } from '../errors/ward-error.js';
import { html } from '../lib/html.js';
import { textsIn } from '../texts/texts.js';
import { jsonInScript, sendRendered } from './pages.js';
import type { AuthorizeRequest } from '../protocol/authorize/request.js';

/** How long the page waits for a winchan opener before it falls back to the redirect. */
const POPUP_FALLBACK_MS = 2000;

/** The origins an answer may be posted to. */
function popupOrigins(req: Partial<AuthorizeRequest>): string[] {
  const origins = new Set(req.client?.allowed_origins ?? []);
  if (req.target) {
    const origin = new URL(req.target).origin;
    if (origin !== 'null') origins.add(origin);
  }
  return [...origins];
}

/**
 * The page that answers the opener. `data` holds the response's values (numbers kept as numbers,
 * as the SDK hands them to the application); `fallback` is the URL a redirect would have gone to.
 */
export function sendPopupResponse(
  reply: FastifyReply,
  req: Partial<AuthorizeRequest>,
  data: Record<string, string | number>,
  fallback: string,
  language: Language,
): FastifyReply {
  const result = { success: data.error === undefined, data };
  const script =
    `(function(){var r=${jsonInScript(result)},o=${jsonInScript(popupOrigins(req))},u=${jsonInScript(fallback)},w=window.opener,done=false;` +
    'function go(){if(done)return;done=true;location.replace(u);}' +
    'if(!w){go();return;}' +
    'window.addEventListener("message",function(e){if(done||o.indexOf(e.origin)<0||typeof ' +
    'e.data!=="string")return;var d;try{d=JSON.parse(e.data);}catch(x){return;}' +
    'if(!d||d.a!=="request")return;done=true;w.postMessage(JSON.stringify({a:"response",d:r}),e.origin);window.close();});' +
    'for(var i=0;i<o.length;i++)w.postMessage(JSON.stringify({a:"ready"}),o[i]);' +
    `setTimeout(go,${POPUP_FALLBACK_MS});})();`;
  const t = textsIn(language).pages.popup;
  const body = html`<p>${result.success ? t.done : t.failed}</p>`;
  return sendRendered(reply, { status: 200, title: t.title, lang: language, body, script });
}
