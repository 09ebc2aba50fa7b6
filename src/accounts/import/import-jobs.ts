// A bulk import run as a job (issue 36): the body is streamed to a file of the data dir (constant
// memory), the job recorded (migration 027) and answered at once; the lines are then applied from the
// file in the background by import-users.ts, each on its own as in a direct import. Progress (counts,
// and the lines worth a look: refused, skipped, weak hashes, at most MAX_KEPT_LINES) is written every
// second, so any process reads it. A job whose process stops (a crash) is not resumed: once its
// heartbeat is older than STALE_MS it is marked failed (`interrupted`), at the next start or when read.
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { randomId } from '../../lib/random.js';
import type { ImportJobCounts, ImportJobLineRow, ImportJobRow } from '../../storage/sql/user-import-jobs.js';
import type { Storage } from '../../storage/storage.js';
import type { ImportReport, LineResult } from './import-users.js';

/** Lines worth a look kept per job; the counts go on past it. */
export const MAX_KEPT_LINES = 10_000;
/** A running job not written for this long belongs to a process that stopped. */
export const STALE_MS = 60_000;
/** How often a running job writes its progress (and its heartbeat). */
const FLUSH_MS = 1000;

export interface ImportJobsDeps {
  storage: Storage;
  now: () => number;
  dataDir: string;
  onError: (e: unknown) => void;
}

/** What a job runs: the import of its spooled source, told of each line. */
export interface ImportJobWork {
  mode: string;
  format: string;
  /** Who started it, as the audit names them. */
  actor: string;
  run(input: Readable, onLine: (r: LineResult, counts: Readonly<ImportReport>) => Promise<void>): Promise<ImportReport>;
  /** Told once the job ended (its last counts, or the failure). */
  ended(job: ImportJobRow): Promise<void>;
}

const countsOf = (r: Readonly<ImportReport>): ImportJobCounts => ({
  lines: r.lines,
  created: r.created,
  updated: r.updated,
  skipped: r.skipped,
  refused: r.refused,
  weak_hashes: r.weak_hashes,
});

export function createImportJobs(deps: ImportJobsDeps) {
  const dir = join(deps.dataDir, 'import-jobs');
  const running = new Map<string, { input: Readable; done: Promise<void> }>();
  /** Shutting down: the jobs still running end as failed (`interrupted`), whatever their source did. */
  let stopping = false;

  async function execute(id: string, file: string, work: ImportJobWork): Promise<void> {
    const input = createReadStream(file);
    let pending: ImportJobLineRow[] = [];
    let kept = 0;
    let last: Readonly<ImportReport> | undefined;
    // The cadence is the process's own time; the heartbeat written is the clock's.
    let lastFlush = performance.now();
    const flush = async () => {
      const rows = pending;
      pending = [];
      lastFlush = performance.now();
      await deps.storage.transaction(async (tx) => {
        await tx.userImportJobs.addLines(rows);
        if (last) await tx.userImportJobs.progress(id, countsOf(last), rows.length, deps.now());
      });
    };
    // A job whose lines are slow still beats (a quiet job is not a dead one).
    const beat = setInterval(() => void flush().catch(deps.onError), STALE_MS / 6);
    const done = (async () => {
      try {
        const report = await work.run(input, async (r, counts) => {
          last = counts;
          if (kept < MAX_KEPT_LINES && (r.status === 'refused' || r.status === 'skipped' || r.weak_hash)) {
            kept++;
            pending.push({
              job_id: id,
              line: r.line,
              status: r.status,
              code: r.code ?? null,
              message: r.message?.slice(0, 500) ?? null,
              user_id: r.user_id ?? null,
              weak_hash: r.weak_hash ? 1 : 0,
            });
          }
          if (pending.length >= 500 || performance.now() - lastFlush >= FLUSH_MS) await flush();
        });
        if (stopping) throw new Error('interrupted');
        last = report;
        await flush();
        await deps.storage.userImportJobs.finish(id, 'done', deps.now(), report.error);
      } catch (e) {
        await flush().catch(() => undefined);
        const stopped = stopping;
        await deps.storage.userImportJobs.finish(id, 'failed', deps.now(), {
          code: stopped ? 'interrupted' : 'import_failed',
          message: stopped ? 'Ward stopped before the end of the import' : 'the import stopped on an internal error',
        });
        if (!stopped) deps.onError(e);
      } finally {
        clearInterval(beat);
        running.delete(id);
        await rm(file, { force: true });
      }
      const row = await deps.storage.userImportJobs.find(id);
      if (row) await work.ended(row);
    })().catch(deps.onError);
    running.set(id, { input, done });
  }

  return {
    /**
     * Streams the source into the data dir, records the job and starts it: its id. An upload that
     * breaks off leaves no job and no file.
     */
    async start(source: Readable, work: ImportJobWork): Promise<string> {
      const id = randomId();
      await mkdir(dir, { recursive: true, mode: 0o700 });
      const file = join(dir, `${id}.${work.format}`);
      try {
        await pipeline(source, createWriteStream(file, { mode: 0o600 }));
        await deps.storage.userImportJobs.create({
          id,
          mode: work.mode,
          format: work.format,
          actor: work.actor,
          now: deps.now(),
        });
      } catch (e) {
        await rm(file, { force: true });
        throw e;
      }
      await execute(id, file, work);
      return id;
    },

    /** A job as stored, after marking failed the running ones whose process stopped. */
    async find(id: string): Promise<ImportJobRow | undefined> {
      const now = deps.now();
      await deps.storage.userImportJobs.failStale(now - STALE_MS, now);
      return deps.storage.userImportJobs.find(id);
    },

    /** At start: the jobs a stopped process left running are failed (they are not resumed). */
    failInterrupted: (now = deps.now()) => deps.storage.userImportJobs.failStale(now - STALE_MS, now),

    /** Stops the jobs of this process (shutdown): each is marked failed, `interrupted`. */
    async stop(): Promise<void> {
      stopping = true;
      const jobs = [...running.values()];
      for (const j of jobs) j.input.destroy(new Error('interrupted'));
      await Promise.all(jobs.map((j) => j.done));
    },

    /** Waits for the jobs of this process to end (tests). */
    async drain(): Promise<void> {
      while (running.size) await Promise.all([...running.values()].map((j) => j.done));
    },
  };
}

export type ImportJobs = ReturnType<typeof createImportJobs>;
