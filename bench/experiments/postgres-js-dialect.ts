// Kysely over `postgres` (porsager) through kysely-postgres-js, set as connect() sets `pg` (issue 40).
// Two users: bench/pg-drivers.ts (storage only, its postgres.js drivers) and the `postgres-js`
// what-if (`npm run bench -- --experiment postgres-js`), for which bench/ward.ts builds Ward with
// connect()'s PostgreSQL dialect replaced by postgresJsDialect() below: the whole Ward on postgres.js,
// statements prepared and pipelined, src/ untouched. Everything else connect() returns (the `pg` pool
// for LISTEN/NOTIFY and the pool metrics, outage handling) stays as it is; Ward's queries no longer
// go through that pool, so it stays without connections.
// Not adopted: postgres.js 3.4.9 can end the process when a connection closes under it
// (docs/performance.md, "postgres.js fails the fault tests"); Ward pipelines with pg instead.
import type { DatabaseIntrospector, Dialect, Kysely } from 'kysely';
import { PostgresJSDialect, type PostgresJSDialectConfig } from 'kysely-postgres-js';
import postgres from 'postgres';

export type Sql = ReturnType<typeof postgres>;

/** Names the experiment's PostgreSQL sessions in pg_stat_activity (unless the URL names them). */
export const POSTGRES_JS_APP = 'ward/postgres.js';

/**
 * postgres.js set as connect() sets pg: a pool of `max` (10), int8 (epoch ms) as Number, undefined as
 * null, 5 s to connect. `connection`: startup parameters (search_path, application_name, options);
 * those of the URL's query (`?options=-c search_path=...`, as bench/ward.ts's postgresDb() gives Ward)
 * are sent too and win over these, as the URL's do over connect()'s options in pg.
 */
export function postgresJs(url: string, connection: Record<string, string>, max = 10): Sql {
  return postgres(url, {
    max,
    prepare: true,
    connect_timeout: 5,
    onnotice: () => undefined,
    transform: { undefined: null },
    types: { int8: { to: 20, from: [20], serialize: String, parse: Number } },
    connection,
  });
}

/**
 * What kysely-postgres-js is given instead of the Sql: `unsafe` prepared (kysely-postgres-js's own call
 * is not, whatever postgres.js's `prepare` says), a connection reserved per Kysely connection, or, if
 * `pipelined`, only for a transaction (the other queries share the pool's connections and pipeline on
 * them).
 */
export const preparing = (s: Sql, pipelined: boolean) => ({
  end: () => s.end(),
  reserve: async () => {
    let held = pipelined ? undefined : await s.reserve();
    return {
      unsafe: async (text: string, values: unknown[] = []) => {
        if (!held && /^(begin|start transaction)\b/i.test(text)) held = await s.reserve();
        return (held ?? s).unsafe(text, values as never[], { prepare: true });
      },
      release: () => held?.release(),
    };
  },
});

/** A dialect class whose introspector is Ward's (src/storage/engine/own-schema.ts: its own schema only). */
export interface IntrospectorOf {
  prototype: { createIntrospector(db: Kysely<unknown>): DatabaseIntrospector };
}

/** kysely-postgres-js's dialect over `sql` with the introspector of `own` (OwnSchemaPostgresDialect). */
export function ownSchemaPostgresJs(sql: PostgresJSDialectConfig['postgres'], own: IntrospectorOf): Dialect {
  return new (class extends PostgresJSDialect {
    override createIntrospector(db: Kysely<unknown>) {
      return own.prototype.createIntrospector.call(this, db);
    }
  })({ postgres: sql });
}

/**
 * `--experiment postgres-js`: the dialect connect() gets in place of `new OwnSchemaPostgresDialect({ pool })`
 * (bench/ward.ts makes that swap at build time, passing connect()'s options and OwnSchemaPostgresDialect):
 * postgres.js pipelined and prepared, a pool of `poolSize` (10) like pg's, in `pgSchema` when given
 * (connect() gives pg `options: -c search_path=<schema>`), else in the URL's (`options` parameter).
 */
export function postgresJsDialect(
  opts: { postgresUrl: string | null; pgSchema?: string; poolSize?: number },
  own: IntrospectorOf,
): Dialect {
  if (!opts.postgresUrl) throw new Error('postgres-js experiment: no PostgreSQL URL');
  const connection: Record<string, string> = {
    application_name: POSTGRES_JS_APP,
    ...(opts.pgSchema ? { options: `-c search_path=${opts.pgSchema}` } : {}),
  };
  const url = opts.postgresUrl;
  return ownSchemaPostgresJs(() => preparing(postgresJs(url, connection, opts.poolSize ?? 10), true), own);
}
