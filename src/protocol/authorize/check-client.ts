// Rule: the client must be known before anything else is trusted; an unknown client is never
// redirected to (RFC 6749 section 4.1.2.1, RFC 9700 section 4.11.2). Nor is a resource server.
import { WardError } from '../../errors/ward-error.js';
import type { AuthorizeContext } from './request.js';

export async function checkClient(ctx: AuthorizeContext): Promise<void> {
  if (ctx.duplicates.includes('client_id'))
    throw new WardError('authorizeNotRedirectable', { description: 'client_id was sent more than once' });
  const id = ctx.params.client_id;
  if (typeof id !== 'string' || id === '')
    throw new WardError('authorizeNotRedirectable', { description: 'client_id is required' });
  const client = await ctx.findClient(id);
  if (!client) throw new WardError('authorizeUnknownClient', { description: 'Unknown client_id' });
  // A resource server only introspects tokens: it has no redirect_uri and signs no one in.
  if (client.type === 'resource_server') throw new WardError('authorizeResourceServer');
  ctx.req.client = client;
}
