import { sql, type Kysely, type QueryCreator, type Selectable } from 'kysely';
import type { Engine } from '../connect.js';
import { columnsOf, prepared } from '../prepared.js';
import type { AuthorizationCodesTable, Database } from '../schema.js';
import { GRANT_COLUMNS, type GrantRow } from './tokens.js';
import { JOINED_PROFILE, splitJoinedProfile, type StoredProfile } from './profiles.js';
import { withoutColumns } from './joined-columns.js';
import { JOINED_USER, splitJoinedUser, type User } from './users.js';

export type CodeRow = Selectable<AuthorizationCodesTable>;

/** The winner's code, its user (undefined if gone) and whether its PKCE challenge was seen on another code. */
/** The consumed code, its user and the user's profile (null: none stored), read with it. */
export type ConsumedCode = {
  row: CodeRow;
  user: User | undefined;
  profile: StoredProfile | null;
  challengeSeen: boolean;
};

/** The outcome of a consume: exactly one concurrent caller gets `ok`. */
export type Consumed<T> = { state: 'ok'; row: T } | { state: 'reused'; row: T } | { state: 'missing' };
export type ConsumedCodeOutcome =
  | ({ state: 'ok' } & ConsumedCode)
  | { state: 'reused'; row: CodeRow }
  | { state: 'missing' };

/**
 * RFC 9700 2.1.1: whether another code of this client carried the same PKCE challenge (index on client_id,
 * code_challenge).
 */
const challengeSeen = sql<boolean>`exists (select 1 from authorization_codes other
  where other.client_id = authorization_codes.client_id
    and other.code_challenge = authorization_codes.code_challenge
    and other.code_digest <> authorization_codes.code_digest)`;

/**
 * Marks a code used with one conditional UPDATE: of many concurrent callers exactly one wins. The
 * same statement refuses a code whose grant is already revoked (logout, an earlier reuse), so the
 * winner never has to re-read its grant, and reads whether the code's challenge was seen before.
 */
const consumeCode = (q: QueryCreator<Database>, codeDigest: string, now: number) =>
  q
    .updateTable('authorization_codes')
    .set({ consumed_at: now })
    .where('code_digest', '=', codeDigest)
    .where('consumed_at', 'is', null)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('grants')
            .select('grants.id')
            .whereRef('grants.id', '=', 'authorization_codes.grant_id')
            .where('grants.revoked_at', 'is not', null),
        ),
      ),
    )
    .returningAll()
    .returning(challengeSeen.as('challenge_seen'));

const CODE_COLUMNS = columnsOf<CodeRow>()(
  'code_digest',
  'client_id',
  'user_id',
  'session_id',
  'redirect_uri',
  'scope',
  'nonce',
  'code_challenge',
  'auth_time',
  'amr',
  'grant_id',
  'expires_at',
  'consumed_at',
  'created_at',
  'resource',
  'step_up_action',
);

const consumeThenReadQ = prepared((q, codeDigest: string, now: number) => consumeCode(q, codeDigest, now));
const consumeJoinedQ = prepared((q, codeDigest: string, now: number) =>
  q
    .with('won', (w) => consumeCode(w, codeDigest, now))
    .selectFrom('won')
    .leftJoin('users', 'users.id', 'won.user_id')
    .leftJoin('user_profiles', 'user_profiles.user_id', 'won.user_id')
    .selectAll('won')
    .select(JOINED_USER)
    .select(JOINED_PROFILE),
);
const userOfCode = prepared((q, userId: string) =>
  q
    .selectFrom('users')
    .leftJoin('user_profiles', 'user_profiles.user_id', 'users.id')
    .select(JOINED_USER)
    .select(JOINED_PROFILE)
    .where('users.id', '=', userId),
);
const findCode = prepared((q, codeDigest: string) =>
  q.selectFrom('authorization_codes').selectAll().where('code_digest', '=', codeDigest),
);
const insertGrant = prepared((q, g: GrantRow) => q.insertInto('grants').values(g), { 0: GRANT_COLUMNS });
const insertCode = prepared((q, c: CodeRow) => q.insertInto('authorization_codes').values(c), { 0: CODE_COLUMNS });
const insertCodeWithGrant = prepared(
  (q, g: GrantRow, c: CodeRow) =>
    q
      .with('g', (w) => w.insertInto('grants').values(g).returning('id'))
      .insertInto('authorization_codes')
      .values(c),
  { 0: GRANT_COLUMNS, 1: CODE_COLUMNS },
);

const CHALLENGE_SEEN: ReadonlySet<'challenge_seen'> = new Set(['challenge_seen'] as const);

export function codesRepo(db: Kysely<Database>, engine: Engine) {
  async function consumeJoined(codeDigest: string, now: number): Promise<ConsumedCode | undefined> {
    const [joined] = (await consumeJoinedQ(db, engine, codeDigest, now)).rows;
    if (!joined) return undefined;
    const { user, rest: withProfile } = splitJoinedUser(joined);
    const { profile, rest } = splitJoinedProfile(withProfile);
    return { row: withoutColumns(rest, CHALLENGE_SEEN), user, profile, challengeSeen: Boolean(rest.challenge_seen) };
  }
  async function consumeThenRead(codeDigest: string, now: number): Promise<ConsumedCode | undefined> {
    const [won] = (await consumeThenReadQ(db, engine, codeDigest, now)).rows;
    if (!won) return undefined;
    const row = withoutColumns(won, CHALLENGE_SEEN);
    const challenge_seen = won.challenge_seen;
    const [joined] = (await userOfCode(db, engine, row.user_id)).rows;
    if (!joined) return { row, user: undefined, profile: null, challengeSeen: Boolean(challenge_seen) };
    const { user, rest } = splitJoinedUser(joined);
    return { row, user, profile: splitJoinedProfile(rest).profile, challengeSeen: Boolean(challenge_seen) };
  }
  return {
    async insert(c: CodeRow): Promise<void> {
      await insertCode(db, engine, c);
    },
    /** A new grant and its first code: one statement on PostgreSQL (a data-modifying CTE), two on SQLite. */
    async insertWithGrant(g: GrantRow, c: CodeRow): Promise<void> {
      if (engine === 'postgres') {
        await insertCodeWithGrant(db, engine, g, c);
        return;
      }
      await insertGrant(db, engine, g);
      await insertCode(db, engine, c);
    },
    /**
     * Consumes a code (consumeCode above). A revocation that a concurrent reuse causes after the
     * win must not turn the win into a failure (CC-01); it only kills the win's tokens. The winner
     * gets the code's user too: in the same statement on PostgreSQL (a CTE), right after on SQLite.
     * A loser learns whether the code was used (reuse: its grant must be revoked) or not usable.
     */
    async consume(codeDigest: string, now: number): Promise<ConsumedCodeOutcome> {
      const won = await (engine === 'postgres' ? consumeJoined(codeDigest, now) : consumeThenRead(codeDigest, now));
      if (won) return { state: 'ok', ...won };
      const [row] = (await findCode(db, engine, codeDigest)).rows;
      if (!row || row.consumed_at === null) return { state: 'missing' };
      return { state: 'reused', row };
    },
    async find(codeDigest: string): Promise<CodeRow | undefined> {
      return (await findCode(db, engine, codeDigest)).rows[0];
    },
    async deleteExpired(before: number): Promise<void> {
      await db.deleteFrom('authorization_codes').where('expires_at', '<', before).execute();
    },
  };
}
