import {
  createQueryId,
  type Compilable,
  type CompiledQuery,
  type Kysely,
  type QueryCreator,
  type QueryResult,
  type RawBuilder,
} from 'kysely';
import type { Engine } from './connect.js';
import { nameStatement } from './pg-named.js';
import type { Database } from './schema.js';

/** Stands for the i-th argument (or its column `key`, for a row) while the query is built and compiled once. */
class Slot {
  constructor(
    readonly index: number,
    readonly key?: string,
  ) {}
}

/** Every column of a row type, checked by the compiler to be complete (a row argument of a prepared insert). */
export function columnsOf<T>() {
  return <const K extends readonly (keyof T & string)[]>(
    ...keys: K & ([Exclude<keyof T, K[number]>] extends [never] ? unknown : never)
  ): K => keys;
}

interface Template {
  sql: string;
  query: CompiledQuery['query'];
  /** Each parameter: a constant of the query, or the Slot of an argument. */
  parameters: readonly unknown[];
}

/**
 * A hot query built with Kysely once per engine and then only re-filled: Kysely builds and compiles
 * a query on every call (10-15 µs, as much as SQLite takes to run it), while its text and the
 * places of its parameters depend only on its shape. `build` must pass each argument straight in as
 * a value (no arithmetic, no branching on it): the first call checks that every argument landed in
 * the parameters untouched, and throws otherwise. On PostgreSQL it runs as a named statement
 * (`pg-named.ts`). An argument named in `rows` (by position) is a row
 * whose listed columns are each a value (an insert's `values(row)`).
 */
export function prepared<A extends unknown[], O>(
  build: (q: QueryCreator<Database>, ...args: A) => Compilable<O> | RawBuilder<O>,
  rows: Record<number, readonly string[]> = {},
) {
  const templates = new Map<Engine, Template>();
  const arity = build.length - 1;
  const template = (db: Kysely<Database>, engine: Engine): Template => {
    let t = templates.get(engine);
    if (t) return t;
    const slots = Array.from({ length: arity }, (_, i) =>
      rows[i] ? Object.fromEntries(rows[i]!.map((k) => [k, new Slot(i, k)])) : new Slot(i),
    );
    // A raw `sql` query compiles against an executor; a builder ignores the argument.
    const compiled = build(db, ...(slots as unknown as A)).compile(db);
    const used = new Set(
      compiled.parameters.filter((p): p is Slot => p instanceof Slot).map((p) => `${p.index}.${p.key}`),
    );
    const expected = slots.reduce<number>((n, s) => n + (s instanceof Slot ? 1 : Object.keys(s).length), 0);
    const mangled = compiled.parameters.some(
      (p) => (typeof p === 'number' && Number.isNaN(p)) || (typeof p === 'string' && p.includes('[object Object]')),
    );
    if (used.size !== expected || mangled)
      throw new Error(`prepared query: an argument is not passed straight in as a value (${compiled.sql})`);
    t = { sql: compiled.sql, query: compiled.query, parameters: compiled.parameters };
    if (engine === 'postgres') nameStatement(t.sql);
    templates.set(engine, t);
    return t;
  };
  return async (db: Kysely<Database>, engine: Engine, ...args: A): Promise<QueryResult<O>> => {
    const t = template(db, engine);
    const parameters = t.parameters.map((p) =>
      p instanceof Slot
        ? p.key === undefined
          ? args[p.index]
          : ((args[p.index] as Record<string, unknown>)[p.key] ?? null)
        : p,
    );
    return db.executeQuery<O>({ sql: t.sql, query: t.query, parameters, queryId: createQueryId() });
  };
}
