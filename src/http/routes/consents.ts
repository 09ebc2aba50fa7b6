import type { WardApp } from '../typed-app.js';
import { type Credentials, verifyBearer } from '../../protocol/bearer.js';
import { resourceRequest } from '../resource-request.js';
import { notFound } from '../../errors/refusals.js';
import { listConsentsSchema, revokeConsentSchema } from './schemas/consents.js';
import type { UserService } from '../../accounts/users.js';
import type { SecurityEvents } from '../../audit/events.js';
import type { ClientService } from '../../clients/service.js';
import type { AccountSettings } from '../../config/types.js';
import type { Clock } from '../../lib/clock.js';
import type { Limiter } from '../../limits/rate-limit.js';
import type { AccessTokenCodec } from '../../protocol/access-token-codec.js';
import type { Storage } from '../../storage/storage.js';

/** The services this module uses (registry.ts builds them; the composition passes them in). */
export interface ConsentsDeps {
  accessTokens: AccessTokenCodec;
  account: () => AccountSettings;
  clients: ClientService;
  clock: Clock;
  events: SecurityEvents;
  limiter: Limiter;
  storage: Storage;
  users: UserService;
}

/**
 * A user's consents to third-party clients (interaction/consent.ts), with their access token: the
 * list, and revoking one, which also revokes every grant that client holds for the user (its
 * refresh and access tokens stop working), so the app loses access at once and asks again.
 */
export function userConsentRoutes(app: WardApp, r: ConsentsDeps): void {
  const caller = async (ip: string, credentials: Credentials) => {
    await r.limiter('consents', ip, r.account().rate_limits.consents);
    return verifyBearer(r, credentials);
  };

  app.get('/identity/v1/consents', { schema: listConsentsSchema }, async (req, reply) => {
    const ctx = await caller(req.ip, resourceRequest(req));
    const rows = await r.storage.consents.listForUser(ctx.user.id);
    const consents = [];
    for (const c of rows) {
      const client = await r.clients.find(c.client_id);
      if (!client) continue; // a client deleted meanwhile holds nothing any more
      consents.push({
        client_id: c.client_id,
        client_name: client.name,
        scopes: c.scopes,
        created_at: new Date(c.created_at).toISOString(),
        updated_at: new Date(c.updated_at).toISOString(),
      });
    }
    return reply.header('Cache-Control', 'no-store').send({ consents });
  });

  app.delete('/identity/v1/consents/:client_id', { schema: revokeConsentSchema }, async (req, reply) => {
    const ctx = await caller(req.ip, resourceRequest(req));
    const clientId = String(req.params.client_id).slice(0, 128);
    const done = await r.storage.consents.revoke(ctx.user.id, clientId, r.clock.now());
    if (!done.revoked) throw notFound('No consent given to this client');
    await r.events.emit(
      'consent.revoked',
      { user_id: ctx.user.id, client_id: clientId, revoked_grants: done.grants, by_client: ctx.clientId },
      'the user withdrew a consent',
    );
    return reply.header('Cache-Control', 'no-store').code(204).send();
  });
}
