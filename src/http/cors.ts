import type { FastifyInstance } from 'fastify';
import type { ClientService } from '../clients/service.js';

const CORS_PATHS = /^\/(identity\/v1\/|oauth\/token$|oauth\/revoke$|jwks\.json$|\.well-known\/openid-configuration$)/;
const PUBLIC_PATHS = /^\/(jwks\.json|\.well-known\/openid-configuration)$/;
const ALLOW_HEADERS = 'Authorization, Content-Type, Accept-Language, Custom-Locale, X-R5-Correlation-Id';

/**
 * CORS for the SDK's calls: only /identity/v1/*, /oauth/token and /oauth/revoke, only for an origin
 * some client allows, echoed exactly with credentials (never `*` with credentials). Discovery and
 * JWKS are public documents and answer any origin without credentials. Never on /oauth/authorize.
 */
export function installCors(app: FastifyInstance, clients: ClientService): void {
  app.addHook('onRequest', async (req, reply) => {
    const origin = req.headers.origin;
    const path = req.url.split('?')[0]!;
    if (!origin || !CORS_PATHS.test(path)) return;
    reply.header('Vary', 'Origin');
    let allowed = false;
    if (PUBLIC_PATHS.test(path)) {
      reply.header('Access-Control-Allow-Origin', '*');
      allowed = true;
    } else if ((await clients.allowedOrigins()).has(origin)) {
      reply.header('Access-Control-Allow-Origin', origin);
      reply.header('Access-Control-Allow-Credentials', 'true');
      allowed = true;
    }
    if (req.method === 'OPTIONS') {
      if (allowed) {
        reply.header('Access-Control-Allow-Methods', 'GET, POST, DELETE');
        reply.header('Access-Control-Allow-Headers', ALLOW_HEADERS);
        reply.header('Access-Control-Max-Age', '600');
      }
      return reply.code(204).send();
    }
  });
}
