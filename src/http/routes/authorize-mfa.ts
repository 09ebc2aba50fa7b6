import type { WardApp } from '../typed-app.js';
import { mfaFormSchema } from './schemas/authorize.js';
import { WardError } from '../../errors/ward-error.js';
import type { Channel } from '../../stepup/challenges.js';
import type { SecondFactorKeys, SecondFactorType } from '../../stepup/service.js';
import type { Limiter } from '../../limits/rate-limit.js';
import { authenticationResponse } from '../../passkeys/wire.js';
import { invalidField } from '../../errors/refusals.js';
import type { SignInDeps } from '../sign-in.js';
import {
  acceptHostedPost,
  answerOutcome,
  browserState,
  expiredPage,
  secondFactorMessage,
  secondFactorPage,
} from './hosted-form.js';
import { pageLanguage } from '../page-language.js';
import { hostedMessage } from '../../interaction/pages/hosted-messages.js';
import { offerNewRecoveryCodes } from './authorize-enrol.js';
import type { AccountSettings, WardConfig } from '../../config/types.js';
import type { Clock } from '../../lib/clock.js';
import type { Storage } from '../../storage/storage.js';

/** The services this module uses (registry.ts builds them; the composition passes them in). */
export interface AuthorizeMfaDeps {
  account: () => AccountSettings;
  clock: Clock;
  config: WardConfig;
  masterKey: Buffer;
  storage: Storage;
  limiter: Limiter;
  passkeys: Pick<SecondFactorKeys, 'secondFactorOptions'>;
}

/**
 * The hosted login page under MFA required = Always: after the first factor, a code sent to a
 * registered factor (POST /oauth/authorize/mfa verifies it, or sends a new one within the limits).
 * Only a verified code ends the sign-in: the first factor alone never yields a code for the client.
 */
export function hostedMfaRoutes(app: WardApp, r: AuthorizeMfaDeps, deps: SignInDeps): void {
  const { interactions, nextStep, stepUps } = deps;
  /** A security key's assertion, posted by the page's script as JSON in the Core SDK's wire format. */
  async function keyAssertion(raw: unknown, ip: string) {
    // Per client IP, like the API's answers (the attempts are also counted on the step-up and the user).
    await r.limiter('verification', ip, r.account().rate_limits.verification);
    let parsed: unknown;
    try {
      parsed = typeof raw === 'string' ? JSON.parse(raw) : undefined;
    } catch {
      throw invalidField('assertion', 'must be the JSON of an assertion');
    }
    return authenticationResponse(parsed, '');
  }
  app.post('/oauth/authorize/mfa', { schema: mfaFormSchema }, async (req, reply) => {
    const accepted = await acceptHostedPost(r, interactions, req, reply);
    if (!accepted) return reply;
    const { params, interaction, handle } = accepted;
    if (interaction.step !== 'mfa' || !interaction.userId) return expiredPage(req, reply, interaction.request);
    const stepUp = typeof params.step_up === 'string' ? params.step_up : '';
    const strong = params.auth_type === 'totp' || params.auth_type === 'recovery_code' ? params.auth_type : null;
    const key = params.auth_type === 'webauthn';
    const channel: SecondFactorType = key ? 'webauthn' : (strong ?? (params.auth_type === 'sms' ? 'sms' : 'email'));
    const at = { handle, interaction, stepUp, channel };
    const browser = browserState(req, reply, interaction.request);
    try {
      // Back to the authenticator app's form from a code's (nothing is sent).
      if (params.action === 'switch' && (strong || key)) return secondFactorPage(r, req, reply, at, 200, {});
      if (params.action === 'resend' && !strong && !key) {
        const sent: Channel = channel === 'sms' ? 'sms' : 'email';
        const userLocale = (await r.storage.profiles.find(interaction.userId))?.locale;
        const challengeId = await stepUps.requestCode(stepUp, sent, browser.language?.(userLocale));
        const notice = hostedMessage(pageLanguage(req, interaction.request), 'codeSent');
        return secondFactorPage(r, req, reply, at, 200, { challengeId, notice });
      }
      const done = key
        ? await stepUps.finishWithKey(stepUp, await keyAssertion(params.assertion, req.ip))
        : strong
          ? await stepUps.finishWithFactor(
              stepUp,
              strong,
              params.verification_code,
              browser.language?.((await r.storage.profiles.find(interaction.userId))?.locale),
            )
          : await stepUps.finish(params.challenge_id, params.verification_code);
      if (done.interactionDigest !== interaction.digest) {
        throw new WardError('invalidStepUp', { description: 'step-up of another sign-in' });
      }
      // The last recovery code used: a new set is offered before the sign-in goes on.
      if (done.recoveryCodesLeft === 0)
        return offerNewRecoveryCodes(r, deps, req, reply, interaction, { userId: done.user.id, amr: done.amr });
      const who = { user: done.user, amr: done.amr, authTime: r.clock.now() };
      return answerOutcome(r, req, reply, await nextStep.afterSecondFactor(interaction, who, browser));
    } catch (e) {
      const msg = secondFactorMessage(e, pageLanguage(req, interaction.request));
      if (!msg) throw e;
      const status = e instanceof WardError ? e.status : 500;
      if (e instanceof WardError) for (const [k, v] of Object.entries(e.headers)) reply.header(k, v);
      const challengeId = typeof params.challenge_id === 'string' ? params.challenge_id : '';
      return secondFactorPage(r, req, reply, at, status === 400 ? 401 : status, { challengeId, error: msg });
    }
  });
}
