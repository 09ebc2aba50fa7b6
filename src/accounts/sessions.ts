import type { AccountSettings } from '../config/types.js';
import type { Clock } from '../lib/clock.js';
import { randomToken } from '../lib/random.js';
import { sha256 } from '../lib/secrets.js';
import type { Repos, Storage } from '../storage/storage.js';
import type { SessionRow } from '../storage/sql/sessions.js';
import type { User } from '../storage/sql/users.js';

/**
 * The SSO cookie: __Host- prefix (Secure, Path=/, no Domain), HttpOnly, SameSite=None for the SDK's cross-site calls.
 */
export const SESSION_COOKIE = '__Host-ward_sso';

/**
 * The `sid` of a session in ID and logout tokens (Back-Channel Logout 1.0 section 2.1): stable for the
 * session's life, derived from the stored digest, so it reveals nothing of the cookie and needs no column.
 */
export const sidOf = (sessionId: string): string => sha256(`sid:${sessionId}`);

/** The longest User-Agent kept with a session (the rest says nothing a list of sessions shows). */
const USER_AGENT_MAX = 400;

export interface Session {
  id: string;
  userId: string;
  authTime: number;
  amr: string[];
}

/** SSO sessions: the cookie holds 256 random bits, the database only their SHA-256. */
/** How a new session begins. */
export interface NewSessionOptions {
  /** When the user authenticated (now, when not given). */
  authTime?: number;
  /**
   * The SSO cookie the browser sent with the login, if any: a re-authentication ends the session it
   * replaces (ASVS 7.2.4), with its grants too when another user signs in.
   */
  replaces?: string;
  /** Prepares what must be written with the end of another user's session (back-channel logouts). */
  whenOtherUserEnded?: (ended: { id: string; userId: string }) => Promise<(tx: Repos) => Promise<void>>;
  /**
   * The browser's User-Agent header, shown in the user's list of sessions (the replaced session passes on
   * its own when none is given: a step-up in the same browser).
   */
  userAgent?: string;
  /** The address it signs in from (an approximate place in that list, with a GeoIP database). */
  ip?: string;
}

export function createSessionService(deps: { storage: Storage; clock: Clock; account: () => AccountSettings }) {
  const { storage, clock, account } = deps;
  const toSession = (r: SessionRow): Session => ({
    id: r.id_digest,
    userId: r.user_id,
    authTime: r.auth_time,
    amr: JSON.parse(r.amr) as string[],
  });
  return {
    /** A new session (a new identifier at every login: no fixation). Returns the cookie value. */
    async create(
      userId: string,
      amr: string[],
      opts: NewSessionOptions = {},
    ): Promise<{ cookie: string; session: Session }> {
      const { authTime = clock.now(), replaces, whenOtherUserEnded, userAgent, ip } = opts;
      const cookie = randomToken(32);
      const now = clock.now();
      const row: SessionRow = {
        id_digest: sha256(cookie),
        user_id: userId,
        auth_time: authTime,
        amr: JSON.stringify(amr),
        created_at: now,
        last_seen_at: now,
        expires_at: now + account().session_ttl * 1000,
        revoked_at: null,
        user_agent: userAgent ? userAgent.slice(0, USER_AGENT_MAX) : null,
        ip: ip ? ip.slice(0, 64) : null,
      };
      const previous =
        replaces && replaces.length <= 100
          ? await storage.sessions.findLive(sha256(replaces), now, account().session_idle_ttl * 1000)
          : undefined;
      if (previous && row.user_agent === null) row.user_agent = previous.user_agent;
      if (previous && row.ip === null) row.ip = previous.ip;
      if (!previous) {
        await storage.sessions.create(row);
        return { cookie, session: toSession(row) };
      }
      const otherUser = previous.user_id !== userId;
      const alsoInTx =
        otherUser && whenOtherUserEnded
          ? await whenOtherUserEnded({ id: previous.id_digest, userId: previous.user_id })
          : undefined;
      await storage.transaction(async (tx) => {
        await tx.sessions.create(row);
        await tx.sessions.revoke(previous.id_digest, now);
        if (otherUser)
          for (const g of await tx.tokens.grantIdsOfSession(previous.id_digest)) await tx.tokens.revokeGrant(g, now);
        if (alsoInTx) await alsoInTx(tx);
      });
      return { cookie, session: toSession(row) };
    },
    /** The live session of an SSO cookie, with its user read in the same statement (undefined if gone). */
    async fromCookie(cookie: string | undefined): Promise<(Session & { user: User | undefined }) | undefined> {
      if (!cookie || cookie.length > 100) return undefined;
      const now = clock.now();
      const row = await storage.sessions.findLiveWithUser(sha256(cookie), now, account().session_idle_ttl * 1000);
      if (!row) return undefined;
      if (now - row.last_seen_at > 60_000) await storage.sessions.touch(row.id_digest, now);
      return { ...toSession(row), user: row.user };
    },
    /**
     * Ends a session and every grant (refresh tokens, access tokens) issued inside it; `alsoInTx`
     * writes in the same transaction what must happen with it (the back-channel logout deliveries).
     */
    async end(sessionId: string, alsoInTx?: (tx: Repos) => Promise<void>): Promise<void> {
      const now = clock.now();
      await storage.transaction(async (tx) => {
        await tx.sessions.revoke(sessionId, now);
        for (const g of await tx.tokens.grantIdsOfSession(sessionId)) await tx.tokens.revokeGrant(g, now);
        if (alsoInTx) await alsoInTx(tx);
      });
    },
  };
}

export type SessionService = ReturnType<typeof createSessionService>;
