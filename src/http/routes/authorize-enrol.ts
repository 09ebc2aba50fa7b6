import type { FastifyReply, FastifyRequest } from 'fastify';
import type { WardApp } from '../typed-app.js';
import { enrolFormSchema } from './schemas/authorize.js';
import { WardError } from '../../errors/ward-error.js';
import type { EnrolmentStep } from '../../interaction/enrolment.js';
import type { EnrolmentKeys } from '../../interaction/enrolment-key.js';
import { lastRecoveryCodePage, recoveryCodesPage } from '../../interaction/pages/enrolment.js';
import type { Interaction } from '../../interaction/service.js';
import { textsIn } from '../../texts/texts.js';
import { steppedUpAmr } from '../../stepup/factors.js';
import type { StrongFactors } from '../../stepup/strong-factors.js';
import type { MessageFactors } from '../../stepup/message-factors.js';
import type { SignInDeps } from '../sign-in.js';
import { sendRendered } from '../pages.js';
import { pageLanguage } from '../page-language.js';
import {
  acceptHostedPost,
  answerOutcome,
  browserState,
  enrolPage,
  ensureCsrf,
  expiredPage,
  secondFactorMessage,
} from './hosted-form.js';
import type { SecurityEvents } from '../../audit/events.js';
import type { AccountSettings, WardConfig } from '../../config/types.js';
import type { Clock } from '../../lib/clock.js';
import type { Limiter } from '../../limits/rate-limit.js';
import type { Storage } from '../../storage/storage.js';

/** The services this module uses (registry.ts builds them; the composition passes them in). */
export interface AuthorizeEnrolDeps {
  account: () => AccountSettings;
  clock: Clock;
  config: WardConfig;
  enrolment: EnrolmentStep;
  enrolmentKeys: EnrolmentKeys;
  events: SecurityEvents;
  limiter: Limiter;
  masterKey: Buffer;
  storage: Storage;
  strongFactors: StrongFactors;
  messageFactors: MessageFactors;
}

/**
 * The forms between a first (or second) factor and the code (docs/mfa.md#requiring-enrolment):
 * at the `enrol` step, the authenticator app's first code (`verify`) or "Later" (`later`, while the
 * grace count lasts), or a code sent to the user's verified email or phone (`email`/`sms`, then
 * `verify_sent` with `channel`), or a security key or passkey (`key` starts the ceremony, the page's script
 * posts its `credential` with `key_verify`); at the `factor_done` step (the factor proven, the interaction's amr has mfa),
 * new recovery codes (`new_codes`, shown once) and `continue`, which ends the sign-in.
 */
export function hostedEnrolRoutes(app: WardApp, r: AuthorizeEnrolDeps, deps: SignInDeps): void {
  const { interactions, nextStep } = deps;

  /** The page of the recovery codes just made, under the interaction's new handle (step `factor_done`). */
  async function showCodes(req: FastifyRequest, reply: FastifyReply, i: Interaction, amr: string[], codes: string[]) {
    const moved = await interactions.advance(i, 'factor_done', { userId: i.userId!, amr, authTime: r.clock.now() });
    if (!moved) return expiredPage(req, reply, i.request);
    const language = pageLanguage(req, i.request);
    const form = { interaction: moved.handle, csrf: ensureCsrf(r, req, reply), target: i.request.target, language };
    return sendRendered(reply, recoveryCodesPage({ ...form, codes }));
  }

  app.post('/oauth/authorize/enrol', { schema: enrolFormSchema }, async (req, reply) => {
    const accepted = await acceptHostedPost(r, interactions, req, reply);
    if (!accepted) return reply;
    await r.limiter('verification', req.ip, r.account().rate_limits.verification);
    const { params, interaction, handle } = accepted;
    const user = interaction.userId ? await r.storage.users.findById(interaction.userId) : undefined;
    const at = interaction.step === 'enrol' || interaction.step === 'factor_done' ? interaction.step : null;
    if (!at || !user || user.disabled || !interaction.amr || interaction.authTime === null)
      return expiredPage(req, reply, interaction.request);
    const browser = browserState(req, reply, interaction.request);
    const language = pageLanguage(req, interaction.request);
    const client = interaction.request.client.client_id;
    const finish = (amr: string[], authTime: number) =>
      nextStep.afterSecondFactor(interaction, { user, amr, authTime }, browser);

    if (at === 'factor_done') {
      if (params.action === 'new_codes') {
        const codes = await r.strongFactors.regenerateRecoveryCodes(user);
        return showCodes(req, reply, interaction, interaction.amr, codes);
      }
      if (params.action !== 'continue') return expiredPage(req, reply, interaction.request);
      return answerOutcome(r, req, reply, await finish(interaction.amr, interaction.authTime));
    }

    // The `enrol` step; a user who got a factor meanwhile signs in again (their factor is then asked).
    if (!(await r.enrolment.owed(user.id))) return expiredPage(req, reply, interaction.request);
    const channels = r.enrolment.messageChannels(user);
    const keys = r.enrolment.keysOffered();
    const again = async (status: number, error?: string, sent?: (typeof channels)[number], keyOptions?: unknown) => {
      const totp = await r.strongFactors.pendingTotp(user);
      if (!totp) return expiredPage(req, reply, interaction.request);
      const skipsLeft = await r.enrolment.skipsLeft(user.id);
      const at = { handle, interaction, totp, skipsLeft, channels, keys };
      return enrolPage(r, req, reply, at, status, error, sent, keyOptions);
    };
    const refusal = (e: unknown) => {
      const msg = secondFactorMessage(e, language);
      if (!msg || !(e instanceof WardError)) throw e;
      for (const [k, v] of Object.entries(e.headers)) reply.header(k, v);
      return { status: e.status === 400 ? 401 : e.status, msg };
    };
    const completed = (type: string) =>
      r.events.emit(
        'mfa.enrollment_completed',
        { user_id: user.id, client_id: client, type },
        'second factor enrolled at sign-in',
      );
    // The user's verified email address or phone number as the factor: a code sent there, then typed.
    const picked = channels.find((c) => c.channel === params.action || c.channel === params.channel);
    if (params.action === 'email' || params.action === 'sms') {
      if (!picked) return expiredPage(req, reply, interaction.request);
      try {
        await r.messageFactors.register(user.id, picked.channel, picked.to, language);
      } catch (e) {
        const { status, msg } = refusal(e);
        return again(status, msg);
      }
      return again(200, undefined, picked);
    }
    if (params.action === 'verify_sent') {
      if (!picked) return expiredPage(req, reply, interaction.request);
      try {
        await r.messageFactors.confirm(user, picked.channel, params.verification_code, language);
      } catch (e) {
        const { status, msg } = refusal(e);
        return again(status, msg, picked);
      }
      await completed(picked.channel);
      const amr = steppedUpAmr(interaction.amr, picked.channel);
      return answerOutcome(r, req, reply, await finish(amr, r.clock.now()));
    }
    // A security key or passkey: the ceremony's options bound to this sign-in, then its credential.
    if (params.action === 'key' || params.action === 'key_verify') {
      if (!keys) return expiredPage(req, reply, interaction.request);
      if (params.action === 'key') {
        const origin = new URL(r.config.issuer).origin;
        const friendlyName = textsIn(language).pages.enrolment.keyName;
        return again(
          200,
          undefined,
          undefined,
          await r.enrolmentKeys.options(user, { interaction, origin, friendlyName }),
        );
      }
      let registered: Awaited<ReturnType<EnrolmentKeys['register']>>;
      try {
        registered = await r.enrolmentKeys.register(user, interaction, params.credential, language);
      } catch (e) {
        if (!(e instanceof WardError) || e.status >= 500) throw e;
        for (const [k, v] of Object.entries(e.headers)) reply.header(k, v);
        return again(e.status, e.userMessage(language));
      }
      await completed('webauthn');
      // The key was just shown to be held (its attestation signed this sign-in's challenge).
      const amr = steppedUpAmr(interaction.amr, registered.hardware ? 'hwk' : 'swk');
      if (registered.recoveryCodes) return showCodes(req, reply, interaction, amr, registered.recoveryCodes);
      return answerOutcome(r, req, reply, await finish(amr, r.clock.now()));
    }
    if (params.action === 'later') {
      const grace = r.account().mfa_enrollment_grace_skips;
      const skips = await r.storage.enrolmentSkips.take(user.id, grace, r.clock.now());
      if (skips === null) return again(403, textsIn(language).pages.enrolment.noSkipLeft);
      await r.events.emit(
        'mfa.enrollment_skipped',
        { user_id: user.id, client_id: client, skips, skips_left: Math.max(0, grace - skips) },
        'second factor enrolment skipped',
      );
      return answerOutcome(r, req, reply, await finish(interaction.amr, interaction.authTime));
    }
    if (params.action !== 'verify') return expiredPage(req, reply, interaction.request);
    let recoveryCodes: string[] | null;
    try {
      ({ recoveryCodes } = await r.strongFactors.confirmTotp(user, params.verification_code, language));
    } catch (e) {
      const { status, msg } = refusal(e);
      return again(status, msg);
    }
    await completed('totp');
    // The app's first right code was typed now: this sign-in has its second factor.
    const amr = steppedUpAmr(interaction.amr, 'totp');
    if (recoveryCodes) return showCodes(req, reply, interaction, amr, recoveryCodes);
    return answerOutcome(r, req, reply, await finish(amr, r.clock.now()));
  });
}

/**
 * After the last recovery code answered a hosted second factor: the interaction moves to `factor_done`
 * (its amr with mfa) and the page offers a new set before the sign-in goes on (authorize-mfa.ts).
 */
export async function offerNewRecoveryCodes(
  r: Pick<AuthorizeEnrolDeps, 'clock' | 'masterKey'>,
  deps: Pick<SignInDeps, 'interactions'>,
  req: FastifyRequest,
  reply: FastifyReply,
  i: Interaction,
  who: { userId: string; amr: string[] },
): Promise<FastifyReply> {
  const moved = await deps.interactions.advance(i, 'factor_done', { ...who, authTime: r.clock.now() });
  if (!moved) return expiredPage(req, reply, i.request);
  const language = pageLanguage(req, i.request);
  const form = { interaction: moved.handle, csrf: ensureCsrf(r, req, reply), target: i.request.target, language };
  return sendRendered(reply, lastRecoveryCodePage(form));
}
