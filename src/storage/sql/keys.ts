import type { Kysely, Selectable } from 'kysely';
import type { Database, SigningKeysTable } from '../schema.js';

export type KeyStatus = 'current' | 'previous' | 'revoked';
export type SigningKeyRow = Selectable<SigningKeysTable> & { status: KeyStatus };

export function keysRepo(db: Kysely<Database>) {
  return {
    async insert(k: SigningKeyRow): Promise<void> {
      await db.insertInto('signing_keys').values(k).execute();
    },
    /** Every key that is not revoked (current and previous), all key sets. */
    async listLive(): Promise<SigningKeyRow[]> {
      return (await db
        .selectFrom('signing_keys')
        .selectAll()
        .where('status', '!=', 'revoked')
        .orderBy('created_at')
        .execute()) as SigningKeyRow[];
    },
    async listSet(keySet: string): Promise<SigningKeyRow[]> {
      return (await db
        .selectFrom('signing_keys')
        .selectAll()
        .where('key_set', '=', keySet)
        .orderBy('created_at')
        .execute()) as SigningKeyRow[];
    },
    async find(kid: string): Promise<SigningKeyRow | undefined> {
      return (await db.selectFrom('signing_keys').selectAll().where('kid', '=', kid).executeTakeFirst()) as
        | SigningKeyRow
        | undefined;
    },
    /** Moves the current key of a set (of one algorithm, or of all) to previous. Returns how many keys changed. */
    async retireCurrent(keySet: string, now: number, alg?: string): Promise<number> {
      let q = db
        .updateTable('signing_keys')
        .set({ status: 'previous', retired_at: now })
        .where('key_set', '=', keySet)
        .where('status', '=', 'current');
      if (alg !== undefined) q = q.where('alg', '=', alg);
      const r = await q.executeTakeFirst();
      return Number(r.numUpdatedRows);
    },
    /** Revokes every key of a set (a deleted client). */
    async revokeSet(keySet: string, now: number): Promise<number> {
      const r = await db
        .updateTable('signing_keys')
        .set({ status: 'revoked', revoked_at: now })
        .where('key_set', '=', keySet)
        .where('status', '!=', 'revoked')
        .executeTakeFirst();
      return Number(r.numUpdatedRows);
    },
    async revoke(kid: string, now: number): Promise<boolean> {
      const r = await db
        .updateTable('signing_keys')
        .set({ status: 'revoked', revoked_at: now })
        .where('kid', '=', kid)
        .where('status', '!=', 'revoked')
        .executeTakeFirst();
      return Number(r.numUpdatedRows) === 1;
    },
  };
}
