import type { Kysely, Selectable } from 'kysely';
import type { Database, SessionsTable } from '../schema.js';

export type SessionRow = Selectable<SessionsTable>;

export function sessionsRepo(db: Kysely<Database>) {
  return {
    async create(s: SessionRow): Promise<void> {
      await db.insertInto('sessions').values(s).execute();
    },
    /** A live session: not revoked, not past its absolute or idle limit. */
    async findLive(idDigest: string, now: number, idleMs: number): Promise<SessionRow | undefined> {
      return db
        .selectFrom('sessions')
        .selectAll()
        .where('id_digest', '=', idDigest)
        .where('revoked_at', 'is', null)
        .where('expires_at', '>', now)
        .where('last_seen_at', '>', now - idleMs)
        .executeTakeFirst();
    },
    async touch(idDigest: string, now: number): Promise<void> {
      await db.updateTable('sessions').set({ last_seen_at: now }).where('id_digest', '=', idDigest).execute();
    },
    async revoke(idDigest: string, now: number): Promise<boolean> {
      const r = await db.updateTable('sessions').set({ revoked_at: now }).where('id_digest', '=', idDigest).where('revoked_at', 'is', null).executeTakeFirst();
      return Number(r.numUpdatedRows) === 1;
    },
    async revokeAllForUser(userId: string, now: number): Promise<number> {
      const r = await db.updateTable('sessions').set({ revoked_at: now }).where('user_id', '=', userId).where('revoked_at', 'is', null).executeTakeFirst();
      return Number(r.numUpdatedRows);
    },
  };
}
