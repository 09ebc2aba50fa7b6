import type { NextStep } from '../interaction/next-step.js';
import type { InteractionService } from '../interaction/service.js';
import type { SocialService } from '../social/service.js';
import type { StepUpService } from '../stepup/service.js';

/**
 * What the sign-in routes share: the stored interaction, what follows a first factor, step-ups,
 * social login. The registry builds them (registry.ts); the routes only call them.
 */
export interface SignInDeps {
  interactions: InteractionService;
  nextStep: NextStep;
  stepUps: StepUpService;
  social: SocialService;
}
