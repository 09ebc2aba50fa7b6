/**
 * When the database cannot be reached (PostgreSQL stopped, restarting, failing over, or Ward's
 * connections terminated), a call fails with one of these. Such a failure is the database's, not the
 * request's: the caller answers 503 with Retry-After and tries again later, and nothing about it may
 * end the process.
 *
 * A socket error (ECONNREFUSED) looks the same from an SMTP server or an upstream identity provider,
 * so only errors the storage layer marked as its own (`markFromDatabase`, pg-faults.ts) count.
 */

const FROM_DATABASE = Symbol('ward.fromDatabase');

/** Marks an error as raised by the database driver; returns it. */
export function markFromDatabase<E>(e: E): E {
  if (typeof e === 'object' && e !== null && !(FROM_DATABASE in e)) {
    Object.defineProperty(e, FROM_DATABASE, { value: true, enumerable: false });
  }
  return e;
}

/** Socket-level failures of reaching the server or of a connection it dropped. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/**
 * SQLSTATEs of an unreachable or unusable server: class 08 (connection exception); 57P01-57P03
 * (terminated by an administrator, crash shutdown, cannot connect now: starting up or shutting
 * down); 53300 (too many connections); 25006 (a write to a read-only standby, as after a failover
 * before the client reaches the new primary).
 */
const SQLSTATES = new Set(['57P01', '57P02', '57P03', '53300', '25006']);

/** pg's own errors carry no code, only these messages (pg and pg-pool 8.x). */
const PG_MESSAGES = [
  'Connection terminated',
  'Client has encountered a connection error and is not queryable',
  'Client was closed and is not queryable',
  'timeout exceeded when trying to connect',
  'Query read timeout',
  'Cannot use a pool after calling end on the pool',
];

function unavailableItself(e: unknown): boolean {
  if (typeof e !== 'object' || e === null) return false;
  const { code, message } = e as { code?: unknown; message?: unknown };
  if (typeof code === 'string') {
    if (NETWORK_CODES.has(code) || SQLSTATES.has(code) || (code.length === 5 && code.startsWith('08'))) return true;
  }
  return typeof message === 'string' && PG_MESSAGES.some((m) => message.startsWith(m));
}

/** True when the database driver raised `e` because the database is unreachable, not because the query was wrong. */
export function isDatabaseUnavailable(e: unknown): boolean {
  if (typeof e !== 'object' || e === null || !(FROM_DATABASE in e)) return false;
  if (unavailableItself(e)) return true;
  // AggregateError: a connection refused on each address of a host name (127.0.0.1 and ::1).
  const inner = (e as { errors?: unknown }).errors;
  return Array.isArray(inner) && inner.length > 0 && inner.every(unavailableItself);
}

/**
 * What a log line may say about such an error: its code and message, never a query or its values.
 * Top-level keys: the logger redacts any nested `code` (verification codes).
 */
export function describeUnavailable(e: unknown): { error_code?: string; error_message: string } {
  const { code, message, errors } = (e ?? {}) as { code?: unknown; message?: unknown; errors?: unknown };
  if (!message && Array.isArray(errors) && errors.length) return describeUnavailable(errors[0]);
  const text = typeof message === 'string' ? message : String(e);
  return { ...(typeof code === 'string' ? { error_code: code } : {}), error_message: text.slice(0, 200) };
}

export interface OutageLog {
  /** A failure: logged at once if none was in the last interval, else counted into the next line. */
  failed(source: string, e: unknown): void;
  /** The database answered again after failures: logged once. */
  recovered(source: string): void;
}

type LineWriter = (obj: object, msg: string) => void;

/**
 * During an outage every request and every background loop fails the same way, several times a
 * second: one line per interval says so, with how many failures since the last line it stands for.
 */
export function outageLog(log: { warn: LineWriter; info: LineWriter }, intervalMs = 5000): OutageLog {
  let lastAt = 0;
  let suppressed = 0;
  let down = false;
  return {
    failed(source, e) {
      down = true;
      const now = Date.now();
      if (now - lastAt < intervalMs) {
        suppressed++;
        return;
      }
      const fields = { event: 'database_unavailable', source, ...describeUnavailable(e), suppressed };
      log.warn(fields, 'database unavailable');
      lastAt = now;
      suppressed = 0;
    },
    recovered(source) {
      if (!down) return;
      down = false;
      lastAt = 0;
      suppressed = 0;
      log.info({ event: 'database_available', source }, 'database available again');
    },
  };
}
