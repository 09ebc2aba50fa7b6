import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../../errors/api-error.js';
import { sendMfaPage } from '../../flows/login/mfa-page.js';
import { verifiedFactors } from '../../flows/stepup/factors.js';
import type { StepUpService } from '../../flows/stepup/service.js';
import { sha256 } from '../../lib/secrets.js';
import { completeAuthorization } from '../../protocol/authorize/complete.js';
import type { AuthorizeRequest } from '../../protocol/authorize/request.js';
import type { Registry } from '../../registry.js';
import type { User } from '../../storage/sql/users.js';
import type { Channel } from '../../verification/challenges.js';
import { acceptHostedPost, ensureCsrf, startLoginSession } from './hosted-form.js';

const userMessage = (e: unknown): string | null => {
  if (!(e instanceof ApiError)) return null;
  if (e.status === 429) return 'Too many codes were asked for. Wait before asking for another one.';
  if (e.error === 'invalid_grant') return 'The code is wrong or has expired. Try again or ask for a new one.';
  return e.userMsg;
};

/**
 * The hosted login page under MFA required = Always: after the password, a code sent to a
 * registered factor (POST /oauth/authorize/mfa verifies it, or sends a new one within the limits).
 * Only a verified code ends the login: the password alone never yields a code for the client.
 */
export function hostedMfaRoutes(app: FastifyInstance, r: Registry, stepUps: StepUpService) {
  const locale = (req: FastifyRequest) => req.headers['accept-language']?.split(',')[0]?.trim();

  async function page(
    req: FastifyRequest,
    reply: FastifyReply,
    ar: AuthorizeRequest,
    rawQuery: string,
    stepUp: string,
    channel: Channel,
    status: number,
    extra: { challengeId?: string; notice?: string; error?: string },
  ) {
    const live = await r.storage.stepUps.findLive(sha256(stepUp), r.clock.now());
    const channels = live ? (await verifiedFactors(r.storage, live.user_id)).map((c) => c.type) : [channel];
    return sendMfaPage(reply, status, {
      clientName: ar.client.name,
      request: rawQuery,
      csrf: ensureCsrf(r, req, reply),
      stepUp,
      challengeId: extra.challengeId ?? '',
      channel,
      channels: [...new Set(channels)],
      target: ar.target,
      notice: extra.notice,
      error: extra.error,
    });
  }

  /** Called by the login form once the password is right: step-up bound to this request, first code sent. */
  async function begin(
    req: FastifyRequest,
    reply: FastifyReply,
    ar: AuthorizeRequest,
    rawQuery: string,
    user: User,
    baseAmr: string[] = ['pwd'],
  ): Promise<FastifyReply> {
    const { token, amr } = await stepUps.begin(user, ar, baseAmr);
    const channel: Channel = amr.includes('email') ? 'email' : 'sms';
    try {
      const challengeId = await stepUps.requestCode(token, channel, locale(req));
      return page(req, reply, ar, rawQuery, token, channel, 200, { challengeId });
    } catch (e) {
      const msg = userMessage(e);
      if (!msg) throw e;
      return page(req, reply, ar, rawQuery, token, channel, e instanceof ApiError ? e.status : 500, { error: msg });
    }
  }

  app.post('/oauth/authorize/mfa', async (req, reply) => {
    const accepted = await acceptHostedPost(r, req, reply);
    if (!accepted) return reply;
    const { params, rawQuery, ar } = accepted;
    const stepUp = typeof params.step_up === 'string' ? params.step_up : '';
    const channel: Channel = params.auth_type === 'sms' ? 'sms' : 'email';
    try {
      if (params.action === 'resend') {
        const challengeId = await stepUps.requestCode(stepUp, channel, locale(req));
        return page(req, reply, ar, rawQuery, stepUp, channel, 200, {
          challengeId,
          notice: 'A new code was sent. The previous one no longer works.',
        });
      }
      const done = await stepUps.finish(params.challenge_id, params.verification_code);
      if (done.request.client.client_id !== ar.client.client_id)
        throw new ApiError(400, 'invalid_grant', 'step-up of another request', 'error.mfa.invalidStepUp');
      const authTime = r.clock.now();
      const sessionId = await startLoginSession(r, req, reply, done.user.id, done.amr, authTime);
      await completeAuthorization(r, reply, done.request, { user: done.user, sessionId, authTime, amr: done.amr }, 303);
      return reply;
    } catch (e) {
      const msg = userMessage(e);
      if (!msg) throw e;
      const status = e instanceof ApiError ? e.status : 500;
      if (e instanceof ApiError) for (const [k, v] of Object.entries(e.headers)) reply.header(k, v);
      return page(req, reply, ar, rawQuery, stepUp, channel, status === 400 ? 401 : status, {
        challengeId: typeof params.challenge_id === 'string' ? params.challenge_id : '',
        error: msg,
      });
    }
  });

  return { begin };
}
