// Reading a Ward's audit table as the audit API answers it: the buffered security events flushed
// first, each row's details parsed.
import type { AuditFilter } from '../../src/storage/sql/audit.js';
import type { TestWard } from './ward.js';

export interface AuditEvent {
  action: string;
  actor_id: string;
  target: string | null;
  outcome: string;
  details: Record<string, unknown>;
}

/** The audit rows that match `filter` (newest first), once the pending events are written. */
export async function auditRows(ward: TestWard, filter: AuditFilter): Promise<AuditEvent[]> {
  await ward.registry.events.flush();
  const list = await ward.registry.storage.audit.list(filter);
  return list.map((r) => ({ ...r, details: JSON.parse(r.details) as Record<string, unknown> }));
}
