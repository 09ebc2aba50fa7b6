import type { FastifyRequest } from 'fastify';
import type { WardApp } from '../typed-app.js';
import { exportUser } from '../../accounts/data-export.js';
import type { UserService } from '../../accounts/users.js';
import type { SecurityEvents } from '../../audit/events.js';
import type { AccountSettings } from '../../config/types.js';
import type { Clock } from '../../lib/clock.js';
import type { Limiter } from '../../limits/rate-limit.js';
import type { AccessTokenCodec } from '../../protocol/access-token-codec.js';
import { verifyBearer } from '../../protocol/bearer.js';
import { resourceRequest } from '../resource-request.js';
import { requireSingle } from '../../protocol/params.js';
import type { AccountDeletion } from '../../self-service/account-deletion.js';
import { requireFreshStepUp } from '../../stepup/factors.js';
import type { Storage } from '../../storage/storage.js';
import { isJson } from './identity-request.js';
import { accountDataApiSchema, deleteAccountCodeSchema, deleteAccountSchema } from './schemas/account-leave.js';

/** The services this module uses (registry.ts builds them; the composition passes them in). */
export interface AccountLeaveApiDeps {
  accessTokens: AccessTokenCodec;
  account: () => AccountSettings;
  accountDeletion: AccountDeletion;
  clock: Clock;
  events: SecurityEvents;
  limiter: Limiter;
  storage: Storage;
  users: UserService;
}

/**
 * The account page's "Download my data" and "Delete my account" for an app of the user's, with their
 * access token (docs/self-service.md): the same export and the same deletion, the same proofs (the
 * password, or a code sent to a user without one; a fresh step-up when the user has a second factor).
 */
export function accountLeaveApiRoutes(app: WardApp, r: AccountLeaveApiDeps): void {
  const caller = async (req: FastifyRequest) => {
    await r.limiter('self_service', req.ip, r.account().rate_limits.verification);
    const ctx = await verifyBearer(r, resourceRequest(req));
    await requireFreshStepUp(
      { storage: r.storage, now: r.clock.now() },
      { userId: ctx.user.id, amr: ctx.amr, authTime: ctx.authTime },
    );
    return ctx;
  };

  app.get('/identity/v1/account-data', { schema: accountDataApiSchema }, async (req, reply) => {
    const ctx = await caller(req);
    const now = r.clock.now();
    const out = await exportUser({ storage: r.storage, protection: r.users.protection, now }, ctx.user);
    await r.events.emit(
      'account.data_exported',
      { user_id: ctx.user.id, client_id: ctx.clientId },
      'the user downloaded their data',
    );
    return reply.header('Cache-Control', 'no-store').send(out);
  });

  app.post('/identity/v1/delete-account/code', { schema: deleteAccountCodeSchema }, async (req, reply) => {
    const ctx = await caller(req);
    const params = requireSingle(req.body ?? {}, isJson(req.headers['content-type']));
    const locale = typeof params.locale === 'string' ? params.locale.slice(0, 35) : undefined;
    await r.accountDeletion.sendCode(ctx.user, locale);
    return reply.header('Cache-Control', 'no-store').code(204).send();
  });

  app.post('/identity/v1/delete-account', { schema: deleteAccountSchema }, async (req, reply) => {
    const ctx = await caller(req);
    const params = requireSingle(req.body ?? {}, isJson(req.headers['content-type']));
    const locale = typeof params.locale === 'string' ? params.locale.slice(0, 35) : undefined;
    const { dueAt } = await r.accountDeletion.request(
      ctx.user,
      {
        password: params.password,
        code: params.verification_code,
        confirmed: params.confirm === true || params.confirm === 'true' || params.confirm === 'yes',
      },
      locale,
    );
    return reply
      .header('Cache-Control', 'no-store')
      .send(dueAt === null ? { status: 'deleted' } : { status: 'scheduled', due_at: new Date(dueAt).toISOString() });
  });
}
