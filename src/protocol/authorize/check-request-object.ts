// Rule: a request object (OIDC Core 6.1, RFC 9101) sent by value as `request` is verified with the
// client's registered keys (request-object.ts) and its parameters, only those, stand for the query's
// (RFC 9101 6.3). It is read right after the client is known, so its redirect_uri is the one checked;
// a refused object is answered (invalid_request_object) like the other errors once the query's
// redirect_uri is trusted. Where no verifier is given (the JSON APIs) `request` stays
// request_not_supported; `request_uri` by reference is request_uri_not_supported (PAR's own
// request_uri is resolved before the pipeline, par.ts). A client or account that requires signed
// request objects has a request without one refused (RFC 9101 10.5).
import { WardError } from '../../errors/ward-error.js';
import type { AuthorizeContext } from './request.js';

const sent = (value: unknown) => value !== undefined && value !== '';

/** Verifies `request` and swaps the parameters for its own; a refusal waits for the redirect_uri. */
export async function readRequestObject(ctx: AuthorizeContext): Promise<void> {
  if (!ctx.requestObjects || !(sent(ctx.params.request) || ctx.duplicates.includes('request'))) return;
  if (ctx.duplicates.includes('request')) {
    ctx.deferred = new WardError('authorizeInvalidRequestObject', { description: 'request was sent more than once' });
    return;
  }
  try {
    ctx.params = await ctx.requestObjects.verify(ctx.req.client!, ctx.params.request);
    // Only the object's parameters count: the query's duplicates (client_id excepted) no longer matter.
    ctx.duplicates = [];
    ctx.signed = true;
  } catch (e) {
    if (!(e instanceof WardError)) throw e;
    ctx.deferred = e;
  }
}

export function checkRequestObject(ctx: AuthorizeContext): void {
  if (ctx.deferred) throw ctx.deferred;
  if (sent(ctx.params.request)) {
    throw new WardError('authorizeRequestNotSupported', {
      description: 'The request parameter (a request object) is not supported here',
    });
  }
  if (sent(ctx.params.request_uri)) {
    throw new WardError('authorizeRequestUriNotSupported', {
      description: 'The request_uri parameter is supported only for pushed requests (/oauth/par)',
    });
  }
  if (!ctx.signed && ctx.requestObjects?.required(ctx.req.client!))
    throw new WardError('authorizeInvalidRequest', {
      description: 'This client must send its authorization request in a signed request object (request)',
    });
}
