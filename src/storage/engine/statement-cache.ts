/**
 * Speed-up `statement_cache` (docs/performance.md). Kysely's SQLite driver prepares every query
 * anew; the same query shape always yields the same SQL text, so a statement compiled once per text
 * is reused (better-sqlite3 runs a statement to its end synchronously, and Ward never streams, so
 * sharing one is safe). Bounded: the query shapes are a fixed set, but an unexpected growth (an IN
 * list of varying length) evicts the oldest. Plain path: `db.prepare` per query, as Kysely does.
 */
import type SqliteDatabase from 'better-sqlite3';

type Prepare = (text: string) => SqliteDatabase.Statement;

export function cachingStatements(prepare: Prepare): Prepare {
  const cache = new Map<string, SqliteDatabase.Statement>();
  return (text) => {
    let stmt = cache.get(text);
    if (stmt === undefined) {
      stmt = prepare(text);
      if (cache.size >= 2000) cache.delete(cache.keys().next().value!);
      cache.set(text, stmt);
    }
    return stmt;
  };
}
