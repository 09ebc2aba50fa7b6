import { sql, type Kysely, type QueryCreator, type Selectable } from 'kysely';
import type { Engine } from '../connect.js';
import type { Database, GrantsTable, RefreshTokensTable } from '../schema.js';
import { columnsOf, prepared } from '../prepared.js';
import { JOINED_PROFILE, splitJoinedProfile, type StoredProfile } from './profiles.js';
import { JOINED_USER, splitJoinedUser, type User } from './users.js';

/** A grant as made and read; its DPoP key is written only by bindGrantKey (grant_dpop_jkt reads it). */
export type GrantRow = Omit<Selectable<GrantsTable>, 'dpop_jkt'>;
export type RefreshTokenRow = Selectable<RefreshTokensTable>;
export type RefreshWithGrant = RefreshTokenRow & {
  grant_auth_time: number | null;
  grant_amr: string | null;
  grant_session_id: string | null;
  grant_expires_at: number | null;
  grant_revoked_at: number | null;
  /** The API resource the grant was made for (its tokens' audience); null: none. */
  grant_resource: string | null;
  /** The action of the step-up that signed the grant in; null: none. */
  grant_step_up_action: string | null;
  /** The DPoP key (JWK thumbprint) the grant's refresh tokens are bound to; null: none. */
  grant_dpop_jkt: string | null;
  user: User | undefined;
  /** The user's profile, read with it (null: none stored). */
  profile: StoredProfile | null;
};

export const GRANT_COLUMNS = columnsOf<GrantRow>()(
  'id',
  'user_id',
  'client_id',
  'session_id',
  'scope',
  'auth_time',
  'amr',
  'created_at',
  'expires_at',
  'revoked_at',
  'resource',
  'step_up_action',
);
const REFRESH_COLUMNS = columnsOf<RefreshTokenRow>()(
  'digest',
  'grant_id',
  'client_id',
  'user_id',
  'scope',
  'created_at',
  'consumed_at',
);

const refreshWithGrant = (q: QueryCreator<Database>, digest: string) =>
  q
    .selectFrom('refresh_tokens')
    .leftJoin('grants', 'grants.id', 'refresh_tokens.grant_id')
    .leftJoin('users', 'users.id', 'refresh_tokens.user_id')
    .leftJoin('user_profiles', 'user_profiles.user_id', 'refresh_tokens.user_id')
    .selectAll('refresh_tokens')
    .select([
      'grants.auth_time as grant_auth_time',
      'grants.amr as grant_amr',
      'grants.session_id as grant_session_id',
      'grants.expires_at as grant_expires_at',
      'grants.revoked_at as grant_revoked_at',
      'grants.resource as grant_resource',
      'grants.step_up_action as grant_step_up_action',
      'grants.dpop_jkt as grant_dpop_jkt',
    ])
    .select(JOINED_USER)
    .select(JOINED_PROFILE)
    .where('refresh_tokens.digest', '=', digest);
const findRefreshWithGrant = prepared(refreshWithGrant);
/**
 * PostgreSQL: a refresh token read with its grant and user and, in the same statement, used when it
 * may be (useRefreshToken's rule): marked used and its successor stored. `rotated` counts the tokens
 * used (0 or 1); the row read is as it was before.
 */
const useRefresh = prepared(
  (q, digest: string, clientId: string, now: number, jkt: string | null, nextDigest: string) =>
    q
      .with('t', (w) => refreshWithGrant(w, digest))
      .with('used', (w) =>
        w
          .updateTable('refresh_tokens')
          .set({ consumed_at: now })
          .where('digest', '=', digest)
          .where('consumed_at', 'is', null)
          .where(({ exists, selectFrom }) =>
            exists(
              selectFrom('t')
                .select('t.digest')
                .where('t.client_id', '=', clientId)
                .where('t.grant_revoked_at', 'is', null)
                .where('t.grant_expires_at', '>', now)
                .where('t.user_row_id', 'is not', null)
                .where('t.user_disabled', '=', 0)
                .where((eb) => eb.or([eb('t.grant_dpop_jkt', 'is', null), eb('t.grant_dpop_jkt', '=', jkt)])),
            ),
          )
          .returning('grant_id'),
      )
      .with('next', (w) =>
        w
          .insertInto('refresh_tokens')
          .columns([...REFRESH_COLUMNS])
          .expression((eb) =>
            eb
              .selectFrom(['used', 't'])
              .select([
                sql<string>`cast(${nextDigest} as text)`.as('digest'),
                'used.grant_id',
                't.client_id',
                't.user_id',
                't.scope',
                sql<number>`cast(${now} as bigint)`.as('created_at'),
                sql<null>`null`.as('consumed_at'),
              ]),
          )
          .returning('digest'),
      )
      .selectFrom('t')
      .selectAll('t')
      .select((eb) => eb.selectFrom('used').select(eb.fn.countAll<string>().as('n')).as('rotated')),
);
const consumeRefresh = prepared((q, digest: string, now: number) =>
  q
    .updateTable('refresh_tokens')
    .set({ consumed_at: now })
    .where('digest', '=', digest)
    .where('consumed_at', 'is', null),
);
const revokedOnItsOwn = prepared((q, jti: string) =>
  q.selectFrom('revoked_access_tokens').select('jti').where('jti', '=', jti),
);
const revokedWithGrant = prepared((q, jti: string, grantId: string) =>
  q
    .selectFrom('grants')
    .select((eb) => [
      'grants.revoked_at',
      eb.exists(eb.selectFrom('revoked_access_tokens').select('jti').where('jti', '=', jti)).as('revoked'),
    ])
    .where('grants.id', '=', grantId),
);
const insertRefresh = prepared((q, t: RefreshTokenRow) => q.insertInto('refresh_tokens').values(t), {
  0: REFRESH_COLUMNS,
});
// PostgreSQL: the successor is stored only if this statement's update consumed the token.
const rotateRefresh = prepared(
  (q, digest: string, now: number, t: RefreshTokenRow) =>
    q
      .with('used', (w) =>
        w
          .updateTable('refresh_tokens')
          .set({ consumed_at: now })
          .where('digest', '=', digest)
          .where('consumed_at', 'is', null)
          .returning('grant_id'),
      )
      .insertInto('refresh_tokens')
      .columns([...REFRESH_COLUMNS])
      .expression((eb) =>
        eb
          .selectFrom('used')
          .select([
            sql<string>`cast(${t.digest} as text)`.as('digest'),
            'used.grant_id',
            sql<string>`cast(${t.client_id} as text)`.as('client_id'),
            sql<string>`cast(${t.user_id} as text)`.as('user_id'),
            sql<string>`cast(${t.scope} as text)`.as('scope'),
            sql<number>`cast(${t.created_at} as bigint)`.as('created_at'),
            sql<null>`cast(${t.consumed_at} as bigint)`.as('consumed_at'),
          ]),
      ),
  { 2: REFRESH_COLUMNS.filter((c) => c !== 'grant_id') },
);

type JoinedRefreshRow = Parameters<typeof splitJoinedUser>[0] & Parameters<typeof splitJoinedProfile>[0];
/** A refresh token row read with JOINED_USER and JOINED_PROFILE, with its user and profile apart. */
function withUserAndProfile<R extends JoinedRefreshRow>(row: R): RefreshWithGrant {
  const { user, rest: withProfile } = splitJoinedUser(row);
  const { profile, rest } = splitJoinedProfile(withProfile);
  return { ...(rest as unknown as RefreshWithGrant), user, profile };
}

/** Grants (token families), rotating refresh tokens, and the access tokens revoked one by one. */
export function tokensRepo(db: Kysely<Database>, engine: Engine) {
  const findWithGrant = async (digest: string): Promise<RefreshWithGrant | undefined> => {
    const [row] = (await findRefreshWithGrant(db, engine, digest)).rows;
    return row && withUserAndProfile(row);
  };
  const rotate = async (digest: string, now: number, next: RefreshTokenRow): Promise<boolean> => {
    if (engine === 'postgres') return (await rotateRefresh(db, engine, digest, now, next)).numAffectedRows === 1n;
    if ((await consumeRefresh(db, engine, digest, now)).numAffectedRows !== 1n) return false;
    await insertRefresh(db, engine, next);
    return true;
  };
  return {
    async createGrant(g: GrantRow): Promise<void> {
      await db.insertInto('grants').values(g).execute();
    },
    async findGrant(id: string): Promise<GrantRow | undefined> {
      return db.selectFrom('grants').selectAll().where('id', '=', id).executeTakeFirst();
    },
    /** Binds a grant's refresh tokens to a DPoP key (RFC 9449 5); a grant bound before keeps its key. */
    async bindGrantKey(id: string, jkt: string): Promise<void> {
      await db
        .updateTable('grants')
        .set({ dpop_jkt: jkt })
        .where('id', '=', id)
        .where('dpop_jkt', 'is', null)
        .execute();
    },
    /** Revokes a grant: its access and refresh tokens die with it (each check reads the grant). */
    async revokeGrant(id: string, now: number): Promise<void> {
      await db
        .updateTable('grants')
        .set({ revoked_at: now })
        .where('id', '=', id)
        .where('revoked_at', 'is', null)
        .execute();
    },
    /** The clients that were given tokens inside a session (Back-Channel Logout tells each of them). */
    async clientIdsOfSession(sessionId: string): Promise<string[]> {
      const rows = await db
        .selectFrom('grants')
        .select('client_id')
        .distinct()
        .where('session_id', '=', sessionId)
        .execute();
      return rows.map((r) => r.client_id);
    },
    async grantIdsOfSession(sessionId: string): Promise<string[]> {
      const rows = await db
        .selectFrom('grants')
        .select('id')
        .where('session_id', '=', sessionId)
        .where('revoked_at', 'is', null)
        .execute();
      return rows.map((r) => r.id);
    },
    /**
     * Revokes every live grant of a user in one statement. `except`: the caller's own grant (if named)
     * stays, and so do those issued inside its session (the same browser). Answers how many were revoked.
     */
    async revokeGrantsOfUser(
      userId: string,
      now: number,
      except?: { grant: string | null; session: string | null },
    ): Promise<number> {
      let q = db
        .updateTable('grants')
        .set({ revoked_at: now })
        .where('user_id', '=', userId)
        .where('revoked_at', 'is', null);
      if (except?.grant) q = q.where('id', '<>', except.grant);
      const keepSession = except?.session;
      if (keepSession) q = q.where((eb) => eb.or([eb('session_id', 'is', null), eb('session_id', '<>', keepSession)]));
      return Number((await q.executeTakeFirst()).numUpdatedRows);
    },
    /**
     * Whether a sealed access token is dead in the store: revoked on its own, or (a user's token)
     * its grant revoked or gone. One statement either way.
     */
    async accessTokenRevoked(jti: string, grantId: string | null): Promise<boolean> {
      if (grantId === null) return (await revokedOnItsOwn(db, engine, jti)).rows.length > 0;
      const [row] = (await revokedWithGrant(db, engine, jti, grantId)).rows;
      return !row || row.revoked_at !== null || Boolean(row.revoked);
    },
    /** Revokes one access token until it would have expired anyway (a second revocation is a no-op). */
    async revokeAccessToken(jti: string, expiresAt: number): Promise<void> {
      await db
        .insertInto('revoked_access_tokens')
        .values({ jti, expires_at: expiresAt })
        .onConflict((oc) => oc.column('jti').doNothing())
        .execute();
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
    /** A refresh token with its grant's state and its user, in one read (the grant fields are null if it is gone). */
    findRefreshTokenWithGrant: findWithGrant,
    /**
     * A refresh token read with its grant and user and, when it may be used, rotated at once (marked
     * used and `nextDigest` stored as its successor, of the same grant, client, user and scope). It may
     * be used when it is not used yet, it was issued to `clientId`, its grant is live at `now`, its user
     * exists and is not disabled, and the grant has no DPoP key or `jkt` is that key. `rotated` is true
     * for exactly one of many concurrent callers; the row is as it was before. One statement on
     * PostgreSQL; on SQLite (no data-modifying CTE) the read, then rotateRefreshToken's two.
     */
    async useRefreshToken(
      digest: string,
      use: { clientId: string; now: number; jkt: string | null; nextDigest: string },
    ): Promise<{ row: RefreshWithGrant | undefined; rotated: boolean }> {
      if (engine === 'postgres') {
        const [found] = (await useRefresh(db, engine, digest, use.clientId, use.now, use.jkt, use.nextDigest)).rows;
        if (!found) return { row: undefined, rotated: false };
        const { rotated, ...read } = found;
        return { row: withUserAndProfile(read), rotated: Number(rotated) === 1 };
      }
      const row = await findWithGrant(digest);
      const usable =
        row !== undefined &&
        row.consumed_at === null &&
        row.client_id === use.clientId &&
        row.grant_revoked_at === null &&
        row.grant_expires_at !== null &&
        row.grant_expires_at > use.now &&
        row.user !== undefined &&
        !row.user.disabled &&
        (row.grant_dpop_jkt === null || row.grant_dpop_jkt === use.jkt);
      if (!usable) return { row, rotated: false };
      const rotated = await rotate(digest, use.now, {
        digest: use.nextDigest,
        grant_id: row.grant_id,
        client_id: row.client_id,
        user_id: row.user_id,
        scope: row.scope,
        created_at: use.now,
        consumed_at: null,
      });
      return { row, rotated };
    },
    /**
     * Rotation: marks the refresh token used and stores its successor (of the same grant), true for
     * exactly one of many concurrent callers (the others store nothing). One statement on PostgreSQL
     * (a data-modifying CTE), two on SQLite, which has none (its writes are serialised anyway).
     */
    rotateRefreshToken: rotate,
  };
}
