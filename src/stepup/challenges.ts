// Verification codes (NIST 800-63B 5.1.3.2, ASVS 6.5/6.6, Kratos's persister_code.go pattern):
// N digits from crypto.randomInt; stored only as an HMAC bound to the challenge id; a new code
// supersedes the previous one; each attempt is counted by its own atomic UPDATE before the
// compare, so after max_attempts even the right code is refused; a challenge is used once; a user
// who keeps failing across challenges is locked out for the window. Every code sent, for a step-up
// or a factor registration, counts against the user's codes per window (and a registration also
// against its destination's); limit 0 sends none.
import type { AccountSettings } from '../config/types.js';
import { WardError } from '../errors/ward-error.js';
import { rateLimited } from '../errors/refusals.js';
import type { Clock } from '../lib/clock.js';
import { randomDigits, randomToken } from '../lib/random.js';
import { hmac, safeEqual, sha256 } from '../lib/secrets.js';
import type { Repos, Storage } from '../storage/storage.js';
import type { ChallengeRow } from '../storage/sql/mfa.js';
import type { SecurityEvents } from '../audit/events.js';

export type Channel = 'email' | 'sms';

export interface CodeSender {
  sendCode(input: {
    channel: Channel;
    to: string;
    purpose: 'stepup' | 'register';
    code: string;
    ttlSeconds: number;
    locale?: string;
  }): Promise<void>;
}

export interface StartInput {
  userId: string;
  purpose: 'stepup' | 'register';
  stepUpDigest?: string;
  credentialId?: string;
  channel: Channel;
  destination: string;
  locale?: string;
  /** What a factor registration is for (`action` of the Core SDK's registration calls): audited only. */
  action?: string;
}

/** A stored challenge whose code is still to be sent. */
interface Issued {
  input: StartInput;
  id: string;
  code: string;
  ttlSeconds: number;
}

export const codesDisabled = () => new WardError('codesDisabled');

export function createVerificationService(deps: {
  storage: Storage;
  masterKey: Buffer;
  clock: Clock;
  account: () => AccountSettings;
  sender: CodeSender;
  log: import('pino').Logger;
  events: SecurityEvents;
}) {
  const { storage, masterKey, clock, account } = deps;
  const codeMac = (challengeId: string, code: string) => hmac(masterKey, `verification-code:${challengeId}:${code}`);
  const failureWindow = () => {
    const w = account().verification_failures_per_user.window_seconds * 1000;
    return Math.floor(clock.now() / w) * w;
  };
  const FAILURES = 'mfa-failures:';
  const failureBucket = (userId: string) => `${FAILURES}${userId}`;

  /**
   * Counts one code against the user's limit per window, and a registration's also against its
   * destination (an address the request chose: nobody may flood one phone from many accounts).
   * Counted before sending, atomically, so parallel requests cannot overshoot.
   */
  async function admit(input: StartInput, counters: Repos['counters'] = storage.counters): Promise<void> {
    const { limit, window_seconds } = account().verification_requests_per_user;
    if (limit === 0) throw codesDisabled();
    const now = clock.now();
    const w = window_seconds * 1000;
    const windowStart = Math.floor(now / w) * w;
    const refuse = async (scope: string) => {
      await deps.events.emit(
        'mfa.limit_reached',
        { user_id: input.userId, purpose: input.purpose, scope },
        'verification code limit reached',
        'warn',
      );
      return rateLimited((windowStart + w - now) / 1000);
    };
    if ((await counters.hit(`mfa-requests:${input.userId}`, windowStart, windowStart + w)) > limit)
      throw await refuse('user');
    if (input.purpose === 'register') {
      const to = `mfa-requests-to:${sha256(`${input.channel}:${input.destination}`)}`;
      if ((await counters.hit(to, windowStart, windowStart + w)) > limit) throw await refuse('destination');
    }
  }

  /**
   * A new challenge with a fresh code, in the caller's transaction (which holds the lock: issue, startStepUp); the
   * previous code stops working.
   */
  async function store(tx: Repos, input: StartInput): Promise<Issued> {
    const settings = account();
    const id = randomToken(24);
    const code = randomDigits(settings.verification_code_length);
    const now = clock.now();
    const row: ChallengeRow = {
      id,
      user_id: input.userId,
      purpose: input.purpose,
      step_up_digest: input.stepUpDigest ?? null,
      credential_id: input.credentialId ?? null,
      channel: input.channel,
      destination: input.destination,
      code_hmac: codeMac(id, code),
      attempts: 0,
      max_attempts: settings.verification_max_attempts,
      created_at: now,
      expires_at: now + settings.verification_code_ttl * 1000,
      consumed_at: null,
      superseded_at: null,
    };
    if (input.stepUpDigest) await tx.challenges.supersedeStepUp(input.stepUpDigest, now);
    else await tx.challenges.supersedeRegistrations(input.userId, input.channel, now);
    await tx.challenges.insert(row);
    return { input, id, code, ttlSeconds: settings.verification_code_ttl };
  }

  /** Sends a stored challenge's code to its destination. */
  async function deliver({ input, id, code, ttlSeconds }: Issued): Promise<string> {
    try {
      await deps.sender.sendCode({
        channel: input.channel,
        to: input.destination,
        purpose: input.purpose,
        code,
        ttlSeconds,
        locale: input.locale,
      });
    } catch (e) {
      // Nothing was delivered: this challenge is dead too, so no code is valid that nobody received.
      await storage.challenges.supersede(id, clock.now());
      await deps.events.emit(
        'mfa.delivery_failed',
        { channel: input.channel, err: { message: (e as Error).message } },
        'verification code delivery failed',
        'error',
      );
      throw new WardError('deliveryFailed', {
        description: `The ${input.channel === 'sms' ? 'SMS' : 'email'} could not be sent; try again later`,
      });
    }
    await deps.events.emit(
      'mfa.code_sent',
      {
        purpose: input.purpose,
        channel: input.channel,
        user_id: input.userId,
        ...(input.action ? { action: input.action } : {}),
      },
      'verification code sent',
    );
    return id;
  }

  /**
   * A factor registration's challenge with a fresh code, sent to the destination; the previous code
   * stops working. (A step-up's goes through startStepUp, whose claim takes the lock.)
   */
  async function issue(input: StartInput & { purpose: 'register' }): Promise<string> {
    return deliver(
      await storage.transaction(async (tx) => {
        // One writer at a time per user: parallel resends on PostgreSQL would otherwise each miss
        // the others' uncommitted rows and leave several live codes.
        await tx.challenges.lockUser(input.userId);
        return store(tx, input);
      }),
    );
  }

  return {
    admit,
    issue,

    /**
     * A step-up's code in one transaction: `claim` counts the request on the step_up token with the
     * UPDATE that also locks the token's row (the lock of issue) and names the user and destination;
     * then the user's limit is counted and the challenge stored. A refusal (a WardError) commits the
     * counts made before it, as when each count was its own statement.
     */
    async startStepUp(
      input: { stepUpDigest: string; channel: Channel; locale?: string },
      claim: (tx: Repos) => Promise<{ userId: string; destination: string }>,
    ): Promise<string> {
      const out = await storage.transaction(async (tx): Promise<Issued | { refused: WardError }> => {
        try {
          const full: StartInput = { ...input, purpose: 'stepup', ...(await claim(tx)) };
          await admit(full, tx.counters);
          return await store(tx, full);
        } catch (e) {
          if (e instanceof WardError) return { refused: e };
          throw e;
        }
      });
      if ('refused' in out) throw out.refused;
      return deliver(out);
    },

    /**
     * Checks a code: the attempt is counted first (atomically), then the code is compared in
     * constant time, then the challenge is consumed by exactly one caller. Every refusal looks the same.
     */
    async verify(
      challengeId: unknown,
      code: unknown,
      purpose: 'stepup' | 'register',
      userId?: string,
    ): Promise<ChallengeRow> {
      // A challenge id is base64url: anything else (a NUL, which PostgreSQL cannot compare) is simply wrong.
      if (
        typeof challengeId !== 'string' ||
        !/^[A-Za-z0-9_-]{1,64}$/.test(challengeId) ||
        typeof code !== 'string' ||
        code.length > 16
      )
        throw new WardError('invalidVerificationCode');
      const row = await storage.challenges.countAttempt(challengeId, FAILURES, failureWindow());
      const now = clock.now();
      if (!row || row.purpose !== purpose || (userId !== undefined && row.user_id !== userId))
        throw new WardError('invalidVerificationCode');
      const limit = account().verification_failures_per_user;
      if (row.failures >= limit.limit) {
        const w = limit.window_seconds * 1000;
        throw rateLimited((failureWindow() + w - now) / 1000);
      }
      const usable =
        row.consumed_at === null &&
        row.superseded_at === null &&
        row.expires_at > now &&
        row.attempts <= row.max_attempts;
      const right = safeEqual(codeMac(row.id, code), row.code_hmac);
      if (!usable || !right) {
        if (!right) {
          const w = limit.window_seconds * 1000;
          await storage.counters.hit(failureBucket(row.user_id), failureWindow(), failureWindow() + w);
        }
        await deps.events.emit(
          'mfa.verification_failed',
          { user_id: row.user_id, attempts: row.attempts, reason: !usable ? 'unusable' : 'wrong' },
          'verification failed',
        );
        throw new WardError('invalidVerificationCode');
      }
      if (!(await storage.challenges.consume(row.id, now))) throw new WardError('invalidVerificationCode');
      await deps.events.emit(
        'mfa.verified',
        { user_id: row.user_id, channel: row.channel, purpose },
        'verification code accepted',
      );
      return row;
    },
  };
}

export type VerificationService = ReturnType<typeof createVerificationService>;
