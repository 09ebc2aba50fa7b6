// The sign-in in progress (one stored interaction): /oauth/authorize validates the request once and,
// when the sign-in must go on beyond that request (a page, a provider, a second factor), stores it.
// Every later step (a hosted form, a provider's callback, a step-up) continues it by id; nothing
// re-parses the query string. A hosted interaction is bound to one browser by a cookie.
import type { Client } from '../clients/service.js';
import type { Clock } from '../lib/clock.js';
import { randomToken } from '../lib/random.js';
import { safeEqual, sha256 } from '../lib/secrets.js';
import type { AuthorizeRequest } from '../protocol/authorize/request.js';
import type { InteractionProgress, InteractionRow } from '../storage/sql/interactions.js';
import type { Repos } from '../storage/storage.js';
import { restoreRequest, storeRequest } from './stored-request.js';

/** Where a sign-in stands: what the user is asked for next. */
export type Step =
  | 'login'
  | 'mfa'
  | 'confirm'
  | 'link'
  | 'social'
  | 'stepup'
  | 'passwordless'
  | 'tkn'
  | 'consent'
  /** A required second factor to set up (interaction/enrolment.ts). */
  | 'enrol'
  /** The second factor done (or the enrolment), a page between it and the code (new recovery codes). */
  | 'factor_done'
  /** Consents to accept again (interaction/reconsent.ts): after a sign-in, or before an SSO session answers. */
  | 'reconsent'
  | 'reconsent_session';

export interface Interaction {
  /** The key it is stored under (SHA-256 of its handle). */
  digest: string;
  request: AuthorizeRequest;
  step: Step;
  userId: string | null;
  amr: string[] | null;
  authTime: number | null;
}

export interface InteractionDeps {
  interactions: Repos['interactions'];
  clock: Clock;
  findClient(id: string): Promise<Client | undefined>;
  /** Told the id (digest) of each interaction a request works on (a trace attribute; never the handle). */
  seen?: (digest: string) => void;
}

/** A hosted sign-in may sit on a page this long; an API step-up lives as long as its token. */
const HOSTED_TTL_MS = 30 * 60_000;

export function createInteractionService(deps: InteractionDeps) {
  const { interactions, clock } = deps;

  async function restore(row: InteractionRow): Promise<Interaction | null> {
    deps.seen?.(row.digest);
    const client = await deps.findClient(row.client_id);
    if (!client) return null;
    return {
      digest: row.digest,
      request: restoreRequest(row.request, client),
      step: row.step as Step,
      userId: row.user_id,
      amr: row.amr === null ? null : (JSON.parse(row.amr) as string[]),
      authTime: row.auth_time,
    };
  }

  /**
   * A request to store once something else has been granted (an API step-up stores it only after
   * the step-up itself was accepted, so a refused one leaves nothing behind). Not bound to a browser.
   */
  function prepare(request: AuthorizeRequest, step: Step, browser: string | null, ttlMs: number) {
    const handle = randomToken(32);
    const digest = sha256(handle);
    const now = clock.now();
    /** The row to store (by `save`, or by a repository that stores it with what it depends on). */
    const row: InteractionRow = {
      digest,
      client_id: request.client.client_id,
      request: storeRequest(request),
      browser: browser === null ? null : sha256(browser),
      step,
      user_id: null,
      amr: null,
      auth_time: null,
      created_at: now,
      expires_at: now + ttlMs,
    };
    return {
      digest,
      row,
      save: async (): Promise<Interaction> => {
        await interactions.insert(row);
        deps.seen?.(digest);
        return { digest, request, step, userId: null, amr: null, authTime: null };
      },
      handle,
    };
  }

  return {
    prepare,

    /**
     * A row a repository read with what ended it (an API step-up's interaction, ended by the consume of
     * its token, `stepUps.consumeWithInteraction`): for a caller that completes it whatever follows
     * (afterSecondFactor, taken).
     */
    restore,

    /**
     * Stores a validated request. `browser` is the binding cookie's value (null for an API step-up,
     * which its token binds instead). Answers the handle the forms post and the stored interaction.
     */
    async start(
      request: AuthorizeRequest,
      step: Step,
      browser: string | null,
      ttlMs = HOSTED_TTL_MS,
    ): Promise<{ handle: string; interaction: Interaction }> {
      const pending = prepare(request, step, browser, ttlMs);
      return { handle: pending.handle, interaction: await pending.save() };
    },

    /** The live interaction a form posted, if the posting browser is the one it is bound to. */
    async open(handle: unknown, browser: string | undefined): Promise<Interaction | null> {
      if (typeof handle !== 'string' || handle.length > 100 || !browser || browser.length > 100) return null;
      const row = await interactions.findLive(sha256(handle), clock.now());
      if (!row || row.browser === null || !safeEqual(row.browser, sha256(browser))) return null;
      return restore(row);
    },

    /** Whether a live interaction is bound to the browser of this pre-login cookie. */
    async boundTo(i: Interaction, browser: string | undefined): Promise<boolean> {
      if (!browser || browser.length > 100) return false;
      const row = await interactions.findLive(i.digest, clock.now());
      return !!row && row.browser !== null && safeEqual(row.browser, sha256(browser));
    },

    /** The live interaction a step-up token, a social state or a pending link refers to. */
    async byDigest(digest: string | null | undefined): Promise<Interaction | null> {
      if (!digest) return null;
      const row = await interactions.findLive(digest, clock.now());
      return row ? restore(row) : null;
    },

    /**
     * Records who the user is and how far the sign-in got, under a new handle (the old one stops
     * working); null when the interaction has ended meanwhile.
     */
    async advance(
      i: Interaction,
      step: Step,
      who: { userId: string; amr: string[]; authTime: number },
    ): Promise<{ handle: string; interaction: Interaction } | null> {
      const handle = randomToken(32);
      const digest = sha256(handle);
      const progress: InteractionProgress = {
        step,
        user_id: who.userId,
        amr: JSON.stringify(who.amr),
        auth_time: who.authTime,
      };
      if (!(await interactions.advance(i.digest, digest, progress, clock.now()))) return null;
      return { handle, interaction: { ...i, digest, step, userId: who.userId, amr: who.amr, authTime: who.authTime } };
    },

    /** Ends it: true for exactly one caller (a form posted twice completes once). */
    finish: (i: Interaction): Promise<boolean> => interactions.finish(i.digest, clock.now()),
  };
}

export type InteractionService = ReturnType<typeof createInteractionService>;
