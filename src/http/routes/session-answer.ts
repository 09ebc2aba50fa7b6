import type { FastifyReply, FastifyRequest } from 'fastify';
import { WardError } from '../../errors/ward-error.js';
import type { AuthorizeRequest } from '../../protocol/authorize/request.js';
import type { User } from '../../storage/sql/users.js';
import { sendAuthorizationResponse } from '../authorization-response.js';
import type { SignInDeps } from '../sign-in.js';
import { confirmationPage } from './authorize-consent.js';
import { answerOutcome, browserCookie, browserState, type HostedFormDeps } from './hosted-form.js';

/**
 * A request the browser's SSO session answers (next-step.ts sessionAnswers said so), from
 * /oauth/authorize or once the consents to accept again were answered: those consents first, then a
 * third-party client's consent page (Allow is a confirmation in this browser too, so Messenger
 * linking's is not asked again), then Messenger linking's confirmation (never a silent code), else
 * the response in that session.
 */
export async function answerFromSession(
  r: Pick<HostedFormDeps, 'account' | 'config' | 'masterKey' | 'storage' | 'passkeys'>,
  deps: Pick<SignInDeps, 'interactions' | 'nextStep'>,
  req: FastifyRequest,
  reply: FastifyReply,
  ar: AuthorizeRequest,
  session: { id: string; authTime: number; amr: string[]; user: User },
  /** 303 after a form's POST (never re-posted), else 302 as /oauth/authorize has always answered. */
  redirectStatus = 302,
): Promise<FastifyReply> {
  const { nextStep } = deps;
  const owed = await nextStep.consentFromSession(ar, session, browserState(req, reply, ar));
  if (owed) return answerOutcome(r, req, reply, owed);
  if (nextStep.needsConfirmation(ar)) {
    if (ar.prompt === 'none')
      throw new WardError('authorizeInteractionRequired', {
        description: 'Linking needs the user to confirm',
        authorizeRequest: ar,
      });
    const { handle } = await deps.interactions.start(ar, 'confirm', browserCookie(req, reply));
    const { user } = session;
    return confirmationPage(r, req, reply, { handle, request: ar }, user.email ?? user.phone_number ?? user.id);
  }
  const values = await nextStep.fromSession(ar, session);
  return sendAuthorizationResponse(reply, ar, r.config.issuer, values, redirectStatus);
}
