// The step-up flow: /mfa/stepup binds an authorization request to a step_up token; each
// /passwordless/start sends a new code to a registered factor (limits per token and per user);
// /passwordless/verify checks the code, uses the step_up token up, and authorizes the bound request
// with amr containing mfa and the factor.
import { WardError } from '../errors/ward-error.js';
import { invalidRequest, invalidToken, rateLimited } from '../errors/refusals.js';
import { randomToken } from '../lib/random.js';
import { sha256 } from '../lib/secrets.js';
import type { User } from '../storage/sql/users.js';
import type { InteractionRow } from '../storage/sql/interactions.js';
import type { StepUpRow } from '../storage/sql/mfa.js';
import { codesDisabled, type Channel, type VerificationService } from './challenges.js';
import { steppedUpAmr, verifiedFactors } from './factors.js';
import type { StrongFactorType, StrongFactors } from './strong-factors.js';
import type { AuthenticationResponseJSON } from '@simplewebauthn/server';
import type { UserService } from '../accounts/users.js';
import type { SecurityEvents } from '../audit/events.js';
import type { AccountSettings } from '../config/types.js';
import type { Clock } from '../lib/clock.js';
import type { Storage, Repos } from '../storage/storage.js';

/** The services this module uses (registry.ts builds them; the composition passes them in). */
export interface StepUpDeps {
  account: () => AccountSettings;
  clock: Clock;
  events: SecurityEvents;
  storage: Storage;
  users: UserService;
}

export interface StepUpFinish {
  user: User;
  clientId: string;
  /** The interaction the step-up continues (interaction/service.ts); null for the account page's. */
  interactionDigest: string | null;
  amr: string[];
  channel: SecondFactorType;
  /** The action the step-up was asked for (`action` of /identity/v1/mfa/stepup); null: none. */
  action: string | null;
  /** A recovery code answered: the codes left (0: the user should make a new set, docs/mfa.md). */
  recoveryCodesLeft?: number;
}

/** Every second factor a step-up may be answered with (the `factors` of its answer). */
export type SecondFactorType = Channel | StrongFactorType | 'webauthn';

/**
 * What a step-up needs of the passkeys (passkeys/service.ts) to be answered by a registered security
 * key or passkey: options bound to the step-up token's digest, and their assertion's verification.
 */
export interface SecondFactorKeys {
  secondFactorOptions(
    userId: string,
    bound: { clientId: string; origin: unknown; stepUpDigest: string },
  ): Promise<Record<string, unknown>>;
  verifySecondFactor(
    response: AuthenticationResponseJSON,
    stepUpDigest: string,
  ): Promise<{ userId: string; hardware: boolean }>;
}

const CHANNELS: Channel[] = ['email', 'sms'];

/** The action a step-up row was begun for (its `params`), or null. */
function actionOf(params: string | null): string | null {
  if (!params) return null;
  const { action } = JSON.parse(params) as { action?: unknown };
  return typeof action === 'string' && action ? action : null;
}

export function createStepUpService(
  r: StepUpDeps,
  verification: VerificationService,
  strong: Pick<StrongFactors, 'verify' | 'verifyKey'>,
  keys: SecondFactorKeys,
) {
  /**
   * Why a step_up token gets no code (after claimRequest counted nothing): the checks one by one,
   * in the order their answers rank. Returns when all pass.
   */
  async function refuseCode(repos: Repos, digest: string, now: number, authType: Channel): Promise<void> {
    const stepUp = await repos.stepUps.findLive(digest, now);
    if (!stepUp) throw new WardError('invalidStepUp');
    // A user disabled since the step-up began gets nothing, and the answer says no more than for an unknown token
    // (PL-13).
    const user = await repos.users.findById(stepUp.user_id);
    if (!user || user.disabled) throw new WardError('invalidStepUp');
    // Only to a factor already registered and verified: never to an address in the request.
    if (!(await verifiedFactors(repos, stepUp.user_id)).some((f) => f.type === authType)) {
      throw new WardError('noSecondFactor', { description: `This user has no verified ${authType} factor` });
    }
  }

  /** Checks the code, then uses the token up with `consume`, which reads its user (and maybe more: `row`). */
  async function finishWith<T extends StepUpRow & { user: User | undefined }>(
    challengeId: unknown,
    code: unknown,
    consume: (digest: string, now: number) => Promise<T | undefined>,
  ): Promise<{ done: StepUpFinish; row: T }> {
    const challenge = await verification.verify(challengeId, code, 'stepup');
    const now = r.clock.now();
    const row = challenge.step_up_digest ? await consume(challenge.step_up_digest, now) : undefined;
    if (!row || row.expires_at <= now) throw new WardError('invalidStepUp');
    const { user } = row;
    if (!user || user.disabled) throw new WardError('invalidStepUp');
    return finished(row, user, challenge.channel as Channel);
  }

  async function finished<T extends StepUpRow>(row: T, user: User, channel: SecondFactorType, key?: 'hwk' | 'swk') {
    const action = actionOf(row.params);
    await r.events.emit(
      'mfa.stepup_verified',
      { user_id: user.id, client_id: row.client_id, channel, ...(action ? { action } : {}) },
      'step-up verified',
    );
    // The factor the hosted page preselects next time (a recovery code is a fallback, never preselected).
    if (channel !== 'recovery_code') await r.storage.lastFactors.record(user.id, channel, r.clock.now());
    const amr = steppedUpAmr(JSON.parse(row.base_amr) as string[], channel === 'webauthn' ? (key ?? 'swk') : channel);
    const done: StepUpFinish = {
      user,
      clientId: row.client_id,
      interactionDigest: row.interaction_digest,
      amr,
      channel,
      action,
    };
    return { done, row };
  }

  /** The live step-up of a token and its enabled user, or invalidStepUp. */
  async function liveStepUp(stepUpToken: unknown): Promise<{ digest: string; live: StepUpRow; user: User }> {
    if (typeof stepUpToken !== 'string' || stepUpToken.length > 100) throw new WardError('invalidStepUp');
    const digest = sha256(stepUpToken);
    const live = await r.storage.stepUps.findLive(digest, r.clock.now());
    if (!live) throw new WardError('invalidStepUp');
    const user = await r.users.find(live.user_id);
    if (!user || user.disabled) throw new WardError('invalidStepUp');
    return { digest, live, user };
  }

  /**
   * Checks what the user holds with `check` (an authenticator app's code or a recovery code,
   * strong-factors.ts; a security key's assertion: attempts counted on this token), then uses the
   * token up with `consume` (as finishWith).
   */
  async function finishWithHeld<T extends StepUpRow & { user: User | undefined }>(
    stepUpToken: unknown,
    consume: (digest: string, now: number) => Promise<T | undefined>,
    check: (
      user: User,
      digest: string,
    ) => Promise<{ channel: SecondFactorType; key?: 'hwk' | 'swk'; recoveryCodesLeft?: number }>,
  ): Promise<{ done: StepUpFinish; row: T }> {
    const { digest, user } = await liveStepUp(stepUpToken);
    const { channel, key, recoveryCodesLeft } = await check(user, digest);
    const now = r.clock.now();
    const row = await consume(digest, now);
    if (!row || row.expires_at <= now || !row.user || row.user.disabled) throw new WardError('invalidStepUp');
    const out = await finished(row, row.user, channel, key);
    if (recoveryCodesLeft !== undefined) out.done.recoveryCodesLeft = recoveryCodesLeft;
    return out;
  }

  const finishWithStrong = <T extends StepUpRow & { user: User | undefined }>(
    stepUpToken: unknown,
    type: StrongFactorType,
    code: unknown,
    consume: (digest: string, now: number) => Promise<T | undefined>,
    locale?: string,
  ) =>
    finishWithHeld(stepUpToken, consume, async (user, digest) => {
      const verified = await strong.verify(user, type, code, digest, locale);
      return { channel: type, recoveryCodesLeft: verified.recoveryCodesLeft };
    });

  /** A security key's (or passkey's) assertion of the step-up's user, counted like a code. */
  const finishWithKeyThen = <T extends StepUpRow & { user: User | undefined }>(
    stepUpToken: unknown,
    response: AuthenticationResponseJSON,
    consume: (digest: string, now: number) => Promise<T | undefined>,
  ) =>
    finishWithHeld(stepUpToken, consume, async (user, digest) => {
      let hardware = false;
      await strong.verifyKey(user.id, digest, async () => {
        const v = await keys.verifySecondFactor(response, digest);
        if (v.userId !== user.id) throw new WardError('passkeyNotVerified', { description: 'Not a key of this user' });
        hardware = v.hardware;
      });
      return { channel: 'webauthn', key: hardware ? 'hwk' : 'swk' };
    });

  return {
    /**
     * WebAuthn request options for a live step-up's user to answer it with one of their security keys
     * or passkeys (`origin`: the page's, one of the account's passkey origins).
     */
    async webAuthnOptions(stepUpToken: unknown, origin: unknown): Promise<Record<string, unknown>> {
      const { digest, live, user } = await liveStepUp(stepUpToken);
      return keys.secondFactorOptions(user.id, { clientId: live.client_id, origin, stepUpDigest: digest });
    },

    /** finish, answered by a security key's assertion. */
    async finishWithKey(stepUpToken: unknown, response: AuthenticationResponseJSON): Promise<StepUpFinish> {
      return (await finishWithKeyThen(stepUpToken, response, r.storage.stepUps.consumeWithUser)).done;
    },

    /** finishApiStepUp, answered by a security key's assertion. */
    async finishApiStepUpWithKey(
      stepUpToken: unknown,
      response: AuthenticationResponseJSON,
    ): Promise<StepUpFinish & { interaction: InteractionRow | undefined }> {
      const { done, row } = await finishWithKeyThen(stepUpToken, response, r.storage.stepUps.consumeWithInteraction);
      return { ...done, interaction: row.interaction };
    },

    /**
     * A step_up token for a user who has factors, continuing the stored interaction `interactionDigest`
     * (the authorization request is there, not copied here); answers the factor types as amr. A null
     * interaction continues no sign-in: the hosted account page's step-up (self-service/account-step-up.ts),
     * which no sign-in path can finish, since each looks its interaction up. `store`: the interaction's
     * row, not stored yet, stored with the token (and only if the token is granted).
     */
    async begin(
      user: Pick<User, 'id'>,
      bound: { clientId: string; interactionDigest: string | null; store?: InteractionRow },
      baseAmr: string[],
      action?: string,
    ): Promise<{ token: string; amr: string[]; factors: SecondFactorType[] }> {
      const token = randomToken(32);
      const now = r.clock.now();
      // Stored only for an enabled user with a verified factor (one statement); a refusal reads why, user first.
      const since = await r.storage.stepUps.insertForLiveUser(
        {
          digest: sha256(token),
          user_id: user.id,
          client_id: bound.clientId,
          params: JSON.stringify({ action }),
          base_amr: JSON.stringify(baseAmr),
          interaction_digest: bound.interactionDigest,
          requests: 0,
          created_at: now,
          expires_at: now + r.account().step_up_ttl * 1000,
          consumed_at: null,
        },
        bound.store,
      );
      if (!since) {
        const row = await r.users.find(user.id);
        if (!row || row.disabled) throw invalidToken();
        throw new WardError('noSecondFactor');
      }
      await r.events.emit(
        'mfa.stepup_started',
        { user_id: user.id, client_id: bound.clientId, ...(action ? { action } : {}) },
        'step-up started',
      );
      // The factor types in the order the user got them (a stable sort: email first on a tie).
      const amr = CHANNELS.filter((t) => since[t] !== null).sort((a, b) => since[a]! - since[b]!);
      // Every factor that answers it (a new field: amr keeps email/sms only, all the Core SDK knows),
      // the authenticator app first, recovery codes last.
      // A registered security key or passkey comes first, when passkeys are on and the user did not
      // sign in with one already (the same key twice is one factor).
      const keyed =
        r.account().passkeys.enabled &&
        !baseAmr.includes('webauthn') &&
        (await r.storage.passkeys.listOfUser(user.id)).length > 0;
      const factors: SecondFactorType[] = [
        ...(keyed ? (['webauthn'] as const) : []),
        ...(since.totp !== null ? (['totp'] as const) : []),
        ...amr,
        // Recovery codes come with an app, or with a key registered at a required enrolment.
        ...((since.totp !== null || keyed) && since.recovery > 0 ? (['recovery_code'] as const) : []),
      ];
      return { token, amr, factors };
    },

    /** Sends a new code for a step_up token to the user's registered factor of that type. */
    async requestCode(stepUpToken: unknown, authType: unknown, locale?: string): Promise<string> {
      if (typeof stepUpToken !== 'string' || stepUpToken.length > 100) throw new WardError('invalidStepUp');
      if (authType !== 'email' && authType !== 'sms')
        throw invalidRequest('auth_type must be email or sms', [
          { field: 'auth_type', message: 'must be email or sms', code: 'invalid' },
        ]);
      const digest = sha256(stepUpToken);
      const now = r.clock.now();
      const settings = r.account();
      if (settings.verification_requests_per_user.limit === 0 || settings.verification_requests_per_step_up === 0) {
        await refuseCode(r.storage, digest, now, authType);
        throw codesDisabled();
      }
      return verification.startStepUp({ stepUpDigest: digest, channel: authType, locale }, async (tx) => {
        const claim = await tx.stepUps.claimRequest(digest, now, authType);
        if (!claim) {
          await refuseCode(tx, digest, now, authType);
          throw new WardError('invalidStepUp');
        }
        // The token's own limit first: a request it refuses does not use up the user's codes for the window.
        if (claim.requests > settings.verification_requests_per_step_up) {
          await r.events.emit(
            'mfa.limit_reached',
            { user_id: claim.user_id, scope: 'step_up' },
            'verification code limit reached',
            'warn',
          );
          throw rateLimited((claim.expires_at - now) / 1000);
        }
        // The per-user limit (shared with factor registration) is counted by the verification service.
        return { userId: claim.user_id, destination: claim.destination };
      });
    },

    /** Verifies the code and uses the step_up token up; the caller continues its interaction. */
    async finish(challengeId: unknown, code: unknown): Promise<StepUpFinish> {
      return (await finishWith(challengeId, code, r.storage.stepUps.consumeWithUser)).done;
    },

    /** finish, answered by an authenticator app's code or a recovery code instead of a sent code. */
    async finishWithFactor(stepUpToken: unknown, type: StrongFactorType, code: unknown, locale?: string) {
      return (await finishWithStrong(stepUpToken, type, code, r.storage.stepUps.consumeWithUser, locale)).done;
    },

    /** finishApiStepUp, answered by an authenticator app's code or a recovery code. */
    async finishApiStepUpWithFactor(
      stepUpToken: unknown,
      type: StrongFactorType,
      code: unknown,
      locale?: string,
    ): Promise<StepUpFinish & { interaction: InteractionRow | undefined }> {
      const consume = r.storage.stepUps.consumeWithInteraction;
      const { done, row } = await finishWithStrong(stepUpToken, type, code, consume, locale);
      return { ...done, interaction: row.interaction };
    },

    /**
     * finish, and the live interaction of the API step-up the token continues, read with its consume:
     * the token was its only handle, so using it up ends it (exactly one caller gets it). `interaction`
     * is undefined when it has expired or when the token belongs to a hosted sign-in.
     */
    async finishApiStepUp(
      challengeId: unknown,
      code: unknown,
    ): Promise<StepUpFinish & { interaction: InteractionRow | undefined }> {
      const { done, row } = await finishWith(challengeId, code, r.storage.stepUps.consumeWithInteraction);
      return { ...done, interaction: row.interaction };
    },
  };
}

export type StepUpService = ReturnType<typeof createStepUpService>;
