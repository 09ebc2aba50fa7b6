import type { Kysely, Selectable } from 'kysely';
import type { AuthorizationCodesTable, Database } from '../schema.js';

export type CodeRow = Selectable<AuthorizationCodesTable>;

/** The outcome of a consume: exactly one concurrent caller gets `ok`. */
export type Consumed<T> = { state: 'ok'; row: T } | { state: 'reused'; row: T } | { state: 'missing' };

export function codesRepo(db: Kysely<Database>) {
  return {
    async insert(c: CodeRow): Promise<void> {
      await db.insertInto('authorization_codes').values(c).execute();
    },
    /**
     * Marks a code used with one conditional UPDATE: of many concurrent callers exactly one wins.
     * The same statement refuses a code whose grant is already revoked (logout, an earlier reuse),
     * so the winner never has to re-read its grant: a revocation that a concurrent reuse causes
     * after the win must not turn the win into a failure (CC-01); it only kills the win's tokens.
     * A loser learns whether the code was used (reuse: its grant must be revoked) or not usable.
     */
    async consume(codeDigest: string, now: number): Promise<Consumed<CodeRow>> {
      const won = await db
        .updateTable('authorization_codes')
        .set({ consumed_at: now })
        .where('code_digest', '=', codeDigest)
        .where('consumed_at', 'is', null)
        .where(({ not, exists, selectFrom }) =>
          not(exists(selectFrom('grants').select('grants.id').whereRef('grants.id', '=', 'authorization_codes.grant_id').where('grants.revoked_at', 'is not', null))),
        )
        .returningAll()
        .executeTakeFirst();
      if (won) return { state: 'ok', row: won };
      const seen = await db.selectFrom('authorization_codes').selectAll().where('code_digest', '=', codeDigest).executeTakeFirst();
      if (!seen || seen.consumed_at === null) return { state: 'missing' };
      return { state: 'reused', row: seen };
    },
    /**
     * Whether another code of this client carried the same PKCE challenge (RFC 9700 2.1.1: a
     * constant challenge means a constant verifier). Wants an index on (client_id, code_challenge).
     */
    async challengeSeenBefore(clientId: string, challenge: string, exceptDigest: string): Promise<boolean> {
      const row = await db
        .selectFrom('authorization_codes')
        .select('code_digest')
        .where('client_id', '=', clientId)
        .where('code_challenge', '=', challenge)
        .where('code_digest', '!=', exceptDigest)
        .limit(1)
        .executeTakeFirst();
      return row !== undefined;
    },
    async find(codeDigest: string): Promise<CodeRow | undefined> {
      return db.selectFrom('authorization_codes').selectAll().where('code_digest', '=', codeDigest).executeTakeFirst();
    },
    async deleteExpired(before: number): Promise<void> {
      await db.deleteFrom('authorization_codes').where('expires_at', '<', before).execute();
    },
  };
}
