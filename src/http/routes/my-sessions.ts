import type { WardApp } from '../typed-app.js';
import { type Credentials, verifyBearer } from '../../protocol/bearer.js';
import { resourceRequest } from '../resource-request.js';
import { requestLanguage } from '../page-language.js';
import { notFound } from '../../errors/refusals.js';
import { endOneSession, listSessions, recentSecurityEvents, type SignInsDeps } from '../../self-service/sign-ins.js';
import { endMySessionSchema, listMySessionsSchema, mySecurityEventsSchema } from './schemas/my-sessions.js';
import type { UserService } from '../../accounts/users.js';
import type { SecurityEvents } from '../../audit/events.js';
import type { Limiter } from '../../limits/rate-limit.js';
import type { AccessTokenCodec } from '../../protocol/access-token-codec.js';

/** The services this module uses (registry.ts builds them; the composition passes them in). */
export interface MySessionsDeps extends SignInsDeps {
  accessTokens: AccessTokenCodec;
  events: SecurityEvents;
  limiter: Limiter;
  users: UserService;
}

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * The user's sign-ins with their access token (docs/self-service.md): the live sessions (the one the
 * token was issued in marked), ending one (its tokens stop at once, its clients get a back-channel logout
 * token), and the recent security events. "Sign out everywhere else" is DELETE /identity/v1/sessions/others.
 */
export function mySessionRoutes(app: WardApp, r: MySessionsDeps): void {
  const caller = async (ip: string, credentials: Credentials) => {
    await r.limiter('sessions', ip, r.account().rate_limits.sessions);
    return verifyBearer(r, credentials);
  };

  app.get('/identity/v1/me/sessions', { schema: listMySessionsSchema }, async (req, reply) => {
    const ctx = await caller(req.ip, resourceRequest(req));
    const current = (await r.storage.tokens.findGrant(ctx.grantId))?.session_id ?? null;
    const sessions = await listSessions(r, ctx.user.id, current, requestLanguage(req));
    return reply.header('Cache-Control', 'no-store').send({
      sessions: sessions.map((s) => ({
        id: s.id,
        browser: s.browser,
        os: s.os,
        created_at: iso(s.createdAt),
        last_used_at: iso(s.lastUsedAt),
        amr: s.amr,
        current: s.current,
        place: s.place,
      })),
    });
  });

  app.delete('/identity/v1/me/sessions/:id', { schema: endMySessionSchema }, async (req, reply) => {
    const ctx = await caller(req.ip, resourceRequest(req));
    // Another user's session, or one already ended, is simply not found (no IDOR).
    if (!(await endOneSession(r, ctx.user.id, String(req.params.id).slice(0, 64)))) throw notFound('No such session');
    await r.events.emit(
      'session.ended',
      { user_id: ctx.user.id, client_id: ctx.clientId, by: 'api', ip: req.ip },
      'the user ended one of their sessions',
    );
    return reply.header('Cache-Control', 'no-store').code(204).send();
  });

  app.get('/identity/v1/me/security-events', { schema: mySecurityEventsSchema }, async (req, reply) => {
    const ctx = await caller(req.ip, resourceRequest(req));
    const events = await recentSecurityEvents(r, ctx.user.id, 50);
    return reply.header('Cache-Control', 'no-store').send({ events: events.map((e) => ({ ...e, at: iso(e.at) })) });
  });
}
