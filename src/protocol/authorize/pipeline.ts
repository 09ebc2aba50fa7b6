import type { Client } from '../../clients/service.js';
import { WardError } from '../../errors/ward-error.js';
import { checkClient } from './check-client.js';
import { checkPkce } from './check-pkce.js';
import { checkPrompt } from './check-prompt.js';
import { checkRedirectUri } from './check-redirect-uri.js';
import { checkRequestObject } from './check-request-object.js';
import { checkResponseMode, checkResponseType } from './check-response-type.js';
import { checkResource } from './check-resource.js';
import { checkScope } from './check-scope.js';
import type { ResourceLookup } from '../../resources/service.js';
import type { AuthorizeContext, AuthorizeRequest } from './request.js';

type Check = (ctx: AuthorizeContext) => void | Promise<void>;

/** The checks of /oauth/authorize, in order. Before checkRedirectUri nothing may redirect. */
const CHECKS: Check[] = [
  checkClient,
  checkRedirectUri,
  checkState,
  checkDuplicates,
  checkResponseMode,
  // Before the response type: with a request object the other parameters may be only in the object
  // (RFC 9101 5), so request_not_supported is the answer whatever else is missing; after the mode, so
  // the error is delivered the way the client asked.
  checkRequestObject,
  checkResponseType,
  checkResource,
  checkScope,
  checkPkce,
  checkPrompt,
];

// Rule: state is echoed byte for byte, so it must be one bounded string.
function checkState(ctx: AuthorizeContext): void {
  const state = ctx.params.state;
  if (typeof state === 'string' && state !== '' && state.length <= 2048) ctx.req.state = state;
}

// Rule: no parameter twice (RFC 6749 section 3.1), once the redirect target is trusted.
function checkDuplicates(ctx: AuthorizeContext): void {
  if (ctx.duplicates.length)
    throw new WardError('authorizeInvalidRequest', {
      description: `Parameters sent more than once: ${ctx.duplicates.join(', ')}`,
    });
  if (typeof ctx.params.state === 'string' && ctx.params.state.length > 2048)
    throw new WardError('authorizeInvalidRequest', { description: 'state is too long' });
}

/** Runs the checks; on failure the error says whether it may be redirected and `partial` says where. */
export async function validateAuthorizeRequest(
  params: Record<string, unknown>,
  duplicates: string[],
  findClient: (id: string) => Promise<Client | undefined>,
  resources: ResourceLookup,
): Promise<{ ok: true; req: AuthorizeRequest } | { ok: false; error: WardError; partial: Partial<AuthorizeRequest> }> {
  const ctx: AuthorizeContext = { params, duplicates, req: {}, findClient, resources };
  try {
    for (const check of CHECKS) await check(ctx);
  } catch (e) {
    if (e instanceof WardError) return { ok: false, error: e, partial: ctx.req };
    throw e;
  }
  return { ok: true, req: ctx.req as AuthorizeRequest };
}
