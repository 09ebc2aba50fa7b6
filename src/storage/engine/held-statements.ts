/**
 * better-sqlite3's objects are never left to the garbage collector. Built against Node 24's
 * headers, the destructor of its Database and Statement (node::ObjectWrap) unregisters an
 * environment cleanup hook, and when V8 collects one in a collection started by an allocation in
 * JavaScript, Node finds no environment and aborts the process (`RemoveEnvironmentCleanupHook ...
 * Assertion failed: (env) != nullptr`, issue 40). So each connection prepares one statement per SQL
 * text and keeps it, and every connection is kept, until the process exits: Node's own cleanup at
 * exit deletes them, in the environment. Closing a connection still finalizes its statements and
 * releases SQLite's memory; what stays is a small wrapper each. The SQL texts are a fixed set (the
 * query shapes), so is the number of statements. Node 20 and 22 have no such hook: the same code.
 */
import type SqliteDatabase from 'better-sqlite3';

type Prepare = (text: string) => SqliteDatabase.Statement;

const held = new Set<SqliteDatabase.Database>();

/**
 * The connection's `prepare`: one statement per text, held with the connection until exit; `made`
 * (the group commit's wrapper) sees each statement once, when it is prepared.
 */
export function holdingStatements(
  file: SqliteDatabase.Database,
  made: (stmt: SqliteDatabase.Statement, text: string) => SqliteDatabase.Statement = (stmt) => stmt,
): Prepare {
  held.add(file);
  const prepare = file.prepare.bind(file);
  const statements = new Map<string, SqliteDatabase.Statement>();
  return (text) => {
    let stmt = statements.get(text);
    if (stmt === undefined) statements.set(text, (stmt = made(prepare(text), text)));
    return stmt;
  };
}
