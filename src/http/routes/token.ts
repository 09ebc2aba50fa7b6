import type { WardApp } from '../typed-app.js';
import { invalidClient, invalidRequest } from '../../errors/refusals.js';
import { WardError } from '../../errors/ward-error.js';
import { authenticateClient, type ClientAuthDeps } from '../../protocol/token/client-auth.js';
import { tokenEndpoint } from '../../protocol/token/dispatch.js';
import { openAccessToken } from '../../protocol/introspection.js';
import type { JwtAccessTokens } from '../../protocol/jwt-access-token.js';
import { sha256 } from '../../lib/secrets.js';
import { requiredStr } from '../../protocol/params.js';
import { bodyParams, methodNotAllowed } from '../oauth-body.js';
import { TRUSTED_DEVICE_COOKIE } from './trusted-device.js';
import type { SignInDeps } from '../sign-in.js';
import { revokeSchema, tokenSchema } from './schemas/token.js';
import { languageFor } from './identity-request.js';
import type { UserService } from '../../accounts/users.js';
import type { SecurityEvents } from '../../audit/events.js';
import type { ClientService } from '../../clients/service.js';
import type { AccountSettings } from '../../config/types.js';
import type { Clock } from '../../lib/clock.js';
import type { Limiter } from '../../limits/rate-limit.js';
import type { WardMetrics } from '../../observability/ward-metrics.js';
import type { AccessTokenCodec } from '../../protocol/access-token-codec.js';
import type { TokenIssuer } from '../../protocol/issue-tokens.js';
import type { BeforeLogin } from '../../protocol/tkn.js';
import type { Storage } from '../../storage/storage.js';
import type { ResourceLookup } from '../../resources/service.js';
import type { DpopVerifier } from '../../protocol/dpop/proof.js';

/** The services this module uses (registry.ts builds them; the composition passes them in). */
export interface TokenDeps {
  accessTokens: AccessTokenCodec;
  account: () => AccountSettings;
  clients: ClientService;
  clientAssertions: ClientAuthDeps['clientAssertions'];
  clock: Clock;
  dpop: DpopVerifier;
  events: SecurityEvents;
  issueTokens: TokenIssuer;
  jwtAccessTokens: JwtAccessTokens;
  limiter: Limiter;
  metrics: WardMetrics;
  /** The API resources a client_credentials token may be for (RFC 8707). */
  resources: ResourceLookup;
  storage: Storage;
  users: UserService;
  /** The before.login hooks (the password grant is a first factor). */
  beforeLogin: BeforeLogin;
  /** The password grant is a sign-in: it cancels a pending deletion of the account. */
  accountDeletion: { cancel(userId: string): Promise<unknown> };
}

/** POST /oauth/token and POST /oauth/revoke (RFC 6749 section 3.2, RFC 7009). */
export function tokenRoutes(app: WardApp, r: TokenDeps, signIn: Pick<SignInDeps, 'nextStep'>): void {
  app.post('/oauth/token', { schema: tokenSchema }, async (req, reply) => {
    // Parameters travel in the body only (RFC 6749 3.2): a query string is refused, not merged.
    if (req.url.includes('?')) throw invalidRequest('Token request parameters must be sent in the request body');
    const params = bodyParams(req);
    await r.limiter('token', req.ip, r.account().rate_limits.token);
    // The password grant is a password sign-in: the login limit counts it too.
    if (params.grant_type === 'password') await r.limiter('login', req.ip, r.account().rate_limits.login);
    const cookie = req.cookies[TRUSTED_DEVICE_COOKIE];
    const out = await tokenEndpoint(r, req.headers.authorization, params, {
      secondFactorOwed: (who) => signIn.nextStep.secondFactorOwed(who, { trustedDeviceCookie: cookie }),
      enrolmentOwed: (userId) => signIn.nextStep.enrolmentOwed(userId),
      reconsentOwed: (userId) => signIn.nextStep.reconsentOwed(userId),
      ip: req.ip,
      language: languageFor(req),
      ...(req.headers.dpop !== undefined
        ? { dpop: { header: req.headers.dpop, method: 'POST', path: '/oauth/token' } }
        : {}),
    });
    r.metrics.tokensIssued(String(params.grant_type), out);
    // RFC 9449 8.2: the nonce to use next, so a client keeps one without being refused first.
    if (req.headers.dpop !== undefined && r.dpop.nonceRequired()) reply.header('DPoP-Nonce', r.dpop.nonce());
    return reply.header('Cache-Control', 'no-store').header('Pragma', 'no-cache').send(out);
  });
  app.route({
    method: ['GET', 'PUT', 'DELETE', 'PATCH'],
    url: '/oauth/token',
    handler: (_req, reply) => methodNotAllowed(reply),
  });

  app.post('/oauth/revoke', { schema: revokeSchema }, async (req, reply) => {
    const params = bodyParams(req);
    const { client, authenticated } = await authenticateClient(r, req.headers.authorization, params);
    // RFC 7009 2.1: a confidential client authenticates (leaving out the secret is for Messenger codes only).
    if (!authenticated) throw invalidClient('Client authentication failed');
    if (client.type === 'resource_server') throw new WardError('resourceServerOnly');
    const token = requiredStr(params, 'token', 4096);
    // token_type_hint is only a hint (RFC 7009 2.1): both kinds are looked for whatever it says.
    const access = await openAccessToken(r, token);
    if (access) {
      // An access token dies alone (its grant's refresh token lives on), until it would expire anyway.
      if (access.client_id === client.client_id && access.expires_at > r.clock.now())
        await r.storage.tokens.revokeAccessToken(access.jti, access.expires_at);
    } else {
      const refresh = await r.storage.tokens.findRefreshToken(sha256(token));
      if (refresh && refresh.client_id === client.client_id)
        await r.storage.tokens.revokeGrant(refresh.grant_id, r.clock.now());
    }
    // RFC 7009 2.2: 200, also for an unknown, foreign or already revoked token. A body of {}: the Core SDK
    // parses every answer but a 204 as JSON, and certified relying parties expect the 200.
    return reply.code(200).header('Cache-Control', 'no-store').send({});
  });
  app.route({
    method: ['GET', 'PUT', 'DELETE', 'PATCH'],
    url: '/oauth/revoke',
    handler: (_req, reply) => methodNotAllowed(reply),
  });
}
