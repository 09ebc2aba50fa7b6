/**
 * Speed-up `pg_pipeline` (docs/performance.md; plain path: each query checks a connection out of
 * the pg.Pool and waits for its answer before the connection serves another).
 *
 * A statement outside a transaction goes on one of a few pipelined connections (pg's `pipeline`
 * mode): it is written behind the statements already on their way there, without waiting for their
 * answers, each with its own Sync, so one failing leaves the others alone. A transaction checks a
 * connection out of the pool at its `begin` and holds it until Kysely releases it. Other work that
 * ties state to its session (the migrator's advisory lock) goes to the pool directly (connect.ts).
 *
 * The connections are split: `lanes` pipelined ones (half of the pool size, rounded up) and the
 * rest in the pool, at least one. A lane that breaks (terminated, the server gone) fails what was
 * on it, marked as the database's (pg-faults.ts: a 503, not a 500), and the next statement opens a
 * new one. Named statements (pg-named.ts) are per connection, so they work on the lanes alike.
 */
import type pg from 'pg';
import type { PoolCounts } from '../../observability/ward-metrics.js';
import { markFromDatabase, type OutageLog } from '../unavailable.js';

/** A transaction's first statement: from it on, the connection Kysely holds is a pool connection. */
const BEGINS = /^(begin|start transaction)\b/i;

/** How `poolSize` connections are split: pipelined lanes, and the pool's for transactions. */
export function pipelineSplit(poolSize: number): { lanes: number; pool: number } {
  const lanes = Math.ceil(poolSize / 2);
  return { lanes, pool: Math.max(1, poolSize - lanes) };
}

type Query = (text: string, values: readonly unknown[]) => Promise<pg.QueryResult>;

interface Lane {
  client: Promise<pg.Client>;
  inFlight: number;
}

/**
 * A pg.Pool look-alike for Kysely's PostgresDialect: `connect()` hands out a connection that runs
 * on the lanes until a transaction begins on it. `newClient` makes a pipelined client set up as the
 * pool's are (its options, named statements, marked errors).
 */
export function pipelinedPool(
  pool: pg.Pool,
  lanes: number,
  newClient: () => pg.Client,
  outage: OutageLog,
): { pool: Pick<pg.Pool, 'connect' | 'end'>; counts: PoolCounts } {
  const open: Array<Lane | undefined> = Array.from({ length: lanes }, () => undefined);

  function lane(i: number): Lane {
    const existing = open[i];
    if (existing) return existing;
    const client = newClient();
    const made: Lane = {
      inFlight: 0,
      client: client.connect().then(
        () => {
          outage.recovered('new connection');
          return client;
        },
        (e: unknown) => {
          forget();
          throw markFromDatabase(e);
        },
      ),
    };
    // A lane that broke is replaced at the next statement; what was on it has failed already.
    const forget = () => {
      if (open[i] === made) open[i] = undefined;
    };
    client.on('error', forget);
    client.on('end', forget);
    open[i] = made;
    return made;
  }

  /** The lane with the fewest statements on their way (the first such). */
  function leastBusy(): Lane {
    let best = lane(0);
    for (let i = 1; i < lanes && best.inFlight > 0; i++) {
      const l = lane(i);
      if (l.inFlight < best.inFlight) best = l;
    }
    return best;
  }

  const onLane: Query = async (text, values) => {
    const l = leastBusy();
    l.inFlight++;
    try {
      const client = await l.client;
      return await client.query(text, values as unknown[]);
    } finally {
      l.inFlight--;
    }
  };

  const connection = () => {
    let held: pg.PoolClient | undefined;
    return {
      async query(text: string, values: readonly unknown[]) {
        if (!held && BEGINS.test(text)) held = await pool.connect();
        return held ? held.query(text, values as unknown[]) : onLane(text, values);
      },
      release() {
        held?.release();
        held = undefined;
      },
    };
  };

  const counts: PoolCounts = {
    get totalCount() {
      return pool.totalCount + open.filter(Boolean).length;
    },
    get idleCount() {
      return pool.idleCount + open.filter((l) => l && l.inFlight === 0).length;
    },
    get waitingCount() {
      return pool.waitingCount;
    },
  };

  return {
    pool: {
      connect: (async () => connection()) as unknown as pg.Pool['connect'],
      async end() {
        const clients = open.filter((l): l is Lane => l !== undefined).map((l) => l.client);
        open.fill(undefined);
        await Promise.all(
          clients.map((c) =>
            c.then(
              (client) => client.end(),
              () => undefined,
            ),
          ),
        );
        await pool.end();
      },
    },
    counts,
  };
}
