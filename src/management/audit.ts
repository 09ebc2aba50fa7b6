import { randomId } from '../lib/random.js';
import type { Repos } from '../storage/storage.js';

export interface Actor {
  type: 'client' | 'user' | 'cli' | 'system';
  id: string;
  ip: string | null;
}

/** Writes one audit event: who did what, to what, when, from where, with what outcome. */
export async function recordAudit(
  repos: Pick<Repos, 'audit'>,
  now: number,
  actor: Actor,
  action: string,
  target: string | null,
  outcome: 'success' | 'denied' | 'failed',
  details: Record<string, unknown> = {},
): Promise<void> {
  await repos.audit.insert({
    id: randomId(),
    at: now,
    actor_type: actor.type,
    actor_id: actor.id,
    action,
    target: target?.slice(0, 400) ?? null,
    ip: actor.ip,
    outcome,
    details: JSON.stringify(details),
  });
}
