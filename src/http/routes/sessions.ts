import type { WardApp } from '../typed-app.js';
import { verifyBearer } from '../../protocol/bearer.js';
import { endSessionsOfUser } from '../../logout/backchannel.js';
import type { Registry } from '../../registry.js';
import { otherSessionsSchema } from './schemas/identity.js';

/**
 * `DELETE /identity/v1/sessions/others`: "sign out everywhere else" (ASVS 7.4.3, checklist MF-03:
 * the option to end the other sessions after a factor or password change). With a user's access
 * token, ends every other SSO session of that user and revokes every other grant (their refresh and
 * access tokens stop working on every process at once). What stays: the caller's grant and the SSO
 * session it was issued in, with the grants of that session (the same browser's other apps). The
 * clients that had the ended sessions get a back-channel logout token.
 */
export function sessionRoutes(
  app: WardApp,
  r: Pick<Registry, 'accessTokens' | 'clients' | 'clock' | 'events' | 'logoutDelivery' | 'storage' | 'users'>,
): void {
  app.delete('/identity/v1/sessions/others', { schema: otherSessionsSchema }, async (req, reply) => {
    const ctx = await verifyBearer(r, req.headers.authorization);
    const keepSession = (await r.storage.tokens.findGrant(ctx.grantId))?.session_id ?? null;
    const ended = await endSessionsOfUser({ ...r, delivery: r.logoutDelivery }, ctx.user.id, {
      grant: ctx.grantId,
      session: keepSession,
    });
    await r.events.emit(
      'sessions.others_ended',
      { user_id: ctx.user.id, client_id: ctx.clientId, ...ended },
      'other sessions ended',
    );
    return reply
      .header('Cache-Control', 'no-store')
      .send({ ended_sessions: ended.sessions, revoked_grants: ended.grants });
  });
}
