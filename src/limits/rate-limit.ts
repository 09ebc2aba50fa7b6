import type { RateLimit } from '../config/types.js';
import { rateLimited } from '../errors/refusals.js';
import type { Clock } from '../lib/clock.js';
import type { WardMetrics } from '../observability/ward-metrics.js';
import type { Storage } from '../storage/storage.js';

/** Fixed-window limits per key (client IP), counted in the database so every process shares them. */
export function createLimiter(deps: { storage: Storage; clock: Clock; metrics: WardMetrics }) {
  return async function check(name: string, key: string, rule: RateLimit): Promise<void> {
    if (rule.limit === null) return;
    const now = deps.clock.now();
    const windowMs = rule.window_seconds * 1000;
    const start = Math.floor(now / windowMs) * windowMs;
    const count = await deps.storage.counters.hit(`${name}:${key}`, start, start + windowMs);
    if (count > rule.limit) {
      deps.metrics.rateLimited(name);
      throw rateLimited((start + windowMs - now) / 1000);
    }
  };
}

export type Limiter = ReturnType<typeof createLimiter>;
