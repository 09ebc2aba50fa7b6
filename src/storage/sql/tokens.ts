import type { Kysely, Selectable } from 'kysely';
import type { AccessTokensTable, Database, GrantsTable, RefreshTokensTable } from '../schema.js';
import type { Consumed } from './codes.js';

export type GrantRow = Selectable<GrantsTable>;
export type AccessTokenRow = Selectable<AccessTokensTable>;
export type RefreshTokenRow = Selectable<RefreshTokensTable>;

/** Grants (token families), access tokens and rotating refresh tokens. */
export function tokensRepo(db: Kysely<Database>) {
  return {
    async createGrant(g: GrantRow): Promise<void> {
      await db.insertInto('grants').values(g).execute();
    },
    async findGrant(id: string): Promise<GrantRow | undefined> {
      return db.selectFrom('grants').selectAll().where('id', '=', id).executeTakeFirst();
    },
    /** Revokes a grant and every access token of it; its refresh tokens die with the grant. */
    async revokeGrant(id: string, now: number): Promise<void> {
      await db.updateTable('grants').set({ revoked_at: now }).where('id', '=', id).where('revoked_at', 'is', null).execute();
      await db.updateTable('access_tokens').set({ revoked_at: now }).where('grant_id', '=', id).where('revoked_at', 'is', null).execute();
    },
    async grantIdsOfSession(sessionId: string): Promise<string[]> {
      const rows = await db.selectFrom('grants').select('id').where('session_id', '=', sessionId).where('revoked_at', 'is', null).execute();
      return rows.map((r) => r.id);
    },
    async grantIdsOfUser(userId: string): Promise<string[]> {
      const rows = await db.selectFrom('grants').select('id').where('user_id', '=', userId).where('revoked_at', 'is', null).execute();
      return rows.map((r) => r.id);
    },
    async insertAccessToken(t: AccessTokenRow): Promise<void> {
      await db.insertInto('access_tokens').values(t).execute();
    },
    /** An access token with its grant's revocation time: revoking a grant kills its tokens at once. */
    async findAccessToken(digest: string): Promise<(AccessTokenRow & { grant_revoked_at: number | null }) | undefined> {
      return db
        .selectFrom('access_tokens')
        .innerJoin('grants', 'grants.id', 'access_tokens.grant_id')
        .selectAll('access_tokens')
        .select('grants.revoked_at as grant_revoked_at')
        .where('access_tokens.digest', '=', digest)
        .executeTakeFirst();
    },
    async revokeAccessToken(digest: string, now: number): Promise<void> {
      await db.updateTable('access_tokens').set({ revoked_at: now }).where('digest', '=', digest).where('revoked_at', 'is', null).execute();
    },
    async insertRefreshToken(t: RefreshTokenRow): Promise<void> {
      await db.insertInto('refresh_tokens').values(t).execute();
    },
    async findRefreshToken(digest: string): Promise<RefreshTokenRow | undefined> {
      return db.selectFrom('refresh_tokens').selectAll().where('digest', '=', digest).executeTakeFirst();
    },
    /** Marks a refresh token used (rotation); of many concurrent callers exactly one wins. */
    async consumeRefreshToken(digest: string, now: number): Promise<Consumed<RefreshTokenRow>> {
      const won = await db
        .updateTable('refresh_tokens')
        .set({ consumed_at: now })
        .where('digest', '=', digest)
        .where('consumed_at', 'is', null)
        .returningAll()
        .executeTakeFirst();
      if (won) return { state: 'ok', row: won };
      const seen = await db.selectFrom('refresh_tokens').selectAll().where('digest', '=', digest).executeTakeFirst();
      return seen ? { state: 'reused', row: seen } : { state: 'missing' };
    },
  };
}
