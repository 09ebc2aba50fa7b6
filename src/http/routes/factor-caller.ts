import type { FastifyRequest } from 'fastify';
import { type BearerContext, type BearerDeps, verifyBearer } from '../../protocol/bearer.js';
import { resourceRequest } from '../resource-request.js';
import { requireFreshStepUp } from '../../stepup/factors.js';

/**
 * The user of a factor route (identity API, Bearer): a change to the factors needs a fresh step-up
 * when the user already has a verified factor; reading them does not.
 */
export async function factorCaller(
  r: Pick<BearerDeps, 'accessTokens' | 'clock' | 'storage' | 'users'>,
  req: FastifyRequest,
  needsStepUpIfFactors: boolean,
): Promise<BearerContext> {
  const ctx = await verifyBearer(r, resourceRequest(req));
  if (needsStepUpIfFactors)
    await requireFreshStepUp(
      { storage: r.storage, now: r.clock.now() },
      { userId: ctx.user.id, amr: ctx.amr, authTime: ctx.authTime },
    );
  return ctx;
}
