import type { Kysely, Selectable } from 'kysely';
import type { AuditEventsTable, Database } from '../schema.js';

export type AuditRow = Selectable<AuditEventsTable>;

export interface AuditFilter {
  action?: string;
  actorId?: string;
  target?: string;
  since?: number;
  until?: number;
  limit: number;
  /** Events strictly older than this time (pagination). */
  before?: number;
  /** With `before`: the id of the last event already seen, so events sharing its time are not skipped
   * (the order is time then id, both descending: a keyset cursor). */
  beforeId?: string;
}

export function auditRepo(db: Kysely<Database>) {
  return {
    async insert(e: AuditRow): Promise<void> {
      await db.insertInto('audit_events').values(e).execute();
    },
    /** Several events in one statement (the buffered security events). */
    async insertMany(rows: AuditRow[]): Promise<void> {
      if (rows.length) await db.insertInto('audit_events').values(rows).execute();
    },
    /**
     * The latest events of these actions about one user: those the user did (actor) and those done to
     * their account by an administrator (target `user:<id>`), the newest first.
     */
    async listAboutUser(userId: string, actions: readonly string[], limit: number): Promise<AuditRow[]> {
      if (!actions.length) return [];
      return db
        .selectFrom('audit_events')
        .selectAll()
        .where('action', 'in', actions)
        .where((eb) =>
          eb.or([
            eb.and([eb('actor_type', '=', 'user'), eb('actor_id', '=', userId)]),
            eb('target', '=', `user:${userId}`),
          ]),
        )
        .orderBy('at', 'desc')
        .orderBy('id', 'desc')
        .limit(limit)
        .execute();
    },
    async list(f: AuditFilter): Promise<AuditRow[]> {
      let q = db.selectFrom('audit_events').selectAll();
      if (f.action) q = q.where('action', '=', f.action);
      if (f.actorId) q = q.where('actor_id', '=', f.actorId);
      if (f.target) q = q.where('target', '=', f.target);
      if (f.since !== undefined) q = q.where('at', '>=', f.since);
      if (f.until !== undefined) q = q.where('at', '<=', f.until);
      const before = f.before,
        beforeId = f.beforeId;
      if (before !== undefined && beforeId !== undefined) {
        q = q.where((eb) => eb.or([eb('at', '<', before), eb.and([eb('at', '=', before), eb('id', '<', beforeId)])]));
      } else if (before !== undefined) q = q.where('at', '<', before);
      return q.orderBy('at', 'desc').orderBy('id', 'desc').limit(f.limit).execute();
    },
  };
}
