import type { Kysely, Selectable } from 'kysely';
import type { Database, GrantsTable, RefreshTokensTable } from '../schema.js';

export type GrantRow = Selectable<GrantsTable>;
export type RefreshTokenRow = Selectable<RefreshTokensTable>;
export type RefreshWithGrant = RefreshTokenRow & { grant_auth_time: number | null; grant_amr: string | null; grant_expires_at: number | null; grant_revoked_at: number | null };

/** Grants (token families), rotating refresh tokens, and the access tokens revoked one by one. */
export function tokensRepo(db: Kysely<Database>) {
  return {
    async createGrant(g: GrantRow): Promise<void> {
      await db.insertInto('grants').values(g).execute();
    },
    async findGrant(id: string): Promise<GrantRow | undefined> {
      return db.selectFrom('grants').selectAll().where('id', '=', id).executeTakeFirst();
    },
    /** Revokes a grant: its access and refresh tokens die with it (each check reads the grant). */
    async revokeGrant(id: string, now: number): Promise<void> {
      await db.updateTable('grants').set({ revoked_at: now }).where('id', '=', id).where('revoked_at', 'is', null).execute();
    },
    async grantIdsOfSession(sessionId: string): Promise<string[]> {
      const rows = await db.selectFrom('grants').select('id').where('session_id', '=', sessionId).where('revoked_at', 'is', null).execute();
      return rows.map((r) => r.id);
    },
    async grantIdsOfUser(userId: string): Promise<string[]> {
      const rows = await db.selectFrom('grants').select('id').where('user_id', '=', userId).where('revoked_at', 'is', null).execute();
      return rows.map((r) => r.id);
    },
    /**
     * Whether a sealed access token is dead in the store: revoked on its own, or (a user's token)
     * its grant revoked or gone. One statement either way.
     */
    async accessTokenRevoked(jti: string, grantId: string | null): Promise<boolean> {
      const own = db.selectFrom('revoked_access_tokens').select('jti').where('jti', '=', jti);
      if (grantId === null) return (await own.executeTakeFirst()) !== undefined;
      const row = await db
        .selectFrom('grants')
        .select((eb) => ['grants.revoked_at', eb.exists(own).as('revoked')])
        .where('grants.id', '=', grantId)
        .executeTakeFirst();
      return !row || row.revoked_at !== null || Boolean(row.revoked);
    },
    /** Revokes one access token until it would have expired anyway (a second revocation is a no-op). */
    async revokeAccessToken(jti: string, expiresAt: number): Promise<void> {
      await db.insertInto('revoked_access_tokens').values({ jti, expires_at: expiresAt }).onConflict((oc) => oc.column('jti').doNothing()).execute();
    },
    async deleteExpiredRevocations(now: number): Promise<void> {
      await db.deleteFrom('revoked_access_tokens').where('expires_at', '<', now).execute();
    },
    async insertRefreshToken(t: RefreshTokenRow): Promise<void> {
      await db.insertInto('refresh_tokens').values(t).execute();
    },
    async findRefreshToken(digest: string): Promise<RefreshTokenRow | undefined> {
      return db.selectFrom('refresh_tokens').selectAll().where('digest', '=', digest).executeTakeFirst();
    },
    /** A refresh token with its grant's state, in one read (the grant fields are null if it is gone). */
    async findRefreshTokenWithGrant(digest: string): Promise<RefreshWithGrant | undefined> {
      return db
        .selectFrom('refresh_tokens')
        .leftJoin('grants', 'grants.id', 'refresh_tokens.grant_id')
        .selectAll('refresh_tokens')
        .select(['grants.auth_time as grant_auth_time', 'grants.amr as grant_amr', 'grants.expires_at as grant_expires_at', 'grants.revoked_at as grant_revoked_at'])
        .where('refresh_tokens.digest', '=', digest)
        .executeTakeFirst();
    },
    /** Marks a refresh token used (rotation): true for exactly one of many concurrent callers. */
    async consumeRefreshToken(digest: string, now: number): Promise<boolean> {
      const r = await db.updateTable('refresh_tokens').set({ consumed_at: now }).where('digest', '=', digest).where('consumed_at', 'is', null).executeTakeFirst();
      return r.numUpdatedRows === 1n;
    },
  };
}
