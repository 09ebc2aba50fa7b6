import type { WardApp } from '../typed-app.js';
import { invalidClient } from '../../errors/refusals.js';
import { introspect } from '../../protocol/introspection.js';
import { requiredStr } from '../../protocol/params.js';
import { authenticateClient } from '../../protocol/token/client-auth.js';
import type { Registry } from '../../registry.js';
import { bodyParams, methodNotAllowed } from '../oauth-body.js';
import { introspectSchema } from './schemas/token.js';

/** POST /oauth/introspect (RFC 7662): for back ends, so no CORS. */
export function introspectRoutes(
  app: WardApp,
  r: Pick<Registry, 'accessTokens' | 'account' | 'clients' | 'clock' | 'config' | 'limiter' | 'storage' | 'users'>,
): void {
  app.post('/oauth/introspect', { schema: introspectSchema }, async (req, reply) => {
    const params = bodyParams(req);
    // Limited like the token endpoint, in a count of its own (an API introspecting does not use up sign-ins).
    await r.limiter('introspect', req.ip, r.account().rate_limits.token);
    const { client, authenticated } = await authenticateClient(r, req.headers.authorization, params);
    // RFC 7662 2.1: the caller authenticates. A public client has no secret to do it with.
    if (!authenticated || client.type === 'public')
      throw invalidClient('Introspection needs client authentication (client_secret_basic or client_secret_post)');
    const token = requiredStr(params, 'token', 1_000_000);
    const answer = await introspect(r, client, token);
    return reply.header('Cache-Control', 'no-store').header('Pragma', 'no-cache').send(answer);
  });
  app.route({
    method: ['GET', 'PUT', 'DELETE', 'PATCH'],
    url: '/oauth/introspect',
    handler: (_req, reply) => methodNotAllowed(reply),
  });
}
