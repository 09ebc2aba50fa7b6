// Rule: every requested scope is one Ward knows (RFC 6749 section 3.3), or one of the API resource the
// request names (RFC 8707); otherwise invalid_scope.
import { WardError } from '../../errors/ward-error.js';
import { scopesBeyond } from '../resource-indicator.js';
import { parseScope } from '../scopes.js';
import type { AuthorizeContext } from './request.js';

export function checkScope(ctx: AuthorizeContext): void {
  const scopes = parseScope(ctx.params.scope);
  if (scopes === null || Array.isArray(ctx.params.scope))
    throw new WardError('authorizeInvalidScope', { description: 'scope must be a space-separated string' });
  const unknown = scopesBeyond(scopes, ctx.resource ?? null);
  if (unknown.length)
    throw new WardError('authorizeInvalidScope', { description: `Unknown scope: ${unknown.join(' ')}` });
  ctx.req.scopes = scopes;
}
