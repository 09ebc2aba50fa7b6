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
  /** The Origin of the browser call that minted it (src/http/tkn-binding.ts). */
  origin?: string;
  /** SHA-256 of the pre-login cookie of that browser. */
  browser?: string;
}

export type TknResult = { ok: true; userId: string; clientId: string; payload: TknPayload } | { ok: false };

/** What the before.login hooks are told of a first factor just passed (before any next step). */
export interface LoginAttempt {
  userId: string;
  clientId: string;
  amr: string[];
  /** The sign-in method, when the caller knows it (else the hooks read amr). */
  method?: string;
}

/** The before.login hooks (hooks/): a throw refuses the sign-in. */
export type BeforeLogin = (attempt: LoginAttempt) => Promise<void>;

/** A custom token lives about a minute: long enough for a backend to hand it to its app. */
export const CUSTOM_TOKEN_TTL_SECONDS = 60;

/**
 * The one-time sign-in tokens, each kind its own (a value minted as one kind never redeems as the
 * other): the `tkn` of password login and signup, and the custom token a backend mints through the
 * management API for a user it has authenticated itself. Short-lived, single use, for one client.
 */
export function createTknService(deps: {
  storage: Storage;
  clock: Clock;
  ttl: () => number;
  /**
   * The before.login hooks: a tkn is the proof of the SDK's first factors (password, passkey, signup),
   * so they are asked before one is minted; its redemption at /oauth/authorize does not ask again.
   */
  beforeLogin?: BeforeLogin;
}) {
  async function mint(kind: string, userId: string, clientId: string, payload: object, ttlSeconds: number) {
    const token = randomToken(32);
    const now = deps.clock.now();
    await deps.storage.oneTime.insert({
      digest: sha256(token),
      kind,
      user_id: userId,
      client_id: clientId,
      payload: JSON.stringify(payload),
      expires_at: now + ttlSeconds * 1000,
      consumed_at: null,
      created_at: now,
    });
    return token;
  }

  /** Exactly one use, before its expiry, by the client it was minted for. */
  async function take(kind: string, token: unknown, clientId: string) {
    if (typeof token !== 'string' || token.length < 20 || token.length > 100) return null;
    const now = deps.clock.now();
    const r = await deps.storage.oneTime.consume(kind, sha256(token), now);
    if (r.state !== 'ok' || r.row.expires_at <= now || r.row.client_id !== clientId) return null;
    return r.row;
  }

  return {
    async issue(userId: string, clientId: string, payload: TknPayload): Promise<string> {
      await deps.beforeLogin?.({ userId, clientId, amr: payload.amr });
      return mint('tkn', userId, clientId, payload, deps.ttl());
    },
    /** Consumes a tkn for a client. */
    async consume(tkn: unknown, clientId: string): Promise<TknResult> {
      const row = await take('tkn', tkn, clientId);
      if (!row) return { ok: false };
      return { ok: true, userId: row.user_id, clientId: row.client_id, payload: JSON.parse(row.payload) as TknPayload };
    },
    /** A custom token for a user and a client (the management API mints it). */
    issueCustom: (userId: string, clientId: string): Promise<string> =>
      mint('custom_token', userId, clientId, {}, CUSTOM_TOKEN_TTL_SECONDS),
    /** Consumes a custom token for a client: its user, or null. */
    async consumeCustom(token: unknown, clientId: string): Promise<string | null> {
      return (await take('custom_token', token, clientId))?.user_id ?? null;
    },
  };
}

export type TknService = ReturnType<typeof createTknService>;
