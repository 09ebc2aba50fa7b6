import { WardError } from '../../errors/ward-error.js';
import { isRefusal, resolveResource } from '../resource-indicator.js';
import type { AuthorizeContext } from './request.js';

// Rule (RFC 8707 2): the resource parameter names a registered API resource; otherwise invalid_target.
export async function checkResource(ctx: AuthorizeContext): Promise<void> {
  const found = await resolveResource(ctx.resources, ctx.params.resource);
  if (isRefusal(found)) throw new WardError('authorizeInvalidTarget', { description: found.target });
  ctx.resource = found;
  if (found) ctx.req.resource = found.identifier;
}
