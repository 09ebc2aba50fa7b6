// The user's own view of their sign-ins (issue 38, item 5): where they are signed in (the live SSO
// sessions, each with its browser, when it began and was last used, the one asking marked), ending one
// of them or all the others (their refresh and access tokens stop, their clients get a back-channel
// logout token), and their recent security events read from the audit trail. The hosted account page
// and the JSON API (`/identity/v1/me/...`) both call these.
import type { SessionService } from '../accounts/sessions.js';
import type { ClientService } from '../clients/service.js';
import type { AccountSettings } from '../config/types.js';
import type { Clock } from '../lib/clock.js';
import { sha256 } from '../lib/secrets.js';
import { parseUserAgent } from '../lib/user-agent.js';
import { endSessionEverywhere, endSessionsOfUser } from '../logout/backchannel.js';
import type { Repos, Storage } from '../storage/storage.js';
import type { Language } from '../errors/ward-error.js';
import type { Place, Places } from './places.js';

export interface SignInsDeps {
  account: () => AccountSettings;
  clients: ClientService;
  clock: Clock;
  sessions: SessionService;
  storage: Storage;
  /** The back-channel logout loop, woken when deliveries were queued. */
  logoutDelivery?: { kick(): void };
  /** The approximate place of an address (a local GeoIP database, places.ts); absent: none. */
  places?: Places;
}

export interface SessionView {
  /** The session's name in this list: derived from the stored digest, it opens nothing. */
  id: string;
  browser: string | null;
  os: string | null;
  createdAt: number;
  lastUsedAt: number;
  /** How the user signed in (RFC 8176 values). */
  amr: string[];
  /** The session of the page, or of the access token, asking. */
  current: boolean;
  /** The approximate place it signed in from, when a local GeoIP database is configured; else null. */
  place: Place | null;
}

export interface SecurityEventView {
  /** The audit action ('login.succeeded', 'account.password_changed', ...). */
  type: string;
  at: number;
  ip: string | null;
  /** 'user' when the user did it, 'administrator' when it was done to their account. */
  by: 'user' | 'administrator';
  /** The sign-in method, or the factor type, when the event names one. */
  detail: string | null;
}

/**
 * The events the user is shown: sign-ins, factor and password changes, sessions ended. Refusals and
 * codes sent are left out: they say nothing the user did and would drown the rest.
 */
export const SECURITY_EVENT_ACTIONS: readonly string[] = [
  'login.succeeded',
  'login.locked',
  'passkey.login',
  'account.password_changed',
  'account.password_reset',
  'account.recovered',
  'account.email_changed',
  'account.phone_changed',
  'mfa.credential_added',
  'mfa.credential_removed',
  'mfa.factor_added',
  'mfa.factor_removed',
  'mfa.recovery_code_used',
  'mfa.recovery_codes_generated',
  'passkey.added',
  'passkey.removed',
  'session.ended',
  'sessions.others_ended',
  'user.factor_removed',
  'user.passkey_removed',
  'user.factors_reset',
  'user.password_reset',
  'user.sessions_revoked',
];

/** A session's id in the list: not its digest (a key of the sessions table), a name derived from it. */
export const sessionRef = (idDigest: string): string => sha256(`session-ref:${idDigest}`).slice(0, 32);

/**
 * The user's live sessions, the most recently used first; `current`: the asking session's digest; the
 * places named in `language`.
 */
export async function listSessions(
  d: SignInsDeps,
  userId: string,
  current: string | null,
  language: Language = 'en',
): Promise<SessionView[]> {
  const rows = await d.storage.sessions.listLiveOfUser(userId, d.clock.now(), d.account().session_idle_ttl * 1000);
  const places = await Promise.all(rows.map((row) => d.places?.of(row.ip, language) ?? null));
  return rows.map((row, i) => ({
    id: sessionRef(row.id_digest),
    ...parseUserAgent(row.user_agent),
    createdAt: row.created_at,
    lastUsedAt: row.last_seen_at,
    amr: JSON.parse(row.amr) as string[],
    current: row.id_digest === current,
    place: places[i] ?? null,
  }));
}

/**
 * Ends one live session of the user, named by its id in the list, with every grant issued in it; its
 * clients get a logout token. False when the user has no such live session (another user's is not found).
 */
export async function endOneSession(d: SignInsDeps, userId: string, ref: string): Promise<boolean> {
  const rows = await d.storage.sessions.listLiveOfUser(userId, d.clock.now(), d.account().session_idle_ttl * 1000);
  const row = rows.find((r) => sessionRef(r.id_digest) === ref);
  if (!row) return false;
  await endSessionEverywhere({ ...d, delivery: d.logoutDelivery }, { id: row.id_digest, userId });
  return true;
}

/**
 * "Sign out everywhere else": every other session of the user ends with its grants, but the asking
 * session and the grants issued in it (and `grant`, the asking access token's, when there is one).
 */
export function endOtherSessions(
  d: SignInsDeps,
  userId: string,
  keep: { session: string | null; grant?: string | null },
  /** What must be written with the sessions' end, in its transaction (its webhook event). */
  within?: (tx: Repos, ended: { sessions: number; grants: number }) => Promise<void>,
): Promise<{ sessions: number; grants: number }> {
  return endSessionsOfUser(
    { ...d, delivery: d.logoutDelivery },
    userId,
    { session: keep.session, grant: keep.grant ?? null },
    within,
  );
}

const detailOf = (details: string): string | null => {
  try {
    const d = JSON.parse(details) as Record<string, unknown>;
    const v = d.method ?? d.type ?? d.provider;
    return typeof v === 'string' ? v.slice(0, 40) : null;
  } catch {
    return null;
  }
};

/** The user's latest security events (at most `limit`), the newest first. */
export async function recentSecurityEvents(
  d: Pick<SignInsDeps, 'storage'>,
  userId: string,
  limit = 20,
): Promise<SecurityEventView[]> {
  const rows = await d.storage.audit.listAboutUser(userId, SECURITY_EVENT_ACTIONS, limit);
  return rows.map((e) => ({
    type: e.action,
    at: e.at,
    ip: e.ip,
    by: e.actor_type === 'user' && e.actor_id === userId ? 'user' : 'administrator',
    detail: detailOf(e.details),
  }));
}
