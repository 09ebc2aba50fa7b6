// Rule: response_type is code, token (implicit) for a confidential client that enables it, or
// OpenID Connect's id_token and code id_token for a client that lists them (OIDC Core 3.2, 3.3; the
// values in any order, nonce required);
// response_mode is query, fragment, form_post (OAuth 2.0 Form Post Response Mode) or web_message,
// and fits it (no tokens in a query string; RFC 9700 section 2.1.2, OAuth Multiple Response Types 2.1).
import { WardError } from '../../errors/ward-error.js';
import type { AuthorizeContext, ResponseMode } from './request.js';

const MODES = new Set<string>(['query', 'fragment', 'form_post', 'web_message']);

/** OpenID Connect's response types, by their values sorted (the order in the request is free). */
const OIDC_TYPES = new Map<string, 'id_token' | 'code id_token'>([
  ['id_token', 'id_token'],
  ['code id_token', 'code id_token'],
]);

const oidcType = (type: unknown) =>
  typeof type === 'string' ? OIDC_TYPES.get(type.split(' ').sort().join(' ')) : undefined;

/**
 * Where errors go from here on: the response_mode sent when it is one of Ward's, else the response
 * type's default. Never throws, so the checks between it and checkResponseType (a request object,
 * RFC 9101, whose response_type may be only in the object) have their errors delivered.
 */
export function checkResponseMode(ctx: AuthorizeContext): void {
  const type = ctx.params.response_type;
  const mode = ctx.params.response_mode;
  const inFragment = type === 'token' || oidcType(type) !== undefined;
  ctx.req.responseMode = MODES.has(mode as string) ? (mode as ResponseMode) : inFragment ? 'fragment' : 'query';
}

export function checkResponseType(ctx: AuthorizeContext): void {
  const client = ctx.req.client!;
  const type = ctx.params.response_type;
  const mode = ctx.params.response_mode;
  const oidc = oidcType(type);
  if (mode !== undefined && !MODES.has(mode as string)) {
    throw new WardError('authorizeInvalidRequest', {
      description: 'response_mode must be query, fragment, form_post or web_message',
    });
  }
  if (type === undefined || type === '')
    throw new WardError('authorizeInvalidRequest', { description: 'response_type is required' });
  if (type === 'code') {
    ctx.req.responseType = 'code';
    if (!client.response_types.includes('code'))
      throw new WardError('authorizeUnauthorizedClient', { description: 'This client may not use response_type=code' });
  } else if (type === 'messenger_code') {
    // Only reached with a valid Messenger redirect (check-redirect-uri); answered in the query.
    ctx.req.responseType = 'messenger_code';
    if (ctx.req.responseMode !== 'query')
      throw new WardError('authorizeInvalidRequest', { description: 'messenger_code is answered in the query only' });
  } else if (type === 'token') {
    ctx.req.responseType = 'token';
    if (client.type === 'public' || !client.implicit_flow)
      throw new WardError('authorizeUnauthorizedClient', {
        description: 'This client may not use response_type=token',
      });
    if (ctx.req.responseMode === 'query')
      throw new WardError('authorizeInvalidRequest', { description: 'Tokens are never returned in a query string' });
  } else if (oidc) {
    ctx.req.responseType = oidc;
    if (!client.response_types.includes(oidc))
      throw new WardError('authorizeUnauthorizedClient', {
        description: `This client may not use response_type=${oidc}`,
      });
    if (ctx.req.responseMode === 'query')
      throw new WardError('authorizeInvalidRequest', {
        description: 'An ID token is never returned in a query string',
      });
    if (typeof ctx.params.scope !== 'string' || !ctx.params.scope.split(' ').includes('openid'))
      throw new WardError('authorizeInvalidScope', { description: `response_type=${oidc} needs the openid scope` });
    const nonce = ctx.params.nonce;
    if (typeof nonce !== 'string' || nonce === '')
      throw new WardError('authorizeInvalidRequest', { description: `nonce is required with response_type=${oidc}` });
  } else {
    throw new WardError('authorizeUnsupportedResponseType', {
      description: 'response_type must be code, token, id_token, code id_token or messenger_code',
    });
  }
}
