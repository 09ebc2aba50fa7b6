// Rule: Ward takes no request objects (OIDC Core 6.1, 6.2; discovery says request_parameter_supported
// and request_uri_parameter_supported false): request= is request_not_supported and request_uri=
// request_uri_not_supported, answered like the other errors once the redirect_uri is trusted, rather
// than a request served without the parameters the client put in the object.
import { WardError } from '../../errors/ward-error.js';
import type { AuthorizeContext } from './request.js';

const sent = (value: unknown) => value !== undefined && value !== '';

export function checkRequestObject(ctx: AuthorizeContext): void {
  if (sent(ctx.params.request)) {
    throw new WardError('authorizeRequestNotSupported', {
      description: 'The request parameter (a request object) is not supported',
    });
  }
  if (sent(ctx.params.request_uri)) {
    throw new WardError('authorizeRequestUriNotSupported', {
      description: 'The request_uri parameter is not supported',
    });
  }
}
