// Rule: redirect_uri equals one of the client's Allowed Callback URLs as an exact string: no case
// folding, no normalisation, no prefix or wildcard (RFC 9700 sections 2.1 and 4.1.3, OIDC Core
// 3.1.2.1). A mismatch is shown as a page, never redirected. The one exception is the Messenger
// callback for response_type=messenger_code (messenger.ts).
import { WardError } from '../../errors/ward-error.js';
import { MESSENGER_BINDING, allowsMessenger, isMessengerRedirect } from './messenger.js';
import type { AuthorizeContext } from './request.js';

/** The exact-string rule itself: true only for a string identical, code unit for code unit, to a registered one. */
export function isRegisteredRedirectUri(registered: readonly string[], given: unknown): given is string {
  return typeof given === 'string' && registered.some((r) => r === given);
}

export function checkRedirectUri(ctx: AuthorizeContext): void {
  if (ctx.duplicates.includes('redirect_uri'))
    throw new WardError('authorizeNotRedirectable', { description: 'redirect_uri was sent more than once' });
  const client = ctx.req.client!;
  const given = ctx.params.redirect_uri;
  if (ctx.params.response_type === 'messenger_code') {
    // The one exception to exact matching: Messenger's own URL, under the strict rule of messenger.ts.
    if (!allowsMessenger(client.allowed_callback_urls))
      throw new WardError('authorizeNoMessengerCallback', {
        description: 'This client has not registered the Messenger callback',
      });
    if (!isMessengerRedirect(given))
      throw new WardError('authorizeNotRedirectable', {
        description: 'redirect_uri must be the Messenger account-linking URL with one account_linking_token',
      });
    ctx.req.redirectUri = MESSENGER_BINDING + given;
    ctx.req.target = given;
    return;
  }
  if (given === undefined || given === '') {
    // web_message answers to the client's allowed origins, not to a URL.
    if (ctx.params.response_mode === 'web_message') {
      ctx.req.redirectUri = null;
      ctx.req.target = null;
      return;
    }
    if (client.allowed_callback_urls.length !== 1) {
      throw new WardError('authorizeNotRedirectable', { description: 'redirect_uri is required' });
    }
    ctx.req.redirectUri = null;
    ctx.req.target = client.allowed_callback_urls[0]!;
    return;
  }
  if (!isRegisteredRedirectUri(client.allowed_callback_urls, given)) {
    throw new WardError('authorizeNotRedirectable', {
      description: 'redirect_uri is not one of the Allowed Callback URLs of this client',
    });
  }
  ctx.req.redirectUri = given;
  ctx.req.target = given;
}
