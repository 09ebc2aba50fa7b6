/**
 * Speed-up `sqlite_pragmas` (docs/performance.md), measured under the step-up flow:
 * - Statement journals in memory. Inside the group commit's transaction every write statement keeps
 *   the undo of the pages it changes; once that spilled to a temporary file, each statement paid
 *   two more write syscalls. A statement journal is never read after a crash, so a file buys nothing.
 * - The WAL is copied back into the database file (a checkpoint, with two fsyncs, inline in the
 *   commit that crosses the limit) every 16,000 pages instead of 1,000: a page rewritten many times
 *   is copied once, and the fsyncs are paid 16 times less often. The WAL grows to ~64 MB at most,
 *   and is cut back to that size after a larger transaction.
 * Plain path: SQLite's defaults for these three.
 */
export const SQLITE_TUNING = [
  'temp_store = MEMORY',
  'wal_autocheckpoint = 16000',
  `journal_size_limit = ${64 * 1024 * 1024}`,
];
