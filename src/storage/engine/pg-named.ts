/**
 * Speed-up `pg_named_statements` (docs/performance.md; plain path: pg's unnamed statements).
 * On PostgreSQL, the hot queries (those `prepared.ts` compiles once) run as named prepared
 * statements: each connection parses and plans one once, then only binds and executes it. Unnamed,
 * every execution is parsed and planned anew, which on these short statements costs the server
 * about as much as running them (B4/B5 gained 25-35% of throughput).
 *
 * A named statement keeps the result columns it was planned with. If the schema changes under it
 * (a newer Ward process adding a column during a rolling upgrade), PostgreSQL refuses it with
 * "cached plan must not change result type"; then every name moves to a new generation, so each
 * connection prepares the statement again, and the query is retried once.
 *
 * The set of names is bounded by the code (one per prepared query), not by the traffic.
 */
import type pg from 'pg';

const names = new Map<string, number>();
let generation = 0;

/** Marks a query text as hot: on PostgreSQL it runs as a named statement from now on. */
export function nameStatement(text: string): void {
  if (!names.has(text)) names.set(text, names.size);
}

const planChanged = (e: unknown): boolean => {
  const err = e as { code?: unknown; message?: unknown };
  return (
    err.code === '0A000' &&
    typeof err.message === 'string' &&
    err.message.includes('cached plan must not change result type')
  );
};

type Query = (text: unknown, values?: unknown, callback?: unknown) => unknown;

/** Makes `client` run the marked texts as named statements. */
export function namingOn(client: pg.ClientBase): void {
  const query = client.query.bind(client) as Query;
  const named: Query = (text, values, callback) => {
    const id = typeof text === 'string' && callback === undefined ? names.get(text) : undefined;
    if (id === undefined) return query(text, values, callback);
    const run = () => query({ name: `ward_${id}_${generation}`, text, values }) as Promise<unknown>;
    const seen = generation;
    return run().catch((e: unknown) => {
      if (!planChanged(e)) throw e;
      if (generation === seen) generation++;
      return run();
    });
  };
  (client as unknown as { query: Query }).query = named;
}

/** Makes every client of `pool` run the marked texts as named statements. */
export function namingStatements(pool: pg.Pool): void {
  pool.on('connect', namingOn);
}
