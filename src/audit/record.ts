import { randomId } from '../lib/random.js';
import type { Repos } from '../storage/storage.js';
import type { AuditRow } from '../storage/sql/audit.js';
import { eventOfAudit, writeOutbox } from '../webhooks/outbox.js';

export interface Actor {
  type: 'client' | 'user' | 'cli' | 'system';
  id: string;
  ip: string | null;
}

type AuditRepos = Pick<Repos, 'audit' | 'webhookEndpoints' | 'webhookDeliveries' | 'users'>;

/**
 * Writes one audit event: who did what, to what, when, from where, with what outcome. An event of the
 * webhook catalog (webhooks/catalog.ts) gets its outbox rows in the same transaction: the caller's,
 * or one of its own when it was given the storage itself.
 */
export async function recordAudit(
  repos: AuditRepos | (AuditRepos & { transaction<T>(fn: (tx: AuditRepos) => Promise<T>): Promise<T> }),
  now: number,
  actor: Actor,
  action: string,
  target: string | null,
  outcome: 'success' | 'denied' | 'failed',
  details: Record<string, unknown> = {},
): Promise<void> {
  const row: AuditRow = {
    id: randomId(),
    at: now,
    actor_type: actor.type,
    actor_id: actor.id,
    action,
    target: target?.slice(0, 400) ?? null,
    ip: actor.ip,
    outcome,
    details: JSON.stringify(details),
  };
  if (!eventOfAudit(row)) return repos.audit.insert(row);
  const write = async (tx: AuditRepos) => {
    await tx.audit.insert(row);
    await writeOutbox(tx, [row], now);
  };
  await ('transaction' in repos ? repos.transaction(write) : write(repos));
}
