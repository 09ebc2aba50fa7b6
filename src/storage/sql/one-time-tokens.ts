import type { Kysely, Selectable } from 'kysely';
import type { Database, OneTimeTokensTable } from '../schema.js';
import type { Consumed } from './codes.js';

export type OneTimeTokenRow = Selectable<OneTimeTokensTable>;

/**
 * Single-use tokens (tkn, step_up, ...). Records are typed by `kind`: a value minted as one kind can
 * never be consumed as another (Keycloak CVE-2026-4282: a flat, untyped single-use store).
 */
export function oneTimeTokensRepo(db: Kysely<Database>) {
  return {
    async insert(t: OneTimeTokenRow): Promise<void> {
      await db.insertInto('one_time_tokens').values(t).execute();
    },
    /**
     * Records a value used once (a DPoP proof's jti, a client assertion's jti) already consumed: false when it was recorded
     * before, by this process or another (the primary key decides; nothing is read first).
     */
    async claim(t: OneTimeTokenRow): Promise<boolean> {
      const res = await db
        .insertInto('one_time_tokens')
        .values(t)
        .onConflict((oc) => oc.column('digest').doNothing())
        .executeTakeFirst();
      return Number(res.numInsertedOrUpdatedRows ?? 0) === 1;
    },
    async consume(kind: string, digest: string, now: number): Promise<Consumed<OneTimeTokenRow>> {
      const won = await db
        .updateTable('one_time_tokens')
        .set({ consumed_at: now })
        .where('digest', '=', digest)
        .where('kind', '=', kind)
        .where('consumed_at', 'is', null)
        .returningAll()
        .executeTakeFirst();
      if (won) return { state: 'ok', row: won };
      const seen = await db
        .selectFrom('one_time_tokens')
        .selectAll()
        .where('digest', '=', digest)
        .where('kind', '=', kind)
        .executeTakeFirst();
      return seen ? { state: 'reused', row: seen } : { state: 'missing' };
    },
    async deleteExpired(before: number): Promise<void> {
      await db.deleteFrom('one_time_tokens').where('expires_at', '<', before).execute();
    },
    async find(kind: string, digest: string): Promise<OneTimeTokenRow | undefined> {
      return db
        .selectFrom('one_time_tokens')
        .selectAll()
        .where('digest', '=', digest)
        .where('kind', '=', kind)
        .executeTakeFirst();
    },
  };
}
