/**
 * Speed-up `group_commit` (docs/performance.md; plain path: each write commits on its own).
 * Group commit on SQLite. A commit is most of what a small write costs (~28 µs autocommitted, a few
 * µs inside a transaction), and Ward's requests each write one to four rows. So the writes made
 * outside an explicit transaction during one turn of the event loop share one transaction, opened
 * by the first and committed once the loop has handled that turn's I/O (`setImmediate`).
 *
 * Nothing is answered before it is committed: `settled()` is the commit the answers wait for (the
 * HTTP layer holds every response until it resolves, see `http/durable-answers.ts`). If the commit
 * fails, or an error makes SQLite roll the shared transaction back, `settled()` rejects and those
 * answers become errors: no client is told of a write that did not happen.
 *
 * Semantics are those of running the statements one after another: it is one connection, so every
 * statement sees the ones before it; a statement that fails on a constraint is undone alone and the
 * others stand (SQLite's ABORT).
 *
 * An explicit transaction (Kysely's `transaction()`: `begin` ... `commit` or `rollback`) joins the
 * shared transaction as a savepoint instead of committing what is pending and paying a commit of
 * its own. It keeps a transaction's guarantees: its `rollback` undoes its writes and nothing else;
 * nothing else runs in the middle of it (Kysely holds the one connection until it ends); and it is
 * durable like every other write, since the shared commit is held back while it is open (even
 * across turns of the loop) and its answer waits for that commit.
 */
import type SqliteDatabase from 'better-sqlite3';

type Statement = SqliteDatabase.Statement;

export interface Batching {
  /** The statement to run for `text`: writes outside a transaction join the shared one. */
  wrap(stmt: Statement, text: string): Statement;
  /** The commit of what is pending: undefined when nothing is; rejects if that commit failed. */
  settled(): Promise<void> | undefined;
  /** Commits what is pending now (before an explicit transaction, at shutdown). */
  flush(): void;
}

interface Waiters {
  promise: Promise<void>;
  resolve: () => void;
  reject: (e: unknown) => void;
}

// Kysely's SQLite driver: `begin`, `commit`, `rollback`, exactly.
const EXPLICIT = /^\s*(begin|commit|rollback)\s*;?\s*$/i;
const SAVEPOINT = 'ward_explicit';
const NOTHING_CHANGED = { changes: 0, lastInsertRowid: 0 };

export function batchingWrites(file: SqliteDatabase.Database): Batching {
  let open = false;
  let waiters: Waiters | undefined;
  /** An explicit transaction is open (as a savepoint): the commit waits for its end, which schedules it again. */
  let explicit = false;

  const end = (error?: unknown) => {
    open = false;
    const w = waiters;
    waiters = undefined;
    if (w) error === undefined ? w.resolve() : w.reject(error);
  };
  const flush = () => {
    if (!open) return;
    if (!file.open) return end(new Error('The database was closed before its writes were committed'));
    if (explicit) return;
    try {
      file.exec('commit');
      end();
    } catch (e) {
      if (file.inTransaction) file.exec('rollback');
      end(e);
    }
  };
  const openShared = () => {
    if (file.inTransaction) return;
    file.exec('begin');
    open = true;
    setImmediate(flush);
  };
  const endExplicit = () => {
    explicit = false;
    if (open) setImmediate(flush);
  };
  /** Kysely's `begin` / `commit` / `rollback`, as a savepoint in the shared transaction. */
  const explicitStep = (verb: string): typeof NOTHING_CHANGED => {
    if (verb === 'begin') {
      if (explicit) throw new Error('begin inside an explicit transaction');
      openShared();
      file.exec(`savepoint ${SAVEPOINT}`);
      explicit = true;
    } else if (explicit) {
      // After an error that made SQLite roll everything back there is no savepoint left to end.
      if (file.inTransaction)
        file.exec(verb === 'commit' ? `release ${SAVEPOINT}` : `rollback to ${SAVEPOINT}; release ${SAVEPOINT}`);
      endExplicit();
    } else {
      throw new Error(`${verb} without an explicit transaction`);
    }
    return NOTHING_CHANGED;
  };
  const joined = <T>(run: () => T): T => {
    openShared();
    try {
      return run();
    } catch (e) {
      // SQLite rolled the whole transaction back (I/O error, full disk...): the writes before this
      // one are gone too, and their answers must not claim them.
      if (open && !file.inTransaction) end(e);
      throw e;
    }
  };

  return {
    wrap(stmt, text) {
      const verb = EXPLICIT.exec(text)?.[1]?.toLowerCase();
      if (verb) {
        stmt.run = (() => explicitStep(verb)) as unknown as Statement['run'];
        return stmt;
      }
      if (stmt.readonly) return stmt;
      const run = stmt.run.bind(stmt);
      const all = stmt.all.bind(stmt);
      const get = stmt.get.bind(stmt);
      stmt.run = ((...args: unknown[]) => joined(() => run(...(args as [])))) as Statement['run'];
      stmt.all = ((...args: unknown[]) => joined(() => all(...(args as [])))) as Statement['all'];
      stmt.get = ((...args: unknown[]) => joined(() => get(...(args as [])))) as Statement['get'];
      return stmt;
    },
    settled() {
      if (!open) return undefined;
      if (!waiters) {
        let resolve!: () => void;
        let reject!: (e: unknown) => void;
        const promise = new Promise<void>((res, rej) => {
          resolve = res;
          reject = rej;
        });
        waiters = { promise, resolve, reject };
      }
      return waiters.promise;
    },
    flush,
  };
}
