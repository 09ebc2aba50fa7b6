// Every statement's duration and kind, told to whoever watches the database (the metrics' query
// histogram, a span per call when tracing is on), through Kysely's `log` option: Kysely times each
// statement on its connection and calls the logger in the caller's async context (so a span finds
// the request's span as its parent). The statement's text has placeholders only: values are
// parameters, which are never passed on.
import type { LogEvent, RootOperationNode } from 'kysely';

export interface QueryObservation {
  engine: 'sqlite' | 'postgres';
  /** select, insert, update, delete, or a raw statement's first word (begin, commit, pragma, ...) */
  operation: string;
  /** The SQL text, with placeholders for every value. */
  text: string;
  /** When it ended (epoch ms) and how long it took (ms). */
  endedAt: number;
  durationMs: number;
  failed: boolean;
}

export type QueryObserver = (q: QueryObservation) => void;

const NODE_KINDS: Partial<Record<RootOperationNode['kind'], string>> = {
  SelectQueryNode: 'select',
  InsertQueryNode: 'insert',
  UpdateQueryNode: 'update',
  DeleteQueryNode: 'delete',
  MergeQueryNode: 'merge',
};
const RAW_WORDS = new Set([
  'select',
  'insert',
  'update',
  'delete',
  'with',
  'begin',
  'commit',
  'rollback',
  'savepoint',
  'release',
  'pragma',
  'create',
  'alter',
  'drop',
  'set',
  'listen',
  'notify',
]);

/** The statement's kind, from a closed set (a metric label). */
export function operationOf(kind: RootOperationNode['kind'], text: string): string {
  const known = NODE_KINDS[kind];
  if (known) return known;
  const word = /^\s*([a-zA-Z]+)/.exec(text)?.[1]?.toLowerCase() ?? '';
  return RAW_WORDS.has(word) ? word : 'other';
}

/** Kysely's `log` option that tells each observer about every statement. */
export function observingQueries(engine: QueryObservation['engine'], observers: readonly QueryObserver[]) {
  return (event: LogEvent): void => {
    const text = event.query.sql;
    const q: QueryObservation = {
      engine,
      operation: operationOf(event.query.query.kind, text),
      text,
      endedAt: Date.now(),
      durationMs: event.queryDurationMillis,
      failed: event.level === 'error',
    };
    for (const observe of observers) observe(q);
  };
}
