import { createSocialService, type SocialService } from '../social/service.js';
import { stepUpRequiredAtLogin } from '../stepup/factors.js';
import { createStepUpService, type StepUpService } from '../stepup/service.js';
import { createNextStep, type NextStep } from '../interaction/next-step.js';
import { createInteractionService, type InteractionService } from '../interaction/service.js';
import { issueAuthorization } from '../protocol/authorize/complete.js';
import type { Registry } from '../registry.js';
import { isTrustedDevice } from './routes/trusted-device.js';

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
      const { cookie, session } = await r.sessions.create(userId, amr, authTime, replaces);
      return { cookie, id: session.id };
    },
    authorize: (request, auth) => issueAuthorization(r, request, auth),
    now: () => r.clock.now(),
  });
  return { interactions, nextStep, stepUps, social: createSocialService(r) };
}
