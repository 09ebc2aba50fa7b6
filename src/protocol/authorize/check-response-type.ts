// Rule: response_type is code, or token (implicit) for a confidential client that enables it;
// response_mode is query, fragment, form_post (OAuth 2.0 Form Post Response Mode) or web_message,
// and fits it (no tokens in a query string; RFC 9700 section 2.1.2, OAuth Multiple Response Types 2.1).
import { AuthorizeError } from '../../errors/oauth-error.js';
import type { AuthorizeContext, ResponseMode } from './request.js';

const MODES = new Set<string>(['query', 'fragment', 'form_post', 'web_message']);

export function checkResponseType(ctx: AuthorizeContext): void {
  const client = ctx.req.client!;
  const type = ctx.params.response_type;
  const mode = ctx.params.response_mode;
  if (mode !== undefined && !MODES.has(mode as string)) {
    ctx.req.responseMode = type === 'token' ? 'fragment' : 'query';
    throw new AuthorizeError(
      'invalid_request',
      'response_mode must be query, fragment, form_post or web_message',
      true,
    );
  }
  ctx.req.responseMode = (mode as ResponseMode | undefined) ?? (type === 'token' ? 'fragment' : 'query');
  if (type === undefined || type === '') throw new AuthorizeError('invalid_request', 'response_type is required', true);
  if (type === 'code') ctx.req.responseType = 'code';
  else if (type === 'messenger_code') {
    // Only reached with a valid Messenger redirect (check-redirect-uri); answered in the query.
    ctx.req.responseType = 'messenger_code';
    if (ctx.req.responseMode !== 'query')
      throw new AuthorizeError('invalid_request', 'messenger_code is answered in the query only', true);
  } else if (type === 'token') {
    ctx.req.responseType = 'token';
    if (client.type === 'public' || !client.implicit_flow)
      throw new AuthorizeError('unauthorized_client', 'This client may not use response_type=token', true);
    if (ctx.req.responseMode === 'query')
      throw new AuthorizeError('invalid_request', 'Tokens are never returned in a query string', true);
  } else {
    throw new AuthorizeError('unsupported_response_type', 'response_type must be code, token or messenger_code', true);
  }
}
