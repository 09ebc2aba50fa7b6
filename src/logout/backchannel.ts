// Back-Channel Logout 1.0: when an SSO session ends, each client that was given tokens inside it and
// registered a backchannel_logout_uri gets a logout_token POSTed to that URI. The deliveries are rows
// of a durable queue (storage `logoutDeliveries`), written in the transaction that ends the session,
// and sent by a loop of every server process: claimed safely when several processes run, retried with
// exponential backoff up to a bound, kept across restarts. Stopping the loop aborts what is in flight
// and hands the rows back, so a shutdown never waits for a slow relying party.
import type { Logger } from 'pino';
import { type SessionService, sidOf } from '../accounts/sessions.js';
import type { ClientService } from '../clients/service.js';
import type { KeyStore } from '../keys/key-store.js';
import type { Clock } from '../lib/clock.js';
import type { Outbound } from '../lib/outbound/client.js';
import { startQueueLoop } from '../lib/queue-loop.js';
import { randomId } from '../lib/random.js';
import type { Repos, Storage } from '../storage/storage.js';
import type { LogoutDeliveryRow } from '../storage/sql/logout-deliveries.js';
import { signLogoutToken } from './logout-token.js';

/** Attempts before a delivery is given up (the last one about an hour and a half after the first). */
export const MAX_ATTEMPTS = 10;
/** Delay before attempt n+1 after n failed: 10 s, 20 s, 40 s, ... at most 30 minutes. */
export const backoffMs = (attempts: number): number => Math.min(10_000 * 2 ** (attempts - 1), 30 * 60_000);
/** How long a claimed row stays with the process that claimed it (one attempt takes at most SEND_TIMEOUT_MS). */
const LEASE_MS = 60_000;
const SEND_TIMEOUT_MS = 10_000;
const BATCH = 20;

/** Which clients to tell about an ended session: those given tokens in it with a back-channel URI. */
export async function deliveriesFor(
  deps: { storage: Storage; clients: ClientService; clock: Clock },
  ended: { sessionId: string; userId: string },
): Promise<LogoutDeliveryRow[]> {
  const now = deps.clock.now();
  const rows: LogoutDeliveryRow[] = [];
  for (const id of await deps.storage.tokens.clientIdsOfSession(ended.sessionId)) {
    const client = await deps.clients.find(id);
    if (!client?.backchannel_logout_uri) continue;
    rows.push({
      id: randomId(),
      client_id: id,
      user_id: ended.userId,
      sid: sidOf(ended.sessionId),
      attempts: 0,
      next_attempt_at: now,
      last_error: null,
      created_at: now,
    });
  }
  return rows;
}

export interface BackchannelDeps {
  storage: Storage;
  clients: ClientService;
  clock: Clock;
  sessions: SessionService;
}

/**
 * Ends an SSO session (and its grants) and queues, in the same transaction, a logout_token for every
 * client that had it. Answers how many deliveries were queued.
 */
export async function endSessionEverywhere(
  deps: BackchannelDeps & { delivery?: { kick(): void } },
  session: { id: string; userId: string },
  /** What must be written with the session's end, in its transaction (its webhook event). */
  within?: (tx: Repos) => Promise<void>,
): Promise<number> {
  const rows = await deliveriesFor(deps, { sessionId: session.id, userId: session.userId });
  await deps.sessions.end(session.id, async (tx) => {
    await tx.logoutDeliveries.enqueue(rows);
    await within?.(tx);
  });
  if (rows.length) deps.delivery?.kick();
  return rows.length;
}

/**
 * The deliveries for every open session of a user but `except`, to be written by the caller in the
 * transaction that ends them ("sign out everywhere else", an operator ending a user's sessions). They are
 * listed just before that transaction: a session opened in between ends without a logout token, as one
 * opened just after would not be ended at all.
 */
export async function deliveriesForUser(
  deps: { storage: Storage; clients: ClientService; clock: Clock },
  userId: string,
  except: string | null = null,
): Promise<LogoutDeliveryRow[]> {
  const rows: LogoutDeliveryRow[] = [];
  for (const sessionId of await deps.storage.sessions.openIdsOfUser(userId, except))
    rows.push(...(await deliveriesFor(deps, { sessionId, userId })));
  return rows;
}

/**
 * Ends every open session of a user and revokes every grant (refresh and access tokens stop working
 * on every process at once), each client that had an ended session getting its logout token. `keep`:
 * the caller's grant (if any) and session stay, with that session's other grants (the same browser's
 * other apps). Answers how many sessions ended and grants were revoked.
 */
export async function endSessionsOfUser(
  deps: { storage: Storage; clients: ClientService; clock: Clock; delivery?: { kick(): void } },
  userId: string,
  keep?: { grant: string | null; session: string | null },
  /** What must be written with the sessions' end, in its transaction (its audit row and webhook event). */
  within?: (tx: Repos, ended: { sessions: number; grants: number }) => Promise<void>,
): Promise<{ sessions: number; grants: number }> {
  const keepSession = keep?.session ?? null;
  const logouts = await deliveriesForUser(deps, userId, keepSession);
  const now = deps.clock.now();
  const ended = await deps.storage.transaction(async (tx) => {
    await tx.logoutDeliveries.enqueue(logouts);
    const done = {
      sessions: await tx.sessions.revokeAllForUser(userId, now, keepSession),
      grants: await tx.tokens.revokeGrantsOfUser(userId, now, keep),
    };
    await within?.(tx, done);
    return done;
  });
  if (logouts.length) deps.delivery?.kick();
  return ended;
}

export interface DeliveryLoopDeps {
  storage: Storage;
  clients: ClientService;
  keys: KeyStore;
  clock: Clock;
  log: Logger;
  issuer: string;
  /** The guarded client (lib/outbound/): a URI on a refused address is never reached, only retried and logged. */
  outbound: Pick<Outbound, 'fetch'>;
  /** Reports one delivery's end: delivered, retry or given up (metrics and tests). */
  onOutcome?: (outcome: 'delivered' | 'retry' | 'given_up', row: LogoutDeliveryRow) => void;
}

/** The sending loop of one process: polls the queue every `intervalMs`, and at once after a kick. */
export function startLogoutDelivery(deps: DeliveryLoopDeps, opts: { intervalMs?: number } = {}) {
  async function attempt(row: LogoutDeliveryRow, stopping: AbortSignal): Promise<void> {
    const client = await deps.clients.find(row.client_id);
    const uri = client?.backchannel_logout_uri;
    // The client was removed or no longer wants logout tokens: nothing to deliver.
    if (!client || !uri) return deps.storage.logoutDeliveries.remove(row.id);
    let problem: string;
    try {
      const token = await signLogoutToken(
        client,
        { sub: row.user_id, sid: row.sid },
        { issuer: deps.issuer, now: deps.clock.now(), keys: deps.keys, clients: deps.clients },
      );
      const res = await deps.outbound.fetch(uri, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ logout_token: token }).toString(),
        signal: stopping,
        timeoutMs: SEND_TIMEOUT_MS,
      });
      // BCL 2.8: 200 OK; some frameworks answer 204 for the same success.
      if (res.status === 200 || res.status === 204) {
        await deps.storage.logoutDeliveries.remove(row.id);
        deps.log.info({ event: 'logout.backchannel_delivered', client_id: row.client_id }, 'logout token delivered');
        deps.onOutcome?.('delivered', row);
        return;
      }
      problem = `HTTP ${res.status}`;
    } catch (e) {
      if (stopping.aborted) {
        // Shutting down: the row is due again at once, for this process after a restart or another one now.
        await deps.storage.logoutDeliveries.retryAt(row.id, deps.clock.now(), 'interrupted by shutdown');
        return;
      }
      problem = e instanceof Error ? `${e.name}: ${(e.cause as Error | undefined)?.message ?? e.message}` : String(e);
    }
    const log = { event: 'logout.backchannel_failed', client_id: row.client_id, attempts: row.attempts, problem };
    if (row.attempts >= MAX_ATTEMPTS) {
      await deps.storage.logoutDeliveries.remove(row.id);
      deps.log.warn(log, 'logout token not delivered: given up');
      deps.onOutcome?.('given_up', row);
      return;
    }
    await deps.storage.logoutDeliveries.retryAt(row.id, deps.clock.now() + backoffMs(row.attempts), problem);
    deps.log.warn(log, 'logout token not delivered: will retry');
    deps.onOutcome?.('retry', row);
  }

  // The loop itself is the queues' one (lib/queue-loop.ts), shared with the webhook deliveries.
  return startQueueLoop<LogoutDeliveryRow>({
    claim: (batch) => {
      const now = deps.clock.now();
      return deps.storage.logoutDeliveries.claimDue(now, now + LEASE_MS, batch);
    },
    attempt,
    failed: (e, row) =>
      row
        ? deps.log.warn({ err: e, client_id: row.client_id }, 'logout delivery failed')
        : deps.log.warn({ err: e }, 'logout delivery poll failed'),
    batch: BATCH,
    intervalMs: opts.intervalMs ?? 5_000,
  });
}

export type LogoutDelivery = ReturnType<typeof startLogoutDelivery>;
