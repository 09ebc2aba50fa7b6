// The speed-ups Ward carries on top of its plain library paths (docs/performance.md: what each one
// gains on the benchmark scenario it was made for). `WARD_TUNING=off` turns every one off, so a
// suspected speed-up bug can be told from a product bug by running the same requests on the plain
// path; `WARD_TUNING_OFF=<name>,...` turns single ones off (the benchmark measures each that way).
// The composition (registry.ts, app.ts, main.ts, cli.ts) reads this; nothing else branches on it.
export const SPEED_UPS = [
  /** SQLite: the writes of one event-loop turn share one transaction (storage/engine/group-commit.ts). */
  'group_commit',
  /** SQLite: statement journal in memory, rarer checkpoints (storage/engine/sqlite-pragmas.ts). */
  'sqlite_pragmas',
  /** Hot queries compiled once and re-filled (storage/engine/query-templates.ts). */
  'query_templates',
  /** PostgreSQL: the compiled hot queries as named prepared statements (storage/engine/pg-named.ts). */
  'pg_named_statements',
  /** PostgreSQL: statements outside a transaction pipelined on a few connections (storage/engine/pg-pipeline.ts). */
  'pg_pipeline',
  /** zxcvbn's dictionaries ranked at build time (accounts/tuning/prepared-dictionaries.ts). */
  'prepared_dictionaries',
  /** JWK Set and discovery answered before Fastify (http/tuning/document-fast-path.ts). */
  'document_fast_path',
  /** Route schemas compiled on first use (http/tuning/lazy-validation.ts). */
  'lazy_validation',
  /** ID tokens signed with node:crypto directly, RS256 off the event loop (keys/tuning/jws.ts). */
  'direct_jws',
  /** Emails built by Ward's own MIME writer, not nodemailer's composer (integrations/tuning/mime.ts). */
  'mime_writer',
  /** CSPRNG bytes drawn from a 4 KiB block (lib/tuning/random-pool.ts). */
  'random_pool',
  /** Refusals (WardError below 500) without a stack trace (errors/ward-error.ts). */
  'stackless_client_errors',
  /** A smaller young generation and slower old-generation growth (lib/tuning/heap-flags.ts). */
  'heap_flags',
  /** Bulk import: 100 lines per transaction, a savepoint each (accounts/import/tuning/apply-batch.ts). */
  'import_batches',
  /** Bulk export: the next page of users read while this one is written (accounts/import/tuning/export-prefetch.ts). */
  'export_prefetch',
] as const;

export type SpeedUp = (typeof SPEED_UPS)[number];
/**
 * Names that were speed-ups and are now the only path: still accepted in WARD_TUNING_OFF, and no-ops.
 * `statement_cache`: since issue 40 every SQLite connection holds one statement per text
 * (storage/engine/held-statements.ts), the plain path included.
 */
const RETIRED = ['statement_cache'];
/** Which speed-ups are on. */
export type Tuning = Readonly<Record<SpeedUp, boolean>>;

const all = (on: boolean): Tuning => Object.fromEntries(SPEED_UPS.map((s) => [s, on])) as Record<SpeedUp, boolean>;
export const TUNED: Tuning = all(true);
export const PLAIN: Tuning = all(false);

/**
 * `WARD_TUNING` (`on` | `off`) and `WARD_TUNING_OFF` (speed-up names, comma-separated, turned off
 * on their own); a problem message per bad value.
 */
export function parseTuning(
  value: unknown,
  offList: string | undefined,
  problem: (key: string, message: string) => void,
): Tuning {
  const raw = value ?? 'on';
  const on = raw === 'on' || raw === true ? true : raw === 'off' || raw === false ? false : null;
  if (on === null) problem('WARD_TUNING', `must be "on" or "off", got ${JSON.stringify(raw)}`);
  const tuning: Record<SpeedUp, boolean> = { ...(on === false ? PLAIN : TUNED) };
  for (const name of (offList ?? '').split(',').map((s) => s.trim())) {
    if (name === '' || RETIRED.includes(name)) continue;
    if ((SPEED_UPS as readonly string[]).includes(name)) tuning[name as SpeedUp] = false;
    else problem('WARD_TUNING_OFF', `unknown speed-up ${JSON.stringify(name)}; known: ${SPEED_UPS.join(', ')}`);
  }
  return tuning;
}
