import type { WardApp } from '../typed-app.js';
import { verifyBearer } from '../../protocol/bearer.js';
import { resourceRequest } from '../resource-request.js';
import { endSessionsOfUser, type LogoutDelivery } from '../../logout/backchannel.js';
import { otherSessionsSchema } from './schemas/identity.js';
import type { UserService } from '../../accounts/users.js';
import type { SecurityEvents, StagedEvent } from '../../audit/events.js';
import type { ClientService } from '../../clients/service.js';
import type { AccountSettings } from '../../config/types.js';
import type { Clock } from '../../lib/clock.js';
import type { Limiter } from '../../limits/rate-limit.js';
import type { AccessTokenCodec } from '../../protocol/access-token-codec.js';
import type { Storage } from '../../storage/storage.js';

/** The services this module uses (registry.ts builds them; the composition passes them in). */
export interface SessionsDeps {
  accessTokens: AccessTokenCodec;
  account: () => AccountSettings;
  clients: ClientService;
  clock: Clock;
  events: SecurityEvents;
  limiter: Limiter;
  logoutDelivery: LogoutDelivery;
  storage: Storage;
  users: UserService;
}

/**
 * `DELETE /identity/v1/sessions/others`: "sign out everywhere else" (ASVS 7.4.3, checklist MF-03:
 * the option to end the other sessions after a factor or password change). With a user's access
 * token, ends every other SSO session of that user and revokes every other grant (their refresh and
 * access tokens stop working on every process at once). What stays: the caller's grant and the SSO
 * session it was issued in, with the grants of that session (the same browser's other apps). The
 * clients that had the ended sessions get a back-channel logout token.
 */
export function sessionRoutes(app: WardApp, r: SessionsDeps): void {
  app.delete('/identity/v1/sessions/others', { schema: otherSessionsSchema }, async (req, reply) => {
    await r.limiter('sessions', req.ip, r.account().rate_limits.sessions);
    const ctx = await verifyBearer(r, resourceRequest(req));
    const keepSession = (await r.storage.tokens.findGrant(ctx.grantId))?.session_id ?? null;
    // The sessions' end and its webhook event in one transaction.
    let staged: StagedEvent | undefined;
    const keep = { grant: ctx.grantId, session: keepSession };
    const ended = await endSessionsOfUser({ ...r, delivery: r.logoutDelivery }, ctx.user.id, keep, async (tx, e) => {
      const fields = { user_id: ctx.user.id, client_id: ctx.clientId, ...e };
      staged = await r.events.stage(tx, 'sessions.others_ended', fields);
    });
    if (staged) r.events.emitStaged(staged, 'other sessions ended');
    return reply
      .header('Cache-Control', 'no-store')
      .send({ ended_sessions: ended.sessions, revoked_grants: ended.grants });
  });
}
