import type { WardApp } from '../typed-app.js';
import { type ParDeps, pushAuthorizationRequest } from '../../protocol/par.js';
import { bodyParams, methodNotAllowed } from '../oauth-body.js';
import { parSchema } from './schemas/par.js';
import type { AccountSettings } from '../../config/types.js';
import type { Limiter } from '../../limits/rate-limit.js';

/** The services this module uses (registry.ts builds them; the composition passes them in). */
export interface ParRouteDeps extends ParDeps {
  account: () => AccountSettings;
  limiter: Limiter;
}

/** POST /oauth/par (RFC 9126): for back ends, so no CORS; limited like the token endpoint, in its own count. */
export function parRoutes(app: WardApp, r: ParRouteDeps): void {
  app.post('/oauth/par', { schema: parSchema }, async (req, reply) => {
    const params = bodyParams(req);
    await r.limiter('par', req.ip, r.account().rate_limits.token);
    const proof =
      req.headers.dpop !== undefined ? { header: req.headers.dpop, method: 'POST', path: '/oauth/par' } : undefined;
    const out = await pushAuthorizationRequest(r, req.headers.authorization, params, proof);
    if (proof && r.dpop.nonceRequired()) reply.header('DPoP-Nonce', r.dpop.nonce());
    return reply.status(201).header('Cache-Control', 'no-store').header('Pragma', 'no-cache').send(out);
  });
  app.route({
    method: ['GET', 'PUT', 'DELETE', 'PATCH'],
    url: '/oauth/par',
    handler: (_req, reply) => methodNotAllowed(reply),
  });
}
