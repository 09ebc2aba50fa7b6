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
     * A loser learns whether the code existed (reuse: its grant must be revoked) or not.
     */
    async consume(codeDigest: string, now: number): Promise<Consumed<CodeRow>> {
      const won = await db
        .updateTable('authorization_codes')
        .set({ consumed_at: now })
        .where('code_digest', '=', codeDigest)
        .where('consumed_at', 'is', null)
        .returningAll()
        .executeTakeFirst();
      if (won) return { state: 'ok', row: won };
      const seen = await db.selectFrom('authorization_codes').selectAll().where('code_digest', '=', codeDigest).executeTakeFirst();
      return seen ? { state: 'reused', row: seen } : { state: 'missing' };
    },
    async deleteExpired(before: number): Promise<void> {
      await db.deleteFrom('authorization_codes').where('expires_at', '<', before).execute();
    },
  };
}
