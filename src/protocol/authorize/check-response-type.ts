// Rule: response_type is code, or token (implicit) for a confidential client that enables it;
// response_mode fits it (no tokens in a query string; RFC 9700 section 2.1.2, OAuth Multiple
// Response Types 2.1).
import { WardError } from '../../errors/ward-error.js';
import type { AuthorizeContext, ResponseMode } from './request.js';

export function checkResponseType(ctx: AuthorizeContext): void {
  const client = ctx.req.client!;
  const type = ctx.params.response_type;
  const mode = ctx.params.response_mode;
  if (mode !== undefined && mode !== 'query' && mode !== 'fragment' && mode !== 'web_message') {
    ctx.req.responseMode = ctx.req.responseType === 'token' ? 'fragment' : 'query';
    throw new WardError('authorizeInvalidRequest', {
      description: 'response_mode must be query, fragment or web_message',
    });
  }
  ctx.req.responseMode = (mode as ResponseMode | undefined) ?? (type === 'token' ? 'fragment' : 'query');
  if (type === undefined || type === '')
    throw new WardError('authorizeInvalidRequest', { description: 'response_type is required' });
  if (type === 'code') ctx.req.responseType = 'code';
  else if (type === 'messenger_code') {
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
  } else {
    throw new WardError('authorizeUnsupportedResponseType', {
      description: 'response_type must be code, token or messenger_code',
    });
  }
}
