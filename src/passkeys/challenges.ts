import { WardError } from '../errors/ward-error.js';
import type { Clock } from '../lib/clock.js';
import { sha256 } from '../lib/secrets.js';
import type { Storage } from '../storage/storage.js';

/** The ceremonies a challenge is minted for: a challenge of one is never accepted by another. */
/** `enrol`: a key registered at a required enrolment, bound to the sign-in in progress (its interaction). */
export type Ceremony = 'signup' | 'register' | 'login' | 'reset' | 'second_factor' | 'enrol';

/** What a challenge is bound to: who (null: not known yet), which client, and the ceremony's own data. */
export interface Bound<T> {
  userId: string | null;
  clientId: string;
  data: T;
}

const kind = (c: Ceremony) => `webauthn_${c}`;

/** Ceremony challenges: stored by digest in the single-use tokens, short-lived, consumed once. */
export function createChallengeStore(deps: { storage: Pick<Storage, 'oneTime'>; clock: Clock; ttl: () => number }) {
  return {
    async store<T>(ceremony: Ceremony, challenge: string, bound: Bound<T>): Promise<void> {
      const now = deps.clock.now();
      await deps.storage.oneTime.insert({
        digest: sha256(challenge),
        kind: kind(ceremony),
        user_id: bound.userId ?? '',
        client_id: bound.clientId,
        payload: JSON.stringify(bound.data),
        expires_at: now + deps.ttl() * 1000,
        consumed_at: null,
        created_at: now,
      });
    },
    /**
     * The challenge the browser signed (from clientDataJSON), consumed: exactly once, before it expires,
     * by the ceremony it was minted for. Anything else is a refusal.
     */
    async consume<T>(ceremony: Ceremony, clientDataJSON: string): Promise<Bound<T> & { challenge: string }> {
      // Loaded on the first ceremony (service.ts: the library is not loaded when the server starts).
      const { decodeClientDataJSON } = await import('@simplewebauthn/server/helpers');
      let challenge: string;
      try {
        challenge = decodeClientDataJSON(clientDataJSON).challenge;
      } catch {
        throw new WardError('passkeyNotVerified', { description: 'client_data_json is not valid' });
      }
      if (typeof challenge !== 'string' || challenge.length < 16 || challenge.length > 200)
        throw new WardError('passkeyChallenge');
      const now = deps.clock.now();
      const r = await deps.storage.oneTime.consume(kind(ceremony), sha256(challenge), now);
      if (r.state !== 'ok' || r.row.expires_at <= now) throw new WardError('passkeyChallenge');
      return {
        challenge,
        userId: r.row.user_id || null,
        clientId: r.row.client_id,
        data: JSON.parse(r.row.payload) as T,
      };
    },
  };
}

export type ChallengeStore = ReturnType<typeof createChallengeStore>;
