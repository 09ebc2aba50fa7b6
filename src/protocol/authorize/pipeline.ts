import type { Client } from '../../clients/service.js';
import { WardError } from '../../errors/ward-error.js';
import { checkClient } from './check-client.js';
import { checkPkce } from './check-pkce.js';
import { checkDpopJkt } from './check-dpop-jkt.js';
import { checkPrompt } from './check-prompt.js';
import { checkRedirectUri } from './check-redirect-uri.js';
import { checkRequestObject, readRequestObject } from './check-request-object.js';
import type { RequestObjects } from './request-object.js';
import { checkResponseMode, checkResponseType } from './check-response-type.js';
import { checkResource } from './check-resource.js';
import { checkScope } from './check-scope.js';
import type { ResourceLookup } from '../../resources/service.js';
import type { AuthorizeContext, AuthorizeRequest } from './request.js';

type Check = (ctx: AuthorizeContext) => void | Promise<void>;

/** The checks of /oauth/authorize, in order. Before checkRedirectUri nothing may redirect. */
const CHECKS: Check[] = [
  checkClient,
  // A request object's parameters stand for the query's (RFC 9101 6.3), its redirect_uri included.
  readRequestObject,
  checkRedirectUri,
  checkState,
  checkDuplicates,
  checkResponseMode,
  // Before the response type: a refused request object is the answer whatever else is missing (the
  // other parameters may be only in the object, RFC 9101 5); after the mode, so the error is
  // delivered the way the client asked.
  checkRequestObject,
  checkResponseType,
  checkResource,
  checkScope,
  checkPkce,
  checkDpopJkt,
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

/** Request objects: the verifier (absent: refused), and whether the parameters came from one already. */
export interface RequestObjectOptions {
  requestObjects?: RequestObjects;
  signed?: boolean;
}

/**
 * Runs the checks; on failure the error says whether it may be redirected and `partial` says where.
 * On success `params` are the parameters the request was read from (a request object's, when sent).
 */
export async function validateAuthorizeRequest(
  params: Record<string, unknown>,
  duplicates: string[],
  findClient: (id: string) => Promise<Client | undefined>,
  resources: ResourceLookup,
  options: RequestObjectOptions = {},
): Promise<
  | { ok: true; req: AuthorizeRequest; params: Record<string, unknown>; signed: boolean }
  | { ok: false; error: WardError; partial: Partial<AuthorizeRequest> }
> {
  const ctx: AuthorizeContext = { params, duplicates, req: {}, findClient, resources, ...options };
  try {
    for (const check of CHECKS) await check(ctx);
  } catch (e) {
    if (e instanceof WardError) return { ok: false, error: e, partial: ctx.req };
    throw e;
  }
  return { ok: true, req: ctx.req as AuthorizeRequest, params: ctx.params, signed: ctx.signed === true };
}
