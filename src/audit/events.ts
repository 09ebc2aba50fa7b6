import type { Logger } from 'pino';
import type { Clock } from '../lib/clock.js';
import { randomId } from '../lib/random.js';
import type { WardMetrics } from '../observability/ward-metrics.js';
import type { AuditRow } from '../storage/sql/audit.js';
import type { Storage } from '../storage/storage.js';
import { isDatabaseUnavailable, type OutageLog } from '../storage/unavailable.js';
import { eventOfAudit, type OutboxRepos, writeOutbox } from '../webhooks/outbox.js';

type Level = 'info' | 'warn' | 'error';

/**
 * A security event that reports a change, its webhook outbox rows already written in that change's
 * transaction (`stage`); `emitStaged` logs it and buffers its audit row once the change committed.
 */
export interface StagedEvent {
  readonly name: string;
  readonly fields: Record<string, unknown>;
  readonly row: AuditRow;
  /** The deliveries its outbox rows queued. */
  readonly queued: number;
}

/** Outcome of an event by its name: refusals and failures are not successes. */
function outcomeOf(name: string): 'success' | 'failed' | 'denied' {
  if (/(failed|reused|replayed|refused|limit_reached)$/.test(name))
    return name.endsWith('limit_reached') || name.endsWith('refused') ? 'denied' : 'failed';
  return 'success';
}

const FLUSH_MS = 100;
const FLUSH_ROWS = 100;
/** While the database is unreachable, the rows wait and a write is tried again every second... */
const RETRY_MS = 1000;
/** ...up to this many rows (a few MB): past it the oldest are dropped, and the log says how many. */
const MAX_HELD = 10_000;

/**
 * Security-relevant outcomes (login.failed, code.reused, mfa.code_sent, mfa.verification_failed,
 * mfa.stepup_verified, ...): one named log line at once and one row of the audit log, with who and
 * for which client. Never a secret in either: callers pass ids and reasons only.
 *
 * These events come from the public endpoints' hot paths (every wrong code, every step of a
 * step-up), so their audit rows are buffered and written in one multi-row insert every 100 ms (or
 * every 100 events), not one commit each. `flush()` writes what is pending: the audit API calls it
 * before reading, and shutdown calls it last (`final`). The log line is never delayed.
 *
 * A webhook event (webhooks/catalog.ts) is written with its audit row in the batch's transaction,
 * unless it reports a change: then `stage` writes it in the change's own transaction and
 * `emitStaged` buffers only its audit row (docs/webhooks.md, the outbox).
 *
 * A database outage loses no row that can be kept: a batch that failed because the database is
 * unreachable goes back in front of the pending rows and is written when the database answers again.
 */
export function createSecurityEvents(deps: {
  storage: Storage;
  log: Logger;
  clock: Clock;
  metrics: WardMetrics;
  outage?: OutageLog;
  /**
   * Told when a batch wrote webhook deliveries (the webhook sender then looks at once), and asked
   * whether this process knows of an enabled endpoint (`emitNow` writes its outbox rows only then).
   */
  webhooks?: { kick(): void; endpointsEnabled?(): boolean };
}) {
  let pending: AuditRow[] = [];
  let timer: NodeJS.Timeout | null = null;
  let writing: Promise<void> = Promise.resolve();
  /** The last write found the database unreachable: only the retry timer writes until one succeeds. */
  let holding = false;
  /** Buffered rows whose outbox rows their change's transaction wrote (stage): the batch writes none. */
  const staged = new WeakSet<AuditRow>();
  /** Whether a buffered staged event queued deliveries (the next flush tells the sender). */
  let stagedQueued = false;

  function schedule(ms: number): void {
    if (timer) return;
    timer = setTimeout(() => void flush(), ms);
    timer.unref();
  }

  function hold(rows: AuditRow[], e: unknown): void {
    holding = true;
    deps.outage?.failed('audit write', e);
    pending = rows.concat(pending);
    if (pending.length > MAX_HELD) {
      const dropped = pending.length - MAX_HELD;
      pending = pending.slice(dropped);
      deps.log.error({ events: dropped }, 'audit rows dropped: the database has been unreachable for too long');
    }
    schedule(RETRY_MS);
  }

  function flush(final = false): Promise<void> {
    if (timer) {
      clearTimeout(timer);
      timer = null;
    }
    const rows = pending;
    pending = [];
    // Staged events queued deliveries (already committed): the sender is told once per batch, as for
    // the batch's own events, not once per event.
    if (stagedQueued) {
      stagedQueued = false;
      deps.webhooks?.kick();
    }
    // Batches are written one after another, so their order in the table follows the events'.
    writing = writing.then(async () => {
      if (!rows.length) return;
      try {
        // Rows that are webhook events get their outbox rows in the same transaction (webhooks/outbox.ts),
        // but a staged row: its outbox rows were written in its change's transaction.
        const events = rows.filter((row) => !staged.has(row) && eventOfAudit(row) !== null);
        if (events.length) {
          const queued = await deps.storage.transaction(async (tx) => {
            await tx.audit.insertMany(rows);
            return writeOutbox(tx, events, deps.clock.now());
          });
          if (queued) deps.webhooks?.kick();
        } else await deps.storage.audit.insertMany(rows);
        holding = false;
      } catch (e) {
        if (!final && isDatabaseUnavailable(e)) return hold(rows, e);
        const what = final ? 'audit write failed at shutdown: rows lost' : 'audit write failed';
        deps.log.error({ err: e, events: rows.length }, what);
      }
    });
    return writing;
  }

  /** The audit row of an event, as the batch writes it. */
  function rowOf(name: string, fields: Record<string, unknown>): AuditRow {
    const userId = typeof fields.user_id === 'string' ? fields.user_id : null;
    const clientId = typeof fields.client_id === 'string' ? fields.client_id : null;
    const { user_id: _u, client_id: _c, ...details } = fields;
    return {
      id: randomId(),
      at: deps.clock.now(),
      actor_type: userId ? 'user' : 'client',
      actor_id: userId ?? clientId ?? 'anonymous',
      action: name,
      target: clientId ? `client:${clientId}`.slice(0, 400) : null,
      ip: typeof fields.ip === 'string' ? fields.ip : null,
      outcome: outcomeOf(name),
      details: JSON.stringify(details),
    };
  }

  function log(name: string, fields: Record<string, unknown>, message: string, level: Level): void {
    deps.log[level]({ event: name, ...fields }, message);
    deps.metrics.securityEvent(name, fields);
  }

  function buffer(row: AuditRow): void {
    pending.push(row);
    if (pending.length >= FLUSH_ROWS && !holding) void flush();
    else schedule(FLUSH_MS);
  }

  return {
    /**
     * An event with no change of its own in the database (login.failed, a code sent, ...): logged at
     * once; its audit row, and the webhook event it stands for, written with the next batch.
     */
    async emit(name: string, fields: Record<string, unknown>, message: string, level: Level = 'info'): Promise<void> {
      log(name, fields, message, level);
      buffer(rowOf(name, fields));
    },
    /**
     * The webhook outbox rows of an event that reports a change, written with `tx`: call it inside the
     * change's transaction, and `emitStaged` with its answer after the commit. A rolled-back change
     * thus sends nothing, and a committed one always has its event; the audit row itself is still
     * buffered (the batch keeps the hot paths' inserts cheap).
     */
    async stage(tx: OutboxRepos, name: string, fields: Record<string, unknown>): Promise<StagedEvent> {
      const row = rowOf(name, fields);
      const queued = eventOfAudit(row) ? await writeOutbox(tx, [row], row.at) : 0;
      return { name, fields, row, queued };
    },
    /**
     * An event the caller acknowledges at once with no change of its own to share a transaction with
     * (login.succeeded: the answer may be a tkn or tokens, a session or none): its webhook outbox rows
     * are written now, before the answer, so a crash after it cannot lose the event; its audit row is
     * buffered. When this process knows of no enabled endpoint (the sender's flag, kept by the change
     * poller) it costs no query: the event goes with the batch, whose write looks at the endpoints
     * again, so an endpoint enabled by another process a moment ago still gets it.
     */
    async emitNow(
      name: string,
      fields: Record<string, unknown>,
      message: string,
      level: Level = 'info',
    ): Promise<void> {
      if (deps.webhooks?.endpointsEnabled?.() === false) {
        log(name, fields, message, level);
        buffer(rowOf(name, fields));
        return;
      }
      const row = rowOf(name, fields);
      const queued = eventOfAudit(row) ? await writeOutbox(deps.storage, [row], row.at) : 0;
      log(name, fields, message, level);
      staged.add(row);
      buffer(row);
      if (queued) stagedQueued = true;
    },
    /** A staged event once its change committed: logged at once, its audit row buffered. */
    emitStaged(event: StagedEvent, message: string, level: Level = 'info'): void {
      log(event.name, event.fields, message, level);
      staged.add(event.row);
      buffer(event.row);
      if (event.queued) stagedQueued = true;
    },
    flush,
  };
}

export type SecurityEvents = ReturnType<typeof createSecurityEvents>;
