// The step-up of the hosted account page ("Confirm it's you"): a user with a verified second factor
// confirms with a code before a sensitive change (stepup/factors.ts requireFreshStepUp). It uses the
// step-up service of the sign-ins with no interaction to continue; a right code replaces the SSO
// session with a new one (a new cookie) that carries the stepped-up amr and an auth_time of now.
import type { SessionService } from '../accounts/sessions.js';
import { WardError } from '../errors/ward-error.js';
import type { Clock } from '../lib/clock.js';
import type { Channel } from '../stepup/challenges.js';
import type { StepUpFinish, StepUpService } from '../stepup/service.js';
import type { StrongFactorType } from '../stepup/strong-factors.js';

/**
 * The client id the account page's step-ups are stored under (step_ups.client_id is required and
 * names no client row). A registered client id cannot contain ':' (config/validate.ts), so it is
 * never a real client's; the audit events of these step-ups carry it.
 */
export const ACCOUNT_PAGE_CLIENT = 'ward:account';

export interface AccountSession {
  userId: string;
  amr: string[];
}

export function createAccountStepUp(deps: {
  stepUps: Pick<
    StepUpService,
    'begin' | 'requestCode' | 'finish' | 'finishWithFactor' | 'webAuthnOptions' | 'finishWithKey'
  >;
  sessions: Pick<SessionService, 'create'>;
  clock: Clock;
}) {
  /** A step-up of this page and of the session's user replaces the session with a stepped-up one. */
  async function stepped(session: AccountSession, cookie: string, done: StepUpFinish): Promise<string> {
    if (done.clientId !== ACCOUNT_PAGE_CLIENT || done.interactionDigest !== null || done.user.id !== session.userId)
      throw new WardError('invalidStepUp', { description: 'step-up of another page or user' });
    return (await deps.sessions.create(done.user.id, done.amr, { authTime: deps.clock.now(), replaces: cookie }))
      .cookie;
  }

  return {
    /**
     * A new step-up of the session's user to confirm with a security key or passkey: its request
     * options (user verification discouraged, the user's keys allowed), bound to the step-up.
     */
    async startKey(session: AccountSession, origin: string) {
      const bound = { clientId: ACCOUNT_PAGE_CLIENT, interactionDigest: null };
      const { token } = await deps.stepUps.begin({ id: session.userId }, bound, session.amr, 'account');
      return { stepUp: token, options: await deps.stepUps.webAuthnOptions(token, origin) };
    },

    /** Confirms the step-up started by startKey with the key's assertion; answers the new cookie. */
    async confirmWithKey(
      session: AccountSession,
      cookie: string,
      stepUp: unknown,
      response: Parameters<StepUpService['finishWithKey']>[1],
    ): Promise<string> {
      return stepped(session, cookie, await deps.stepUps.finishWithKey(stepUp, response));
    },

    /** A new step-up of the session's user, and a code sent to their factor of that type. */
    async start(session: AccountSession, channel: Channel, locale?: string) {
      const bound = { clientId: ACCOUNT_PAGE_CLIENT, interactionDigest: null };
      const { token } = await deps.stepUps.begin({ id: session.userId }, bound, session.amr, 'account');
      const challengeId = await deps.stepUps.requestCode(token, channel, locale);
      return { stepUp: token, challengeId };
    },

    /** A new code for a step-up already started (the previous code stops working). */
    resend: (stepUp: unknown, channel: Channel, locale?: string): Promise<string> =>
      deps.stepUps.requestCode(stepUp, channel, locale),

    /**
     * Checks the code; a step-up of this page and of the session's user replaces the session
     * (`cookie`, the SSO cookie the browser sent) with a stepped-up one. Answers the new cookie.
     */
    async finish(session: AccountSession, cookie: string, challengeId: unknown, code: unknown): Promise<string> {
      return stepped(session, cookie, await deps.stepUps.finish(challengeId, code));
    },

    /**
     * Confirms at once with the code of the user's authenticator app or a recovery code: a step-up is
     * begun and answered in one go (its attempts are the user's failures of the window, stepup/strong-factors.ts).
     */
    async confirmWithFactor(
      session: AccountSession,
      cookie: string,
      type: StrongFactorType,
      code: unknown,
      locale?: string,
    ): Promise<string> {
      const bound = { clientId: ACCOUNT_PAGE_CLIENT, interactionDigest: null };
      const { token } = await deps.stepUps.begin({ id: session.userId }, bound, session.amr, 'account');
      return stepped(session, cookie, await deps.stepUps.finishWithFactor(token, type, code, locale));
    },
  };
}

export type AccountStepUp = ReturnType<typeof createAccountStepUp>;
