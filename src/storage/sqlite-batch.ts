/**
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
 * others stand (SQLite's ABORT); an explicit transaction (`begin`, Kysely's `transaction()`) first
 * commits what is pending, then keeps its own boundaries.
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

const STARTS_TRANSACTION = /^\s*(begin|savepoint)\b/i;

export function batchingWrites(file: SqliteDatabase.Database): Batching {
  let open = false;
  let waiters: Waiters | undefined;

  const end = (error?: unknown) => {
    open = false;
    const w = waiters;
    waiters = undefined;
    if (w) error === undefined ? w.resolve() : w.reject(error);
  };
  const flush = () => {
    if (!open) return;
    try {
      file.exec('commit');
      end();
    } catch (e) {
      if (file.inTransaction) file.exec('rollback');
      end(e);
    }
  };
  const joined = <T>(run: () => T): T => {
    if (!file.inTransaction) {
      file.exec('begin');
      open = true;
      setImmediate(flush);
    }
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
      if (STARTS_TRANSACTION.test(text)) {
        const run = stmt.run.bind(stmt);
        stmt.run = ((...args: unknown[]) => {
          flush();
          return run(...(args as []));
        }) as Statement['run'];
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
        const promise = new Promise<void>((res, rej) => ((resolve = res), (reject = rej)));
        waiters = { promise, resolve, reject };
      }
      return waiters.promise;
    },
    flush,
  };
}
