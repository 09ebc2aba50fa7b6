// SQLite group commit (src/storage/sqlite-batch.ts, http/durable-answers.ts): the writes of one
// turn of the event loop share one commit, behave as if run one after another, and no answer
// leaves before the commit of the writes made before it, or leaves as a success if it failed.
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import SqliteDatabase from 'better-sqlite3';
import Fastify from 'fastify';
import { sql } from 'kysely';
import { installDurableAnswers } from '../../src/http/durable-answers.js';
import { installErrorHandling } from '../../src/http/errors.js';
import { connect, migrate, type Db } from '../../src/storage/connect.js';
import { batchingWrites } from '../../src/storage/sqlite-batch.js';

const dir = () => mkdtempSync(join(tmpdir(), 'ward-batch-'));

describe('SQLite group commit, through Ward\'s storage', () => {
  let d: Db;
  let other: SqliteDatabase.Database;
  const seen = (digest: string) => other.prepare('select count(*) as n from refresh_tokens where digest = ?').get(digest) as { n: number };
  const insert = (digest: string) =>
    sql`insert into refresh_tokens (digest, grant_id, client_id, user_id, scope, created_at) values (${digest}, 'g', 'c', 'u', 'openid', 1)`.execute(d.db);
  before(async () => {
    const path = join(dir(), 'ward.db');
    d = connect({ sqlitePath: path, postgresUrl: null });
    await migrate(d);
    await d.settled?.();
    other = new SqliteDatabase(path, { readonly: true });
  });
  after(async () => {
    other.close();
    await d.close();
  });

  it('the writes of one turn are committed together, once the loop has handled that turn', async () => {
    await Promise.all(['a1', 'a2', 'a3'].map(insert));
    const pending = d.settled!();
    assert.ok(pending, 'a commit is pending');
    assert.equal(seen('a1').n + seen('a2').n + seen('a3').n, 0, 'not visible to another connection before the commit');
    const [mine] = (await sql<{ n: number }>`select count(*) as n from refresh_tokens where digest like 'a%'`.execute(d.db)).rows;
    assert.equal(Number(mine!.n), 3, 'visible to this connection at once, as if run one after another');
    await pending;
    assert.equal(seen('a1').n + seen('a2').n + seen('a3').n, 3, 'all three committed');
    assert.equal(d.settled!(), undefined, 'nothing pending afterwards');
  });

  it('a statement refused on a constraint is undone alone; the others of the batch stand', async () => {
    const results = await Promise.allSettled([insert('b1'), insert('b1'), insert('b2')]);
    assert.deepEqual(results.map((r) => r.status), ['fulfilled', 'rejected', 'fulfilled']);
    await d.settled!();
    assert.equal(seen('b1').n, 1);
    assert.equal(seen('b2').n, 1);
  });

  it('an explicit transaction commits what is pending first and keeps its own boundaries', async () => {
    await insert('c1');
    assert.ok(d.settled!(), 'c1 pending');
    await assert.rejects(d.db.transaction().execute(async (trx) => {
      assert.equal(seen('c1').n, 1, 'the pending write was committed when the transaction began');
      await sql`insert into refresh_tokens (digest, grant_id, client_id, user_id, scope, created_at) values ('c2', 'g', 'c', 'u', 'openid', 1)`.execute(trx);
      throw new Error('roll back');
    }));
    assert.equal(d.settled!(), undefined);
    assert.equal(seen('c2').n, 0, 'the transaction rolled back alone');
    await insert('c3');
    await d.settled!();
    assert.equal(seen('c3').n, 1, 'writes after it batch again');
  });

  it('close commits what is pending', async () => {
    const path = join(dir(), 'ward.db');
    const e = connect({ sqlitePath: path, postgresUrl: null });
    await migrate(e);
    await sql`insert into refresh_tokens (digest, grant_id, client_id, user_id, scope, created_at) values ('d1', 'g', 'c', 'u', 'openid', 1)`.execute(e.db);
    await e.close();
    const check = new SqliteDatabase(path, { readonly: true });
    assert.equal((check.prepare('select count(*) as n from refresh_tokens').get() as { n: number }).n, 1);
    check.close();
  });
});

describe('SQLite group commit: a failed commit', () => {
  // A deferred foreign key is checked at COMMIT: the statement succeeds, the commit fails.
  const open = () => {
    const file = new SqliteDatabase(join(dir(), 'f.db'));
    file.pragma('journal_mode = WAL');
    file.pragma('foreign_keys = ON');
    file.exec('create table parent (id integer primary key); create table child (id integer primary key, parent_id integer references parent(id) deferrable initially deferred)');
    file.exec('insert into parent values (1)');
    const batch = batchingWrites(file);
    const text = 'insert into child values (?, ?)';
    return { file, batch, insert: batch.wrap(file.prepare(text), text) };
  };

  it('rejects the writes\' settled() and leaves none of them', async () => {
    const { file, batch, insert } = open();
    insert.run(1, 1);
    insert.run(2, 999);
    await assert.rejects(batch.settled()!, /FOREIGN KEY/);
    assert.equal(file.inTransaction, false);
    assert.equal((file.prepare('select count(*) as n from child').get() as { n: number }).n, 0, 'the whole batch rolled back');
    insert.run(3, 1);
    await batch.settled();
    assert.equal((file.prepare('select count(*) as n from child').get() as { n: number }).n, 1, 'the next batch commits');
    file.close();
  });

  it('turns the answers that waited for it into a 500 in the API\'s error shape; others are answered', async () => {
    const { file, batch, insert } = open();
    const app = Fastify();
    installErrorHandling(app);
    installDurableAnswers(app, batch);
    app.post('/child/:id/:parent', async (req) => {
      const { id, parent } = req.params as { id: string; parent: string };
      insert.run(Number(id), Number(parent));
      return { stored: true };
    });
    await app.ready();
    try {
      const bad = await app.inject({ method: 'POST', url: '/child/1/999' });
      assert.equal(bad.statusCode, 500);
      assert.equal(bad.json().error_message_key, 'error.unexpected');
      assert.equal(bad.json().stored, undefined, 'the success body never left');
      const good = await app.inject({ method: 'POST', url: '/child/2/1' });
      assert.equal(good.statusCode, 200);
      assert.equal(file.inTransaction, false, 'committed before the answer left');
      assert.equal((file.prepare('select count(*) as n from child').get() as { n: number }).n, 1);
    } finally {
      await app.close();
      file.close();
    }
  });
});
