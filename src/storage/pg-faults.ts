/**
 * PostgreSQL going away must not take Ward with it. pg reports a dropped connection as an 'error'
 * event: on the pool for an idle client, on the client itself while it is checked out (pg-pool
 * removes its own listener then). An 'error' event nobody listens to throws, and ends the process.
 * So every client and the pool get a listener that logs (once per interval, `outageLog`), and pg-pool
 * drops the broken client and opens new ones when asked: Ward recovers by itself once the server
 * answers again.
 *
 * Errors out of `connect` and `query` are marked as the database's (`markFromDatabase`), so that
 * the HTTP layer can tell an unreachable database (503, retry) from a bug (500).
 */
import type pg from 'pg';
import { markFromDatabase, type OutageLog } from './unavailable.js';

type Query = (...args: unknown[]) => unknown;

const rethrowMarked = (e: unknown): never => {
  throw markFromDatabase(e);
};

/** A client's errors logged, never thrown as an event; its queries' errors marked as the database's. */
export function markingClient(client: pg.ClientBase, outage: OutageLog): void {
  client.on('error', (e) => outage.failed('connection in use', markFromDatabase(e)));
  const query = client.query.bind(client) as Query;
  const marking: Query = (...args) => {
    const out = query(...args);
    // A callback-style call (pg-pool's own) returns nothing to mark; Kysely's calls return a promise.
    return out instanceof Promise ? out.catch(rethrowMarked) : out;
  };
  (client as unknown as { query: Query }).query = marking;
}

export function survivingOutages(pool: pg.Pool, outage: OutageLog): void {
  pool.on('error', (e) => outage.failed('idle connection', markFromDatabase(e)));
  pool.on('connect', (client) => {
    outage.recovered('new connection');
    markingClient(client, outage);
  });
  const connect = pool.connect.bind(pool) as (cb?: unknown) => unknown;
  (pool as unknown as { connect: (cb?: unknown) => unknown }).connect = (cb?: unknown) => {
    if (cb !== undefined) return connect(cb);
    return (connect() as Promise<pg.PoolClient>).catch(rethrowMarked);
  };
}
