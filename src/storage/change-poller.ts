import type { Logger } from 'pino';
import type { Storage } from './storage.js';
import type { Area } from './sql/versions.js';
import { isDatabaseUnavailable, type OutageLog } from './unavailable.js';

/**
 * A background loop's failure: while the database is unreachable it is one of many alike (the
 * outage log says so once per interval); anything else is logged as it comes.
 */
function loopFailed(log: Logger, outage: OutageLog | undefined, source: string, e: unknown): void {
  if (outage && isDatabaseUnavailable(e)) outage.failed(source, e);
  else log.warn({ err: e }, `${source} failed`);
}

/**
 * Keeps each process's caches fresh: polls the change counters (one indexed read) every interval
 * and runs the refresh of each area that moved. Changes made by another process, or by the CLI,
 * are seen within one interval on SQLite and PostgreSQL alike. While the database is unreachable the
 * poll fails and the caches keep what they had; the first poll that succeeds again catches up.
 */
export function startChangePoller(
  storage: Storage,
  log: Logger,
  refresh: Record<Area, () => Promise<void> | void>,
  opts: { intervalMs?: number; outage?: OutageLog } = {},
) {
  let seen: Record<string, number> | null = null;
  let running = false;
  async function tick(): Promise<void> {
    if (running) return;
    running = true;
    try {
      const now = await storage.versions.all();
      if (seen) {
        for (const area of Object.keys(refresh) as Area[]) {
          if (now[area] !== seen[area]) await refresh[area]();
        }
      }
      seen = now;
    } catch (e) {
      loopFailed(log, opts.outage, 'change poll', e);
    } finally {
      running = false;
    }
  }
  const timer = setInterval(() => void tick(), opts.intervalMs ?? 250);
  timer.unref();
  void tick();
  return {
    tick,
    stop: () => clearInterval(timer),
  };
}

/**
 * Deletes what can no longer be used: codes and one-time tokens a day past their expiry (a day,
 * so a late reuse of a code is still detected and revokes its grant), finished rate windows, and
 * revocations of access tokens that have expired anyway.
 */
export function startJanitor(
  storage: Storage,
  log: Logger,
  now: () => number,
  opts: { intervalMs?: number; outage?: OutageLog } = {},
) {
  const DAY = 24 * 3600_000;
  const sweep = async () => {
    try {
      const t = now();
      await storage.codes.deleteExpired(t - DAY);
      await storage.oneTime.deleteExpired(t - DAY);
      await storage.accountCodes.deleteExpired(t - DAY);
      await storage.interactions.deleteExpired(t);
      // A day after expiry: a late poll is still told expired_token, a reused code still revokes.
      await storage.deviceAuthorizations.deleteExpired(t - DAY);
      await storage.counters.deleteExpired(t);
      await storage.signInFailures.deleteExpired(t);
      await storage.tokens.deleteExpiredRevocations(t);
    } catch (e) {
      loopFailed(log, opts.outage, 'janitor sweep', e);
    }
  };
  const timer = setInterval(() => void sweep(), opts.intervalMs ?? 10 * 60_000);
  timer.unref();
  return { sweep, stop: () => clearInterval(timer) };
}
