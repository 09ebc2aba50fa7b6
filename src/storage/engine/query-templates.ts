/**
 * Speed-up `query_templates` (docs/performance.md): a hot query built with Kysely once per engine
 * and then only re-filled. Kysely builds and compiles a query on every call (10-15 µs, as much as
 * SQLite takes to run it), while its text and the places of its parameters depend only on its
 * shape. The query's builder must pass each argument straight in as a value (no arithmetic, no
 * branching on it): the first compile checks that every argument landed in the parameters
 * untouched, and throws otherwise. On PostgreSQL the text is marked for a named statement
 * (`pg-named.ts`). Plain path (`prepared.ts`): the builder runs and Kysely compiles on every call.
 */
import type { CompiledQuery, DialectAdapter, Kysely, QueryCreator, Compilable, RawBuilder } from 'kysely';
import type { Database } from '../schema.js';
import { nameStatement } from './pg-named.js';

/** Stands for the i-th argument (or its column `key`, for a row) while the query is built and compiled once. */
class Slot {
  constructor(
    readonly index: number,
    readonly key?: string,
  ) {}
}

export interface Template {
  sql: string;
  query: CompiledQuery['query'];
  /** Each parameter: a constant of the query, or the Slot of an argument. */
  parameters: readonly unknown[];
}

// connect.ts's Engine, spelled out: connect.ts imports this module.
type Engine = 'sqlite' | 'postgres';
type Build<A extends unknown[], O> = (q: QueryCreator<Database>, ...args: A) => Compilable<O> | RawBuilder<O>;

// The connections that use templates, by their Kysely adapter (shared by a connection's transactions).
const tuned = new WeakSet<DialectAdapter>();

/** Makes the queries of `prepared.ts` run on `db` (and its transactions) from templates. */
export function useQueryTemplates(db: Kysely<Database>): void {
  tuned.add(db.getExecutor().adapter);
}

export const usesQueryTemplates = (db: Kysely<Database>): boolean => tuned.has(db.getExecutor().adapter);

/** Compiles `build` once with placeholder arguments (`rows`: the columns of a row argument). */
export function compileTemplate<A extends unknown[], O>(
  db: Kysely<Database>,
  engine: Engine,
  build: Build<A, O>,
  rows: Record<number, readonly string[]>,
): Template {
  const slots = Array.from({ length: build.length - 1 }, (_, i) =>
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
  if (engine === 'postgres') nameStatement(compiled.sql);
  return { sql: compiled.sql, query: compiled.query, parameters: compiled.parameters };
}

/** The parameters of `t` for these arguments. */
export function fill(t: Template, args: readonly unknown[]): unknown[] {
  return t.parameters.map((p) =>
    p instanceof Slot
      ? p.key === undefined
        ? args[p.index]
        : ((args[p.index] as Record<string, unknown>)[p.key] ?? null)
      : p,
  );
}
