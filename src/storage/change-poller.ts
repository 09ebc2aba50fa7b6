import type { Logger } from 'pino';
import type { Storage } from './storage.js';
import type { Area } from './sql/versions.js';

/**
 * Keeps each process's caches fresh: polls the change counters (one indexed read) every interval
 * and runs the refresh of each area that moved. Changes made by another process, or by the CLI,
 * are seen within one interval on SQLite and PostgreSQL alike.
 */
export function startChangePoller(
  storage: Storage,
  log: Logger,
  refresh: Record<Area, () => Promise<void> | void>,
  intervalMs = 250,
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
      log.warn({ err: e }, 'change poll failed');
    } finally {
      running = false;
    }
  }
  const timer = setInterval(() => void tick(), intervalMs);
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
export function startJanitor(storage: Storage, log: Logger, now: () => number, intervalMs = 10 * 60_000) {
  const DAY = 24 * 3600_000;
  const sweep = async () => {
    try {
      const t = now();
      await storage.codes.deleteExpired(t - DAY);
      await storage.oneTime.deleteExpired(t - DAY);
      await storage.counters.deleteExpired(t);
      await storage.tokens.deleteExpiredRevocations(t);
    } catch (e) {
      log.warn({ err: e }, 'janitor sweep failed');
    }
  };
  const timer = setInterval(() => void sweep(), intervalMs);
  timer.unref();
  return { sweep, stop: () => clearInterval(timer) };
}
