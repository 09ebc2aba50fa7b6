// OpenID Connect RP-Initiated Logout 1.0 (section 2): the request to the end_session_endpoint,
// validated before anything changes. The id_token_hint is verified with jose like every JWT Ward
// consumes (protocol/id-token-hint.ts: the client's algorithm and keys, iss and aud), an expired one
// accepted (section 4: it names who, it proves nothing more). The client is the one named by
// client_id, else the hint's audience; a client_id that is not the hint's audience is refused. A
// post_logout_redirect_uri is compared exactly with the client's registered list and is never
// followed when it does not match. Whether the request may end the session without asking is
// decided against the session (`tiedTo`).
import { decodeJwt } from 'jose';
import { sidOf } from '../accounts/sessions.js';
import type { Client, ClientService } from '../clients/service.js';
import type { Language } from '../errors/ward-error.js';
import { uiLocalesLanguage, WardError } from '../errors/ward-error.js';
import type { KeyStore } from '../keys/key-store.js';
import { hmac, safeEqual } from '../lib/secrets.js';
import { idTokenHintClaims } from '../protocol/id-token-hint.js';
import { type Params, str } from '../protocol/params.js';

export interface EndSessionRequest {
  client: Client | null;
  /** The registered post_logout_redirect_uri, exactly as sent; null: the signed-out page. */
  redirectUri: string | null;
  state: string | null;
  /** The verified hint's subject and session. */
  hint: { sub: string; sid: string | null } | null;
  /** From ui_locales: the first language Ward speaks, else null (Accept-Language decides). */
  language: Language | null;
  /** The parameters as they were received, to carry through the confirmation page. */
  carried: Record<string, string>;
}

/** The OpenID Connect parameters: a request with any of them is a standard one, not the SDK's `redirect_to`. */
export const END_SESSION_PARAMS = ['id_token_hint', 'client_id', 'post_logout_redirect_uri'] as const;

/** The hint's intended client: its `aud` (or `azp` when it names several), read unverified to choose the keys. */
function hintAudience(token: string): string[] {
  try {
    const claims = decodeJwt(token);
    const aud = claims.aud;
    return typeof aud === 'string' ? [aud] : Array.isArray(aud) ? aud.filter((a) => typeof a === 'string') : [];
  } catch {
    return [];
  }
}

export async function validateEndSession(
  params: Params,
  deps: { issuer: string; keys: KeyStore; clients: ClientService },
): Promise<EndSessionRequest> {
  const idTokenHint = str(params, 'id_token_hint', 8192);
  const clientId = str(params, 'client_id', 128);
  const redirectUri = str(params, 'post_logout_redirect_uri', 2048);
  const state = str(params, 'state', 2048) ?? null;
  const uiLocales = str(params, 'ui_locales', 200);
  let client: Client | null = null;
  if (clientId !== undefined) {
    client = (await deps.clients.find(clientId)) ?? null;
    if (!client) throw new WardError('unknownClient');
  }
  let hint: EndSessionRequest['hint'] = null;
  if (idTokenHint !== undefined) {
    const audience = hintAudience(idTokenHint);
    if (client && !audience.includes(client.client_id)) throw new WardError('logoutClientMismatch');
    if (!client) {
      const named = audience.length === 1 ? audience[0] : undefined;
      client = (named && (await deps.clients.find(named))) || null;
    }
    hint = client ? await idTokenHintClaims(idTokenHint, client, deps) : null;
    if (!hint) throw new WardError('logoutHintInvalid');
  }
  if (redirectUri !== undefined) {
    if (!client) throw new WardError('logoutRedirectWithoutClient');
    if (!client.post_logout_redirect_uris.includes(redirectUri)) throw new WardError('logoutRedirectUnregistered');
  }
  const carried: Record<string, string> = {};
  for (const [k, v] of Object.entries({
    id_token_hint: idTokenHint,
    client_id: clientId,
    post_logout_redirect_uri: redirectUri,
    state: state ?? undefined,
    ui_locales: uiLocales,
  }))
    if (v !== undefined) carried[k] = v;
  return { client, redirectUri: redirectUri ?? null, state, hint, language: uiLocalesLanguage(uiLocales), carried };
}

/**
 * The request may end this session without asking: its verified hint names the session's user and,
 * when the hint carries a sid, this very session. Anything else (no hint, another user, an older
 * session) is a link anyone could have made: the user is asked first.
 */
export function tiedTo(request: EndSessionRequest, session: { id: string; userId: string }): boolean {
  const hint = request.hint;
  return !!hint && hint.sub === session.userId && (hint.sid === null || hint.sid === sidOf(session.id));
}

/**
 * Where the browser goes once signed out: the registered URI exactly as registered (it has no
 * fragment), with `state` added to its query when one was sent.
 */
export function returnUrl(request: EndSessionRequest): string | null {
  const uri = request.redirectUri;
  if (!uri) return null;
  if (request.state === null) return uri;
  return `${uri}${uri.includes('?') ? '&' : '?'}${new URLSearchParams({ state: request.state }).toString()}`;
}

/** The confirmation form's token: bound to the session it would end, so no other page can forge one. */
export const confirmationToken = (masterKey: Buffer, sessionId: string): string =>
  hmac(masterKey, `logout-confirm:${sessionId}`);

export const confirmationValid = (masterKey: Buffer, sessionId: string, token: unknown): boolean =>
  typeof token === 'string' && safeEqual(confirmationToken(masterKey, sessionId), token);
