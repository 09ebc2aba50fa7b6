// Rule: every requested scope is one Ward knows (RFC 6749 section 3.3); otherwise invalid_scope.
import { AuthorizeError } from '../../errors/oauth-error.js';
import { parseScope, unknownScopes } from '../scopes.js';
import type { AuthorizeContext } from './request.js';

export function checkScope(ctx: AuthorizeContext): void {
  const scopes = parseScope(ctx.params.scope);
  if (scopes === null || Array.isArray(ctx.params.scope))
    throw new AuthorizeError('invalid_scope', 'scope must be a space-separated string', true);
  const unknown = unknownScopes(scopes);
  if (unknown.length) throw new AuthorizeError('invalid_scope', `Unknown scope: ${unknown.join(' ')}`, true);
  ctx.req.scopes = scopes;
}
