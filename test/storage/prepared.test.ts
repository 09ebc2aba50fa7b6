// Prepared queries (src/storage/prepared.ts): built and compiled once per engine, then re-filled.
// The same template must answer every later call with that call's arguments, inside a transaction
// too, and a query whose argument does not reach the parameters untouched must be refused.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import type { Db } from '../../src/storage/connect.js';
import { columnsOf, prepared } from '../../src/storage/prepared.js';
import type { RefreshTokenRow } from '../../src/storage/sql/tokens.js';
import { TUNED } from '../../src/config/tuning.js';
import { engines, freshDb } from '../helpers/databases.js';

const COLUMNS = columnsOf<RefreshTokenRow>()(
  'digest',
  'grant_id',
  'client_id',
  'user_id',
  'scope',
  'created_at',
  'consumed_at',
);
const insert = prepared((q, t: RefreshTokenRow) => q.insertInto('refresh_tokens').values(t), { 0: COLUMNS });
const byClient = prepared((q, clientId: string, after: number) =>
  q
    .selectFrom('refresh_tokens')
    .select(['digest', 'consumed_at'])
    .where('client_id', '=', clientId)
    .where('created_at', '>', after)
    .orderBy('digest'),
);
const consume = prepared((q, digest: string, now: number) =>
  q
    .updateTable('refresh_tokens')
    .set({ consumed_at: now })
    .where('digest', '=', digest)
    .where('consumed_at', 'is', null),
);

for (const engine of engines()) {
  describe(`prepared queries on ${engine}`, () => {
    let d: Db;
    before(async () => {
      d = await freshDb(engine, TUNED);
    });
    after(async () => d.close());

    const row = (digest: string, clientId: string, createdAt: number): RefreshTokenRow => ({
      digest,
      grant_id: 'g',
      client_id: clientId,
      user_id: 'u',
      scope: 'openid',
      created_at: createdAt,
      consumed_at: null,
    });

    it('answers each call with its own arguments from one template', async () => {
      await insert(d.db, engine, row('a1', 'A', 10));
      await insert(d.db, engine, row('a2', 'A', 20));
      await insert(d.db, engine, row('b1', 'B', 30));
      assert.deepEqual(
        (await byClient(d.db, engine, 'A', 0)).rows.map((r) => r.digest),
        ['a1', 'a2'],
      );
      assert.deepEqual(
        (await byClient(d.db, engine, 'A', 15)).rows.map((r) => r.digest),
        ['a2'],
      );
      assert.deepEqual(
        (await byClient(d.db, engine, 'B', 0)).rows.map((r) => r.digest),
        ['b1'],
      );
      assert.equal((await consume(d.db, engine, 'a1', 99)).numAffectedRows, 1n);
      assert.equal(
        (await consume(d.db, engine, 'a1', 100)).numAffectedRows,
        0n,
        "the condition is the template's, the values the call's",
      );
      assert.deepEqual(
        (await byClient(d.db, engine, 'A', 0)).rows.map((r) => Number(r.consumed_at ?? 0)),
        [99, 0],
      );
    });

    it('a row argument fills its columns by name (a missing one is null) and runs inside a transaction', async () => {
      const { consumed_at: _, ...partial } = row('c1', 'C', 40);
      await d.db.transaction().execute(async (trx) => {
        await insert(trx, engine, partial as RefreshTokenRow);
        assert.equal((await byClient(trx, engine, 'C', 0)).rows.length, 1, 'seen inside the transaction');
      });
      assert.deepEqual((await byClient(d.db, engine, 'C', 0)).rows, [{ digest: 'c1', consumed_at: null }]);
      await assert.rejects(
        d.db.transaction().execute(async (trx) => {
          await insert(trx, engine, row('c2', 'C', 50));
          throw new Error('roll back');
        }),
      );
      assert.equal((await byClient(d.db, engine, 'C', 0)).rows.length, 1, 'rolled back with its transaction');
    });

    it('refuses a query whose argument is computed on, not passed in', async () => {
      const shifted = prepared((q, after: number) =>
        q
          .selectFrom('refresh_tokens')
          .select('digest')
          .where('created_at', '>', after - 1),
      );
      await assert.rejects(shifted(d.db, engine, 5), /not passed straight in/);
      const joined = prepared((q, prefix: string) =>
        q.selectFrom('refresh_tokens').select('digest').where('digest', '=', `${prefix}1`),
      );
      await assert.rejects(joined(d.db, engine, 'a'), /not passed straight in/);
      const dropped = prepared((q, _unused: string) => q.selectFrom('refresh_tokens').select(sql<number>`1`.as('one')));
      await assert.rejects(dropped(d.db, engine, 'x'), /not passed straight in/);
    });
  });
}
