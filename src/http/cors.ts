import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Client, ClientService } from '../clients/service.js';
import { WardError } from '../errors/ward-error.js';

// The hosted account page (identity/v1/account...) is Ward's own page, read by the SSO cookie: never CORS.
const CORS_PATHS =
  /^\/(identity\/v1\/(?!account(\/|$))|oauth\/token$|oauth\/revoke$|jwks\.json$|\.well-known\/(openid-configuration|oauth-authorization-server)$)/;
const PUBLIC_PATHS = /^\/(jwks\.json|\.well-known\/(openid-configuration|oauth-authorization-server))$/;
const ALLOW_HEADERS = 'Authorization, Content-Type, Accept-Language, Custom-Locale, X-R5-Correlation-Id, DPoP';
/** What a browser client reads of an answer beyond the safe headers: DPoP's nonce and challenge (RFC 9449 7.1, 8). */
const EXPOSE_HEADERS = 'DPoP-Nonce, WWW-Authenticate';

/**
 * CORS for the SDK's calls: only /identity/v1/* (not the account page), /oauth/token and /oauth/revoke, only for
 * an origin some client allows, echoed exactly with credentials (never `*` with credentials). Discovery and
 * JWKS are public documents and answer any origin without credentials. Never on /oauth/authorize.
 */
export function installCors(app: FastifyInstance, clients: ClientService): void {
  // A callback hook: the common case (no Origin, or a path without CORS) costs no promise.
  app.addHook('onRequest', (req, reply, done) => {
    const origin = req.headers.origin;
    if (!origin) return done();
    const q = req.url.indexOf('?');
    const path = q < 0 ? req.url : req.url.slice(0, q);
    if (!CORS_PATHS.test(path)) return done();
    reply.header('Vary', 'Origin');
    const answer = (allowed: boolean) => {
      if (req.method !== 'OPTIONS') return done();
      if (allowed) {
        reply.header('Access-Control-Allow-Methods', 'GET, POST, DELETE');
        reply.header('Access-Control-Allow-Headers', ALLOW_HEADERS);
        reply.header('Access-Control-Max-Age', '600');
      }
      reply.code(204).send();
    };
    if (PUBLIC_PATHS.test(path)) {
      reply.header('Access-Control-Allow-Origin', '*');
      return answer(true);
    }
    clients.allowedOrigins().then((origins) => {
      const allowed = origins.has(origin);
      if (allowed) {
        reply.header('Access-Control-Allow-Origin', origin);
        reply.header('Access-Control-Allow-Credentials', 'true');
        if (req.method !== 'OPTIONS') reply.header('Access-Control-Expose-Headers', EXPOSE_HEADERS);
      }
      answer(allowed);
    }, done);
  });
}

/**
 * For an answer that tells who the browser's session is (`/identity/v1/sso/data`): the CORS hook
 * allows any client's origin, so a cross-origin caller must be an allowed origin of the client the
 * request names (or Ward's own). Otherwise the CORS headers are taken back (the page reads nothing)
 * and the request is refused.
 */
export function requireClientOrigin(req: FastifyRequest, reply: FastifyReply, client: Client, issuer: string): void {
  const origin = req.headers.origin;
  if (origin === undefined || client.allowed_origins.includes(origin) || origin === new URL(issuer).origin) return;
  reply.removeHeader('Access-Control-Allow-Origin');
  reply.removeHeader('Access-Control-Allow-Credentials');
  reply.removeHeader('Access-Control-Expose-Headers');
  throw new WardError('sessionOrigin');
}
