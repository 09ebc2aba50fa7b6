import type { Clock } from '../lib/clock.js';
import { randomToken } from '../lib/random.js';
import { sha256 } from '../lib/secrets.js';
import type { Storage } from '../storage/storage.js';

/** What a tkn carries: who logged in, for which client, how, and whether a step-up is still owed. */
export interface TknPayload {
  scope: string;
  amr: string[];
  auth_time: number;
  mfa_pending: boolean;
}

export type TknResult = { ok: true; userId: string; clientId: string; payload: TknPayload } | { ok: false };

/** The one-time authentication token (`tkn`) of password login and signup: short-lived, single use. */
export function createTknService(deps: { storage: Storage; clock: Clock; ttl: () => number }) {
  return {
    async issue(userId: string, clientId: string, payload: TknPayload): Promise<string> {
      const tkn = randomToken(32);
      const now = deps.clock.now();
      await deps.storage.oneTime.insert({
        digest: sha256(tkn),
        kind: 'tkn',
        user_id: userId,
        client_id: clientId,
        payload: JSON.stringify(payload),
        expires_at: now + deps.ttl() * 1000,
        consumed_at: null,
        created_at: now,
      });
      return tkn;
    },
    /** Consumes a tkn for a client: exactly one use, before its expiry, by the client it was minted for. */
    async consume(tkn: unknown, clientId: string): Promise<TknResult> {
      if (typeof tkn !== 'string' || tkn.length < 20 || tkn.length > 100) return { ok: false };
      const now = deps.clock.now();
      const r = await deps.storage.oneTime.consume('tkn', sha256(tkn), now);
      if (r.state !== 'ok' || r.row.expires_at <= now || r.row.client_id !== clientId) return { ok: false };
      return {
        ok: true,
        userId: r.row.user_id,
        clientId: r.row.client_id,
        payload: JSON.parse(r.row.payload) as TknPayload,
      };
    },
  };
}

export type TknService = ReturnType<typeof createTknService>;
