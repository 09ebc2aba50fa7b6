// SQLite group commit (src/storage/engine/group-commit.ts, http/durable-answers.ts): the writes of one
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
import { batchingWrites } from '../../src/storage/engine/group-commit.js';
import { holdingStatements } from '../../src/storage/engine/held-statements.js';

const dir = () => mkdtempSync(join(tmpdir(), 'ward-batch-'));
// On Node 24 a better-sqlite3 statement left to the garbage collector can abort the process: the
// test's own connections hold theirs as Ward's do (src/storage/engine/held-statements.ts).
const opened = (path: string, options?: SqliteDatabase.Options) => {
  const file = new SqliteDatabase(path, options);
  file.prepare = holdingStatements(file) as typeof file.prepare;
  return file;
};

describe("SQLite group commit, through Ward's storage", () => {
  let d: Db;
  let other: SqliteDatabase.Database;
  const seen = (digest: string) =>
    other.prepare('select count(*) as n from refresh_tokens where digest = ?').get(digest) as { n: number };
  const insert = (digest: string) =>
    sql`insert into refresh_tokens (digest, grant_id, client_id, user_id, scope, created_at) values (${digest}, 'g', 'c', 'u', 'openid', 1)`.execute(
      d.db,
    );
  before(async () => {
    const path = join(dir(), 'ward.db');
    d = connect({ sqlitePath: path, postgresUrl: null });
    await migrate(d);
    await d.settled?.();
    other = opened(path, { readonly: true });
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
    const [mine] = (
      await sql<{ n: number }>`select count(*) as n from refresh_tokens where digest like 'a%'`.execute(d.db)
    ).rows;
    assert.equal(Number(mine!.n), 3, 'visible to this connection at once, as if run one after another');
    await pending;
    assert.equal(seen('a1').n + seen('a2').n + seen('a3').n, 3, 'all three committed');
    assert.equal(d.settled!(), undefined, 'nothing pending afterwards');
  });

  it('a statement refused on a constraint is undone alone; the others of the batch stand', async () => {
    const results = await Promise.allSettled([insert('b1'), insert('b1'), insert('b2')]);
    assert.deepEqual(
      results.map((r) => r.status),
      ['fulfilled', 'rejected', 'fulfilled'],
    );
    await d.settled!();
    assert.equal(seen('b1').n, 1);
    assert.equal(seen('b2').n, 1);
  });

  const insertIn = (db: typeof d.db, digest: string) =>
    sql`insert into refresh_tokens (digest, grant_id, client_id, user_id, scope, created_at) values (${digest}, 'g', 'c', 'u', 'openid', 1)`.execute(
      db,
    );
  const turn = () => new Promise<void>((resolve) => setTimeout(resolve, 5));

  it('an explicit transaction joins the shared one: its rollback undoes its own writes, the others commit together', async () => {
    await insert('c1');
    assert.ok(d.settled!(), 'c1 pending');
    await assert.rejects(
      d.db.transaction().execute(async (trx) => {
        assert.equal(seen('c1').n, 0, 'beginning it committed nothing');
        await insertIn(trx, 'c2');
        throw new Error('roll back');
      }),
      /roll back/,
    );
    const [inside] = (
      await sql<{ n: number }>`select count(*) as n from refresh_tokens where digest = 'c2'`.execute(d.db)
    ).rows;
    assert.equal(Number(inside!.n), 0, 'its write is undone at once');
    await insert('c3');
    await d.settled!();
    assert.equal(seen('c1').n + seen('c3').n, 2, 'the writes around it committed');
    assert.equal(seen('c2').n, 0, 'the transaction rolled back alone');
  });

  it('nothing of an open explicit transaction is committed, even while the loop turns; it commits whole once it ends', async () => {
    await d.db.transaction().execute(async (trx) => {
      await insertIn(trx, 'e1');
      await turn();
      await turn();
      assert.equal(seen('e1').n, 0, 'not committed half-way');
      await insertIn(trx, 'e2');
    });
    await d.settled!();
    assert.equal(seen('e1').n + seen('e2').n, 2);
    await assert.rejects(
      d.db.transaction().execute(async (trx) => {
        await insertIn(trx, 'e3');
        await turn();
        throw new Error('late failure');
      }),
      /late failure/,
    );
    await d.settled?.();
    assert.equal(seen('e3').n, 0, 'a failure after a turn of the loop still undoes everything it wrote');
  });

  it('a statement refused inside an explicit transaction rolls back that transaction only', async () => {
    await insert('f1');
    await assert.rejects(
      d.db.transaction().execute(async (trx) => {
        await insertIn(trx, 'f2');
        await insertIn(trx, 'f1'); // primary key taken
      }),
    );
    await d.settled!();
    assert.equal(seen('f1').n, 1);
    assert.equal(seen('f2').n, 0);
  });

  it('the answer of a request that ran an explicit transaction leaves once it is committed', async () => {
    const app = Fastify();
    installErrorHandling(app);
    installDurableAnswers(app, { settled: () => d.settled!() });
    app.post('/tx/:digest', async (req) => {
      const { digest } = req.params as { digest: string };
      await d.db.transaction().execute((trx) => insertIn(trx, digest));
      return { stored: true };
    });
    await app.ready();
    try {
      const res = await app.inject({ method: 'POST', url: '/tx/g1' });
      assert.equal(res.statusCode, 200);
      assert.equal(seen('g1').n, 1, 'visible to another connection when the answer left');
    } finally {
      await app.close();
    }
  });

  it('close commits what is pending', async () => {
    const path = join(dir(), 'ward.db');
    const e = connect({ sqlitePath: path, postgresUrl: null });
    await migrate(e);
    await sql`insert into refresh_tokens (digest, grant_id, client_id, user_id, scope, created_at) values ('d1', 'g', 'c', 'u', 'openid', 1)`.execute(
      e.db,
    );
    await e.close();
    const check = opened(path, { readonly: true });
    assert.equal((check.prepare('select count(*) as n from refresh_tokens').get() as { n: number }).n, 1);
    check.close();
  });
});

describe('SQLite group commit: a failed commit', () => {
  // A deferred foreign key is checked at COMMIT: the statement succeeds, the commit fails.
  const open = () => {
    const file = opened(join(dir(), 'f.db'));
    file.exec('pragma journal_mode = WAL');
    file.exec('pragma foreign_keys = ON');
    file.exec(
      'create table parent (id integer primary key); create table child (id integer primary key, parent_id integer references parent(id) deferrable initially deferred)',
    );
    file.exec('insert into parent values (1)');
    const batch = batchingWrites(file);
    const text = 'insert into child values (?, ?)';
    return { file, batch, insert: batch.wrap(file.prepare(text), text) };
  };

  it("rejects the writes' settled() and leaves none of them", async () => {
    const { file, batch, insert } = open();
    insert.run(1, 1);
    insert.run(2, 999);
    await assert.rejects(batch.settled()!, /FOREIGN KEY/);
    assert.equal(file.inTransaction, false);
    assert.equal(
      (file.prepare('select count(*) as n from child').get() as { n: number }).n,
      0,
      'the whole batch rolled back',
    );
    insert.run(3, 1);
    await batch.settled();
    assert.equal(
      (file.prepare('select count(*) as n from child').get() as { n: number }).n,
      1,
      'the next batch commits',
    );
    file.close();
  });

  it("turns the answers that waited for it into a 500 in the API's error shape; others are answered", async () => {
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
