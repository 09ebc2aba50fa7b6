import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ResourceLookup } from '../../resources/service.js';
import type { Captcha } from '../../captcha/siteverify.js';
import type { WardApp } from '../typed-app.js';
import { SESSION_COOKIE, type SessionService } from '../../accounts/sessions.js';
import { WardError } from '../../errors/ward-error.js';
import { invalidToken } from '../../errors/refusals.js';
import { validateAuthorizeRequest } from '../../protocol/authorize/pipeline.js';
import { liveAccessToken } from '../../protocol/bearer.js';
import { resourceRequest } from '../resource-request.js';
import { sha256 } from '../../lib/secrets.js';
import { sendAuthorizationJson } from '../authorization-json.js';
import { requireSingle, str } from '../../protocol/params.js';
import { passwordlessStartSchema, passwordlessVerifySchema, stepUpSchema } from './schemas/stepup.js';
import type { SignInDeps } from '../sign-in.js';
import { rememberDevice } from './trusted-device.js';
import { passwordlessFirstFactor } from './passwordless.js';
import { localeOf } from './identity-request.js';
import type { UserService } from '../../accounts/users.js';
import type { ClientService, Client } from '../../clients/service.js';
import type { AccountSettings, WardConfig } from '../../config/types.js';
import type { Clock } from '../../lib/clock.js';
import type { Limiter } from '../../limits/rate-limit.js';
import type { Passwordless } from '../../passwordless/service.js';
import type { AccessTokenCodec } from '../../protocol/access-token-codec.js';
import type { TknService } from '../../protocol/tkn.js';
import type { Storage } from '../../storage/storage.js';
import type { SecurityEvents } from '../../audit/events.js';

/** The services this module uses (registry.ts builds them; the composition passes them in). */
export interface StepUpRouteDeps {
  accessTokens: AccessTokenCodec;
  account: () => AccountSettings;
  captcha: Pick<Captcha, 'check' | 'checkHosted'>;
  clients: ClientService;
  /** The API resources a `resource` parameter may name (RFC 8707). */
  resources: ResourceLookup;
  clock: Clock;
  config: WardConfig;
  events: SecurityEvents;
  limiter: Limiter;
  masterKey: Buffer;
  passwordless: Passwordless;
  sessions: SessionService;
  storage: Storage;
  tkn: TknService;
  users: UserService;
}

const isJson = (ct: string | undefined) => !!ct?.startsWith('application/json');

interface Identified {
  userId: string;
  amr: string[];
  /** Consumes the tkn when the step-up goes ahead (a tkn is single use). */
  commit(): Promise<boolean>;
}

/**
 * /identity/v1/mfa/stepup, /passwordless/start and /passwordless/verify (identity-api.md, "Step-up MFA").
 */
export function stepUpRoutes(app: WardApp, r: StepUpRouteDeps, deps: SignInDeps): void {
  const { interactions, nextStep, stepUps } = deps;
  const firstFactor = passwordlessFirstFactor(r, deps);
  /**
   * A gone or disabled user is refused first. begin's insert checks the user itself, so the row is
   * read only where another refusal would otherwise answer before that check did.
   */
  async function requireLiveUser(userId: string): Promise<void> {
    const user = await r.users.find(userId);
    if (!user || user.disabled) throw invalidToken();
  }

  /**
   * Who asks for a step-up. Explicit credentials come first: a tkn in the body and a Bearer access
   * token; when both are sent they must name one user (SV-11). The SSO cookie is ambient: it counts
   * only when no explicit credential is sent (a browser may still hold another user's session while
   * someone signs in), only from an allowed origin of the client (a foreign origin changes
   * nothing: CSRF), and only for a client with `sso: true`. The credential that identifies the user
   * gives the amr.
   */
  async function identify(req: FastifyRequest, params: Record<string, unknown>, client: Client): Promise<Identified> {
    const found: Identified[] = [];
    let bearerUserId: string | undefined;
    const tkn = str(params, 'tkn', 100);
    if (tkn) {
      const row = await r.storage.oneTime.find('tkn', sha256(tkn));
      if (!row || row.consumed_at !== null || row.expires_at <= r.clock.now() || row.client_id !== client.client_id)
        throw invalidToken('The tkn is invalid, expired, already used or was issued to another client');
      const payload = JSON.parse(row.payload) as { amr: string[] };
      found.push({
        userId: row.user_id,
        amr: payload.amr,
        commit: async () => (await r.tkn.consume(tkn, client.client_id)).ok,
      });
    }
    if (req.headers.authorization) {
      if (!r.account().step_up_bearer_allowed)
        throw invalidToken('This account does not accept access tokens for a step-up');
      // verifyBearer without its read of the user (see requireLiveUser).
      const token = await liveAccessToken(r, resourceRequest(req));
      if (!token.user_id) throw invalidToken();
      bearerUserId = token.user_id;
      if (token.client_id !== client.client_id) {
        await requireLiveUser(bearerUserId);
        throw invalidToken('The access token was issued to another client');
      }
      found.push({ userId: bearerUserId, amr: token.amr, commit: async () => true });
    }
    if (found.length) {
      if (new Set(found.map((f) => f.userId)).size > 1) {
        await requireLiveUser(bearerUserId!);
        throw invalidToken('The credentials sent name different users');
      }
      // The first credential decides (a tkn is consumed).
      return found[0]!;
    }
    const cookie = req.cookies[SESSION_COOKIE];
    if (!cookie) throw invalidToken('A step-up needs a tkn, an access token or the session cookie');
    const origin = req.headers.origin;
    if (origin === undefined || !client.allowed_origins.includes(origin)) {
      throw new WardError('stepUpOrigin');
    }
    // A client with `sso: false` is answered by no session (next-step's forcesLogin), nor here.
    if (!client.sso) throw invalidToken('This client does not use the SSO session (sso: false): send a tkn');
    const session = await r.sessions.fromCookie(cookie);
    if (!session) throw invalidToken('The session has ended');
    return { userId: session.userId, amr: session.amr, commit: async () => true };
  }

  app.post('/identity/v1/mfa/stepup', { schema: stepUpSchema }, async (req, reply) => {
    const params = requireSingle(req.body, isJson(req.headers['content-type']));
    // The OAuth parameters pass the same checks as /oauth/authorize; here errors answer as JSON.
    const { tkn: _t, action: _a, ...oauth } = params;
    const v = await validateAuthorizeRequest(oauth, [], (id) => r.clients.find(id), r.resources);
    if (!v.ok) throw v.error;
    const who = await identify(req, params, v.req.client);
    let action: string | undefined;
    try {
      action = str(params, 'action', 100);
    } catch (e) {
      await requireLiveUser(who.userId);
      throw e;
    }
    // The request is stored as the step-up's interaction with the step-up, only if it is granted; begin
    // refuses a gone or disabled user (invalid_token) before a user without factors.
    const pending = interactions.prepare(v.req, 'stepup', null, r.account().step_up_ttl * 1000);
    const bound = { clientId: v.req.client.client_id, interactionDigest: pending.digest, store: pending.row };
    const answer = await stepUps.begin({ id: who.userId }, bound, who.amr, action);
    if (!(await who.commit())) {
      await r.storage.stepUps.consume(sha256(answer.token), r.clock.now());
      throw invalidToken('The tkn was already used');
    }
    return reply.header('Cache-Control', 'no-store').send(answer);
  });

  app.post('/identity/v1/passwordless/start', { schema: passwordlessStartSchema }, async (req, reply) => {
    const params = requireSingle(req.body, isJson(req.headers['content-type']));
    // Per client IP too, on both ends of the code (PL-09, PL-10), besides the per-token and per-user limits.
    await r.limiter('verification', req.ip, r.account().rate_limits.verification);
    // Without a step_up token it is a first factor (magic link or SMS code): passwordless.ts.
    if (params.step_up === undefined) return firstFactor.start(req, reply, params);
    const challengeId = await stepUps.requestCode(params.step_up, params.auth_type, localeOf(req));
    return reply.header('Cache-Control', 'no-store').send({ challenge_id: challengeId });
  });

  async function verifyAndAuthorize(req: FastifyRequest, reply: FastifyReply, params: Record<string, unknown>) {
    // The step-up token is used up, which ends its interaction (read with it: one statement on PostgreSQL).
    const done = await stepUps.finishApiStepUp(params.challenge_id, params.verification_code);
    const interaction = done.interaction ? await interactions.restore(done.interaction) : null;
    if (!interaction || interaction.request.client.client_id !== done.clientId) throw new WardError('invalidStepUp');
    if (params.trust_device === true || params.trust_device === 'true')
      await rememberDevice(r, reply, done.user.id, req.headers['user-agent']);
    // A step-up is a (re-)authentication: a new session id, the old session ended (SS-01).
    const who = { user: done.user, amr: done.amr, authTime: r.clock.now(), stepUpAction: done.action };
    const browser = { sessionCookie: req.cookies[SESSION_COOKIE], userAgent: req.headers['user-agent'] };
    const outcome = await nextStep.afterSecondFactor(interaction, who, browser, true);
    if (outcome.kind !== 'authorized') throw new WardError('invalidStepUp');
    return sendAuthorizationJson(r, reply, outcome);
  }

  app.post('/identity/v1/passwordless/verify', { schema: passwordlessVerifySchema }, async (req, reply) => {
    const params = requireSingle(req.body, isJson(req.headers['content-type']));
    await r.limiter('verification', req.ip, r.account().rate_limits.verification);
    // A first factor names its auth_type and no challenge (the SDK's web_message verify).
    if (params.challenge_id === undefined && params.auth_type !== undefined)
      return firstFactor.verify(req, reply, params);
    return verifyAndAuthorize(req, reply, params);
  });
}
