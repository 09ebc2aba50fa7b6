// PostgreSQL: the prepared (hot) queries run as named statements, parsed and planned once per
// connection (src/storage/engine/pg-named.ts); a schema change under a named statement is survived.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { connect, migrate, type Db } from '../../src/storage/connect.js';
import { prepared } from '../../src/storage/prepared.js';
import { freshPgSchema, testPostgresUrl } from '../helpers/databases.js';

const byDigest = prepared((q, digest: string) =>
  q.selectFrom('refresh_tokens').selectAll().where('digest', '=', digest),
);
const named = (db: Db['db']) =>
  sql<{ name: string; statement: string }>`select name, statement from pg_prepared_statements`
    .execute(db)
    .then((r) => r.rows);

describe('named statements on PostgreSQL', {
  skip: testPostgresUrl() ? false : 'WARD_TEST_DATABASE_URL is not set',
}, () => {
  let d: Db;
  let drop: () => Promise<void>;
  before(async () => {
    const s = await freshPgSchema();
    drop = s.drop;
    // One connection, so the statements seen are those of the connection the queries ran on.
    d = connect({ sqlitePath: '', postgresUrl: s.url, pgSchema: s.schema, poolSize: 1 });
    await migrate(d);
  });
  after(async () => {
    await d?.close();
    await drop?.();
  });

  it('a prepared query is prepared once on its connection and reused; other queries are not named', async () => {
    await sql`insert into refresh_tokens (digest, grant_id, client_id, user_id, scope, created_at) values ('r1', 'g', 'c', 'u', 'openid', 1)`.execute(
      d.db,
    );
    for (let i = 0; i < 3; i++) assert.equal((await byDigest(d.db, 'postgres', 'r1')).rows[0]?.grant_id, 'g');
    assert.equal((await byDigest(d.db, 'postgres', 'r2')).rows.length, 0, "the values are the call's");
    const mine = (await named(d.db)).filter((s) => s.statement.includes('from "refresh_tokens"'));
    assert.equal(mine.length, 1, 'one named statement for the four calls');
    assert.match(mine[0]!.name, /^ward_\d+_\d+$/);
    assert.equal(
      (await named(d.db)).filter((s) => s.statement.includes('pg_prepared_statements')).length,
      0,
      'an ad hoc query is not kept',
    );
  });

  it('a column added under a named statement (a rolling upgrade): the query is prepared again, not refused', async () => {
    assert.equal((await byDigest(d.db, 'postgres', 'r1')).rows.length, 1);
    await sql`alter table refresh_tokens add column note text default 'added'`.execute(d.db);
    const [row] = (await byDigest(d.db, 'postgres', 'r1')).rows as Array<Record<string, unknown>>;
    assert.equal(row?.note, 'added', 'answered with the new column');
    assert.equal((await byDigest(d.db, 'postgres', 'r1')).rows.length, 1, 'and again under its new name');
  });
});
