import type { Kysely, Selectable } from 'kysely';
import type { Engine } from '../connect.js';
import { columnsOf, prepared } from '../prepared.js';
import type { Database, SessionsTable } from '../schema.js';
import { JOINED_USER, splitJoinedUser, type User } from './users.js';

export type SessionRow = Selectable<SessionsTable>;

const findLiveWithUser = prepared((q, idDigest: string, now: number, idleSince: number) =>
  q
    .selectFrom('sessions')
    .leftJoin('users', 'users.id', 'sessions.user_id')
    .leftJoin('user_profiles', 'user_profiles.user_id', 'sessions.user_id')
    .selectAll('sessions')
    .select(JOINED_USER)
    .where('sessions.id_digest', '=', idDigest)
    .where('sessions.revoked_at', 'is', null)
    .where('sessions.expires_at', '>', now)
    .where('sessions.last_seen_at', '>', idleSince),
);

const insertSession = prepared((q, s: SessionRow) => q.insertInto('sessions').values(s), {
  0: columnsOf<SessionRow>()(
    'id_digest',
    'user_id',
    'auth_time',
    'amr',
    'created_at',
    'last_seen_at',
    'expires_at',
    'revoked_at',
    'user_agent',
    'ip',
  ),
});

export function sessionsRepo(db: Kysely<Database>, engine: Engine) {
  return {
    async create(s: SessionRow): Promise<void> {
      await insertSession(db, engine, s);
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
    /** findLive with its user in the same statement (undefined if the user is gone). */
    async findLiveWithUser(
      idDigest: string,
      now: number,
      idleMs: number,
    ): Promise<(SessionRow & { user: User | undefined }) | undefined> {
      const [row] = (await findLiveWithUser(db, engine, idDigest, now, now - idleMs)).rows;
      if (!row) return undefined;
      const { user, rest } = splitJoinedUser(row);
      return { ...rest, user };
    },
    /**
     * A user's live sessions (not ended, within their absolute and idle limits), the most recently used
     * first: what the user sees of where they are signed in.
     */
    async listLiveOfUser(userId: string, now: number, idleMs: number, limit = 100): Promise<SessionRow[]> {
      return db
        .selectFrom('sessions')
        .selectAll()
        .where('user_id', '=', userId)
        .where('revoked_at', 'is', null)
        .where('expires_at', '>', now)
        .where('last_seen_at', '>', now - idleMs)
        .orderBy('last_seen_at', 'desc')
        .orderBy('id_digest')
        .limit(limit)
        .execute();
    },
    async touch(idDigest: string, now: number): Promise<void> {
      await db.updateTable('sessions').set({ last_seen_at: now }).where('id_digest', '=', idDigest).execute();
    },
    async revoke(idDigest: string, now: number): Promise<boolean> {
      const r = await db
        .updateTable('sessions')
        .set({ revoked_at: now })
        .where('id_digest', '=', idDigest)
        .where('revoked_at', 'is', null)
        .executeTakeFirst();
      return Number(r.numUpdatedRows) === 1;
    },
    /** The ids of a user's sessions not yet ended (expired ones too: their clients may still hold their sid). */
    async openIdsOfUser(userId: string, except: string | null = null): Promise<string[]> {
      let q = db
        .selectFrom('sessions')
        .select('id_digest')
        .where('user_id', '=', userId)
        .where('revoked_at', 'is', null);
      if (except !== null) q = q.where('id_digest', '<>', except);
      return (await q.execute()).map((r) => r.id_digest);
    },
    /** Ends every live session of a user, but `except` when given. Answers how many ended. */
    async revokeAllForUser(userId: string, now: number, except: string | null = null): Promise<number> {
      let q = db
        .updateTable('sessions')
        .set({ revoked_at: now })
        .where('user_id', '=', userId)
        .where('revoked_at', 'is', null);
      if (except !== null) q = q.where('id_digest', '<>', except);
      return Number((await q.executeTakeFirst()).numUpdatedRows);
    },
  };
}
