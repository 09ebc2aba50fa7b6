import type { WardApp } from '../typed-app.js';
import { invalidClient } from '../../errors/refusals.js';
import { introspect } from '../../protocol/introspection.js';
import { requiredStr } from '../../protocol/params.js';
import { authenticateClient, type ClientAuthDeps } from '../../protocol/token/client-auth.js';
import { bodyParams, methodNotAllowed } from '../oauth-body.js';
import { introspectSchema } from './schemas/token.js';
import type { UserService } from '../../accounts/users.js';
import type { ClientService } from '../../clients/service.js';
import type { AccountSettings, WardConfig } from '../../config/types.js';
import type { Clock } from '../../lib/clock.js';
import type { Limiter } from '../../limits/rate-limit.js';
import type { AccessTokenCodec } from '../../protocol/access-token-codec.js';
import type { JwtAccessTokens } from '../../protocol/jwt-access-token.js';
import type { Storage } from '../../storage/storage.js';

/** The services this module uses (registry.ts builds them; the composition passes them in). */
export interface IntrospectDeps {
  accessTokens: AccessTokenCodec;
  account: () => AccountSettings;
  clients: ClientService;
  clientAssertions: ClientAuthDeps['clientAssertions'];
  clock: Clock;
  config: WardConfig;
  jwtAccessTokens: JwtAccessTokens;
  limiter: Limiter;
  storage: Storage;
  users: UserService;
}

/** POST /oauth/introspect (RFC 7662): for back ends, so no CORS. */
export function introspectRoutes(app: WardApp, r: IntrospectDeps): void {
  app.post('/oauth/introspect', { schema: introspectSchema }, async (req, reply) => {
    const params = bodyParams(req);
    // Limited like the token endpoint, in a count of its own (an API introspecting does not use up sign-ins).
    await r.limiter('introspect', req.ip, r.account().rate_limits.token);
    const { client, authenticated } = await authenticateClient(r, req.headers.authorization, params);
    // RFC 7662 2.1: the caller authenticates. A public client has no secret to do it with.
    if (!authenticated || client.type === 'public')
      throw invalidClient('Introspection needs client authentication (a secret or a client assertion)');
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
