// Login CSRF (issue 33, item 4): a browser calls a sign-in API only as the Core SDK does, with a JSON
// body (which a page of another site cannot send without a CORS preflight, and Ward answers one only
// for an allowed origin) and, since it says where it comes from, from an allowed origin of the client
// the call names. A request with neither Origin nor Sec-Fetch-Site is no browser's (a server, the
// SDK in Node): it keeps the form body the transport rules allow.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ClientService } from '../clients/service.js';
import { WardError } from '../errors/ward-error.js';
import { isJson } from './routes/identity-request.js';

/** The POST APIs that sign a user in, sign one up, or send or check what signs one in. */
const SIGN_IN_APIS = new Set([
  '/identity/v1/signup',
  '/identity/v1/password/login',
  '/identity/v1/passwordless/start',
  '/identity/v1/passwordless/verify',
  '/identity/v1/verify-auth-code',
  '/identity/v1/mfa/stepup',
  '/identity/v1/webauthn/signup-options',
  '/identity/v1/webauthn/signup',
  '/identity/v1/webauthn/authentication-options',
  '/identity/v1/webauthn/authentication',
]);

/** Whether a request comes from a browser by its own word (Origin, or Fetch Metadata). */
export function fromBrowser(req: FastifyRequest): boolean {
  const site = req.headers['sec-fetch-site'];
  return req.headers.origin !== undefined || (site !== undefined && site !== 'none');
}

/** Refuses an Origin that is not one of `allowed` (Ward's own origin always is). */
export function requireAllowedOrigin(req: FastifyRequest, allowed: { has(o: string): boolean }, issuer: string) {
  const origin = req.headers.origin;
  if (origin === undefined || origin === new URL(issuer).origin) return;
  if (!allowed.has(origin)) throw new WardError('crossSiteSignIn');
}

export function installSignInGuard(app: FastifyInstance, clients: ClientService, issuer: string): void {
  app.addHook('preHandler', async (req) => {
    if (req.method !== 'POST' || !SIGN_IN_APIS.has(req.routeOptions.url ?? '') || !fromBrowser(req)) return;
    if (!isJson(req.headers['content-type'])) throw new WardError('crossSiteSignIn');
    if (req.headers.origin === undefined) return;
    const body = req.body as Record<string, unknown> | null;
    const client = typeof body?.client_id === 'string' ? await clients.find(body.client_id) : undefined;
    requireAllowedOrigin(req, client ? new Set(client.allowed_origins) : await clients.allowedOrigins(), issuer);
  });
}
