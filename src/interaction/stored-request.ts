import type { Client } from '../clients/service.js';
import type { AuthorizeRequest } from '../protocol/authorize/request.js';

/**
 * The validated authorization request as stored with its interaction. Only what was validated is
 * kept; the client is stored by id and read back (so a client deleted meanwhile ends the sign-in).
 * A tkn and an id_token_hint are used up at /oauth/authorize and never stored.
 */
interface StoredRequest {
  redirect_uri: string | null;
  target: string | null;
  response_type: AuthorizeRequest['responseType'];
  response_mode: AuthorizeRequest['responseMode'];
  scopes: string[];
  resource?: string;
  state?: string;
  nonce?: string;
  code_challenge?: string;
  dpop_jkt?: string;
  prompt?: AuthorizeRequest['prompt'];
  prompt_consent?: boolean;
  display?: AuthorizeRequest['display'];
  max_age?: number;
  ui_locales?: string;
  device?: string;
}

export function storeRequest(ar: AuthorizeRequest): string {
  const stored: StoredRequest = {
    redirect_uri: ar.redirectUri,
    target: ar.target,
    response_type: ar.responseType,
    response_mode: ar.responseMode,
    scopes: ar.scopes,
    resource: ar.resource,
    state: ar.state,
    nonce: ar.nonce,
    code_challenge: ar.codeChallenge,
    dpop_jkt: ar.dpopJkt,
    prompt: ar.prompt,
    prompt_consent: ar.promptConsent,
    display: ar.display,
    max_age: ar.maxAge,
    ui_locales: ar.uiLocales,
    device: ar.device,
  };
  return JSON.stringify(stored);
}

export function restoreRequest(json: string, client: Client): AuthorizeRequest {
  const s = JSON.parse(json) as StoredRequest;
  return {
    client,
    redirectUri: s.redirect_uri,
    target: s.target,
    responseType: s.response_type,
    responseMode: s.response_mode,
    scopes: s.scopes,
    resource: s.resource,
    state: s.state,
    nonce: s.nonce,
    codeChallenge: s.code_challenge,
    dpopJkt: s.dpop_jkt,
    prompt: s.prompt,
    promptConsent: s.prompt_consent,
    display: s.display,
    maxAge: s.max_age,
    uiLocales: s.ui_locales,
    device: s.device,
  };
}
