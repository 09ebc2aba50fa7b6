// Messenger webhook kit: the durable local queue (SQLite through better-sqlite3, one file).
// A delivery is split into its entry[].messaging[] items and written in one transaction (synchronous,
// synchronous=FULL) before the webhook answers 200, so a crash after the answer loses nothing.
// Each item has a de-duplication key, so a redelivered event is stored (and processed) once:
//   linked     -> "link:" + sha256(authorization_code)   (the code itself is not used as a key)
//   message    -> "mid:" + message.mid / postback.mid
//   otherwise  -> "sha:" + sha256(page id + the item's JSON)  (same content = same event)
// Finished items keep their key (payload redacted) for retentionMs, then are purged.
import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import type { ItemKind, LinkFailure, LinkedProfile, MessagingEvent, QueueStats } from './types.js';

export interface QueueItem {
  id: number;
  kind: ItemKind;
  psid: string;
  event: MessagingEvent;
  attempts: number;
  /** Set once the code was exchanged and the id_token verified (only onLinked is left). */
  result: { profile: LinkedProfile; claims: Record<string, unknown> } | null;
}

interface Row {
  id: number;
  kind: ItemKind;
  psid: string;
  payload: string;
  attempts: number;
  result: string | null;
}

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

export function kindOf(event: MessagingEvent): ItemKind {
  const status = event.account_linking?.status;
  if (status === 'linked') return 'linked';
  if (status === 'unlinked') return 'unlinked';
  return 'message';
}

export function dedupeKey(pageId: string, event: MessagingEvent): string {
  const code = event.account_linking?.status === 'linked' ? event.account_linking.authorization_code : undefined;
  if (typeof code === 'string' && code) return `link:${sha256(code)}`;
  const mid = event.message?.mid ?? event.postback?.mid;
  if (typeof mid === 'string' && mid) return `mid:${mid}`;
  return `sha:${sha256(`${pageId}\n${JSON.stringify(event)}`)}`;
}

/** The payload kept after an item finished: no authorization code. */
function redact(event: MessagingEvent): string {
  if (!event.account_linking?.authorization_code) return JSON.stringify(event);
  return JSON.stringify({ ...event, account_linking: { ...event.account_linking, authorization_code: '[redacted]' } });
}

// On Node 24 a better-sqlite3 database or statement left to the garbage collector can abort the
// process (`RemoveEnvironmentCleanupHook ... (env) != nullptr`; Ward's storage/engine/held-statements.ts
// says why; the kit imports nothing of Ward's). So the queue prepares one statement per text and holds
// it, with its database, until the process exits; its settings go through `exec` (no statement).
const held = new Set<Database.Database>();

function holding(db: Database.Database): Database.Database {
  held.add(db);
  const prepare = db.prepare.bind(db);
  const statements = new Map<string, Database.Statement>();
  db.prepare = ((text: string) => {
    let stmt = statements.get(text);
    if (stmt === undefined) statements.set(text, (stmt = prepare(text)));
    return stmt;
  }) as typeof db.prepare;
  return db;
}

export class DurableQueue {
  private readonly db: Database.Database;

  constructor(
    path: string,
    private readonly now: () => number,
  ) {
    if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
    this.db = holding(new Database(path));
    this.db.exec('pragma journal_mode = WAL');
    this.db.exec('pragma synchronous = FULL');
    this.db.exec('pragma busy_timeout = 5000');
    this.db.exec(`CREATE TABLE IF NOT EXISTS messenger_items (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      dedupe_key TEXT NOT NULL UNIQUE,
      kind TEXT NOT NULL,
      psid TEXT NOT NULL,
      payload TEXT NOT NULL,
      status TEXT NOT NULL DEFAULT 'pending',
      result TEXT,
      attempts INTEGER NOT NULL DEFAULT 0,
      next_at INTEGER NOT NULL,
      received_at INTEGER NOT NULL,
      finished_at INTEGER,
      last_error TEXT
    );
    CREATE INDEX IF NOT EXISTS messenger_items_due ON messenger_items (status, next_at);
    CREATE INDEX IF NOT EXISTS messenger_items_psid ON messenger_items (psid, status);`);
  }

  /** Stores every new item of one delivery in one transaction; answers how many were new. */
  enqueue(items: Array<{ pageId: string; event: MessagingEvent }>): { added: number; duplicates: number } {
    const insert =
      this.db.prepare(`INSERT OR IGNORE INTO messenger_items (dedupe_key, kind, psid, payload, next_at, received_at)
      VALUES (?, ?, ?, ?, ?, ?)`);
    const t = this.now();
    let added = 0;
    this.db.transaction(() => {
      for (const { pageId, event } of items) {
        added += insert.run(
          dedupeKey(pageId, event),
          kindOf(event),
          event.sender.id,
          JSON.stringify(event),
          t,
          t,
        ).changes;
      }
    })();
    return { added, duplicates: items.length - added };
  }

  /**
   * The items due now, oldest first, at most one per PSID and never a PSID in `busy`: an item waits
   * while an older unfinished item of the same PSID exists (a link is handled before its unlink).
   */
  due(limit: number, busy: Set<string>): QueueItem[] {
    if (limit <= 0) return [];
    const rows = this.db
      .prepare(`SELECT id, kind, psid, payload, attempts, result FROM messenger_items m
      WHERE status = 'pending' AND next_at <= ?
        AND id = (SELECT MIN(id) FROM messenger_items o WHERE o.psid = m.psid AND o.status = 'pending')
      ORDER BY id LIMIT ?`)
      .all(this.now(), limit + busy.size) as Row[];
    return rows
      .filter((r) => !busy.has(r.psid))
      .slice(0, limit)
      .map((r) => ({
        id: r.id,
        kind: r.kind,
        psid: r.psid,
        event: JSON.parse(r.payload) as MessagingEvent,
        attempts: r.attempts,
        result: r.result ? (JSON.parse(r.result) as QueueItem['result']) : null,
      }));
  }

  /**
   * When the next item waiting for a retry becomes due (null: none). Items due now are not counted:
   * they run already, or start when a running item finishes.
   */
  nextRetryAt(): number | null {
    const r = this.db
      .prepare(`SELECT MIN(next_at) AS t FROM messenger_items WHERE status = 'pending' AND next_at > ?`)
      .get(this.now()) as { t: number | null };
    return r.t;
  }

  /** Records an attempt before it runs, so a crash mid-way still counts it. */
  markAttempt(id: number): void {
    this.db.prepare('UPDATE messenger_items SET attempts = attempts + 1 WHERE id = ?').run(id);
  }

  saveResult(id: number, result: NonNullable<QueueItem['result']>): void {
    this.db.prepare('UPDATE messenger_items SET result = ? WHERE id = ?').run(JSON.stringify(result), id);
  }

  finish(item: QueueItem): void {
    this.db
      .prepare(
        `UPDATE messenger_items SET status = 'done', result = NULL, payload = ?, finished_at = ?, last_error = ` +
          `NULL WHERE id = ?`,
      )
      .run(redact(item.event), this.now(), item.id);
  }

  fail(item: QueueItem, error: string): void {
    this.db
      .prepare(
        `UPDATE messenger_items SET status = 'failed', result = NULL, payload = ?, finished_at = ?, last_error = ? ` +
          `WHERE id = ?`,
      )
      .run(redact(item.event), this.now(), error, item.id);
  }

  retryLater(id: number, at: number, error: string): void {
    this.db.prepare('UPDATE messenger_items SET next_at = ?, last_error = ? WHERE id = ?').run(at, error, id);
  }

  stats(): QueueStats {
    const rows = this.db.prepare('SELECT status, COUNT(*) AS n FROM messenger_items GROUP BY status').all() as Array<{
      status: string;
      n: number;
    }>;
    const get = (s: string) => rows.find((r) => r.status === s)?.n ?? 0;
    return { pending: get('pending'), done: get('done'), failed: get('failed') };
  }

  failures(): LinkFailure[] {
    return this.db
      .prepare(
        `SELECT psid, kind, last_error AS error, attempts FROM messenger_items WHERE status = 'failed' ORDER BY id`,
      )
      .all() as LinkFailure[];
  }

  purge(retentionMs: number): number {
    return this.db
      .prepare(`DELETE FROM messenger_items WHERE status != 'pending' AND finished_at < ?`)
      .run(this.now() - retentionMs).changes;
  }

  close(): void {
    this.db.close();
  }
}
