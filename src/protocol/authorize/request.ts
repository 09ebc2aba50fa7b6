import type { Client } from '../../clients/service.js';
import type { ApiResource, ResourceLookup } from '../../resources/service.js';
import type { WardError } from '../../errors/ward-error.js';
import type { RequestObjects } from './request-object.js';

export type ResponseType = 'code' | 'token' | 'messenger_code' | 'id_token' | 'code id_token';
export type ResponseMode = 'query' | 'fragment' | 'form_post' | 'web_message';

/** An authorization request once every check has passed. */
export interface AuthorizeRequest {
  client: Client;
  /** The redirect_uri as sent (null when omitted); the code is bound to it. */
  redirectUri: string | null;
  /** Where the response goes: the redirect_uri, or the client's only registered one. */
  target: string | null;
  responseType: ResponseType;
  responseMode: ResponseMode;
  scopes: string[];
  /** The API resource the tokens are for (RFC 8707: its identifier, the tokens' aud); absent: Ward's own. */
  resource?: string;
  state?: string;
  nonce?: string;
  codeChallenge?: string;
  /** dpop_jkt (RFC 9449 10): the thumbprint of the DPoP key the code must be redeemed with. */
  dpopJkt?: string;
  prompt?: 'none' | 'login';
  /** prompt=consent (a third-party client only): the consent page is shown even if already granted. */
  promptConsent?: boolean;
  /** popup: the response goes to the window that opened the popup (the SDK's popup mode, respond.ts). */
  display?: 'page' | 'popup' | 'touch' | 'wap';
  maxAge?: number;
  /** OIDC ui_locales: the languages the hosted pages should speak, in order of preference. */
  uiLocales?: string;
  tkn?: string;
  idTokenHint?: string;
  /** OIDC login_hint: the identifier the relying party knows (the login page prefills it). */
  loginHint?: string;
  /**
   * A device's sign-in (RFC 8628, /device): the id of its device authorization request. It has no
   * redirect: its approval page is always shown, and its end is a page saying the device may go on.
   */
  device?: string;
}

/** The state of the pipeline while checks run: each check reads params and fills the request. */
export interface AuthorizeContext {
  params: Record<string, unknown>;
  duplicates: string[];
  req: Partial<AuthorizeRequest>;
  findClient(id: string): Promise<Client | undefined>;
  resources: ResourceLookup;
  /** The resource named by the request, once checkResource found it (checkScope reads its scopes). */
  resource?: ApiResource | null;
  /** Verifies request objects (RFC 9101); absent: `request` is request_not_supported. */
  requestObjects?: RequestObjects;
  /** The parameters came from a verified request object (here, or when pushed to /oauth/par). */
  signed?: boolean;
  /** A refused request object, thrown once the redirect_uri is trusted. */
  deferred?: WardError;
}
