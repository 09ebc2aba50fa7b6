import { createSocialService, type SocialService } from '../social/service.js';
import { stepUpRequiredAtLogin } from '../stepup/factors.js';
import { createStepUpService, type StepUpService } from '../stepup/service.js';
import { createNextStep, type NextStep } from '../interaction/next-step.js';
import { createInteractionService, type InteractionService } from '../interaction/service.js';
import { deliveriesFor } from '../logout/backchannel.js';
import { issueAuthorization } from '../protocol/authorize/complete.js';
import type { Registry } from '../registry.js';
import { isTrustedDevice } from './routes/trusted-device.js';
import { signInAudit } from '../sign-in-methods/audit.js';

/** What the sign-in routes share: the stored interaction, what follows a first factor, step-ups, social login. */
export interface SignInDeps {
  interactions: InteractionService;
  nextStep: NextStep;
  stepUps: StepUpService;
  social: SocialService;
}

export function createSignIn(r: Registry): SignInDeps {
  const stepUps = createStepUpService(r, r.verification);
  const interactions = createInteractionService({
    interactions: r.storage.interactions,
    clock: r.clock,
    findClient: (id) => r.clients.find(id),
  });
  const nextStep = createNextStep({
    interactions,
    beginStepUp: (user, bound, baseAmr) => stepUps.begin(user, bound, baseAmr),
    requestCode: (stepUp, channel, locale) => stepUps.requestCode(stepUp, channel, locale),
    secondFactorRequired: (userId) => stepUpRequiredAtLogin(r.storage, r.account(), userId),
    isTrustedDevice: (cookie, userId) => isTrustedDevice(r, cookie, userId),
    startSession: async (userId, amr, authTime, replaces) => {
      // Another user signing in in this browser ends the session there: its clients are told (back-channel).
      let queued = 0;
      const { cookie, session } = await r.sessions.create(userId, amr, authTime, replaces, async (ended) => {
        const rows = await deliveriesFor(r, { sessionId: ended.id, userId: ended.userId });
        queued = rows.length;
        return (tx) => tx.logoutDeliveries.enqueue(rows);
      });
      if (queued) r.logoutDelivery.kick();
      return { cookie, id: session.id };
    },
    authorize: (request, auth) => issueAuthorization(r, request, auth),
    now: () => r.clock.now(),
    audit: signInAudit(r.events),
  });
  return { interactions, nextStep, stepUps, social: createSocialService(r) };
}
