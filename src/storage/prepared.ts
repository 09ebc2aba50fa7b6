import {
  createQueryId,
  type Compilable,
  type Kysely,
  type QueryCreator,
  type QueryResult,
  type RawBuilder,
} from 'kysely';
import type { Engine } from './connect.js';
import { compileTemplate, fill, usesQueryTemplates, type Template } from './engine/query-templates.js';
import type { Database } from './schema.js';

/** Every column of a row type, checked by the compiler to be complete (a row argument of a prepared insert). */
export function columnsOf<T>() {
  return <const K extends readonly (keyof T & string)[]>(
    ...keys: K & ([Exclude<keyof T, K[number]>] extends [never] ? unknown : never)
  ): K => keys;
}

/**
 * A hot query: `build` makes it with Kysely from its arguments, each passed straight in as a value
 * (no arithmetic, no branching on it: the tuned path compiles it once with placeholders and checks
 * that). An argument named in `rows` (by position) is a row whose listed columns are each a value
 * (an insert's `values(row)`). Plain path: built and compiled by Kysely on every call. Tuned
 * (`engine/query-templates.ts`): compiled once per engine and re-filled.
 */
export function prepared<A extends unknown[], O>(
  build: (q: QueryCreator<Database>, ...args: A) => Compilable<O> | RawBuilder<O>,
  rows: Record<number, readonly string[]> = {},
) {
  const templates = new Map<Engine, Template>();
  return async (db: Kysely<Database>, engine: Engine, ...args: A): Promise<QueryResult<O>> => {
    if (!usesQueryTemplates(db)) return db.executeQuery<O>(build(db, ...args).compile(db));
    let t = templates.get(engine);
    if (!t) templates.set(engine, (t = compileTemplate(db, engine, build, rows)));
    return db.executeQuery<O>({ sql: t.sql, query: t.query, parameters: fill(t, args), queryId: createQueryId() });
  };
}
