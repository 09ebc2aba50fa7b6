// Rule: every requested scope is one Ward knows (RFC 6749 section 3.3); otherwise invalid_scope.
import { WardError } from '../../errors/ward-error.js';
import { parseScope, unknownScopes } from '../scopes.js';
import type { AuthorizeContext } from './request.js';

export function checkScope(ctx: AuthorizeContext): void {
  const scopes = parseScope(ctx.params.scope);
  if (scopes === null || Array.isArray(ctx.params.scope))
    throw new WardError('authorizeInvalidScope', { description: 'scope must be a space-separated string' });
  const unknown = unknownScopes(scopes);
  if (unknown.length)
    throw new WardError('authorizeInvalidScope', { description: `Unknown scope: ${unknown.join(' ')}` });
  ctx.req.scopes = scopes;
}
