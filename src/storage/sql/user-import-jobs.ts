import type { Kysely, Selectable } from 'kysely';
import type { Database, UserImportJobLinesTable, UserImportJobsTable } from '../schema.js';

export type ImportJobRow = Selectable<UserImportJobsTable>;
export type ImportJobLineRow = Selectable<UserImportJobLinesTable>;

/** The counts a job's progress moves. */
export interface ImportJobCounts {
  lines: number;
  created: number;
  updated: number;
  skipped: number;
  refused: number;
  weak_hashes: number;
}

/** Bulk imports run as jobs (migration 027): their state, counts and kept lines, readable by any process. */
export function userImportJobsRepo(db: Kysely<Database>) {
  return {
    async create(job: { id: string; mode: string; format: string; actor: string; now: number }): Promise<void> {
      await db
        .insertInto('user_import_jobs')
        .values({
          id: job.id,
          status: 'running',
          mode: job.mode,
          format: job.format,
          actor: job.actor,
          lines: 0,
          created: 0,
          updated: 0,
          skipped: 0,
          refused: 0,
          weak_hashes: 0,
          lines_kept: 0,
          error_code: null,
          error_message: null,
          created_at: job.now,
          heartbeat_at: job.now,
          finished_at: null,
        })
        .execute();
    },

    find: (id: string): Promise<ImportJobRow | undefined> =>
      db.selectFrom('user_import_jobs').selectAll().where('id', '=', id).executeTakeFirst(),

    /** Keeps lines of the job (refused, skipped, weak hashes). */
    async addLines(lines: ImportJobLineRow[]): Promise<void> {
      if (lines.length) await db.insertInto('user_import_job_lines').values(lines).execute();
    },

    /** Writes the counts so far (and how many more lines were kept) while the job runs. */
    async progress(id: string, counts: ImportJobCounts, added: number, now: number): Promise<void> {
      await db
        .updateTable('user_import_jobs')
        .set((eb) => ({ ...counts, lines_kept: eb('lines_kept', '+', added), heartbeat_at: now }))
        .where('id', '=', id)
        .where('status', '=', 'running')
        .execute();
    },

    /** Ends a running job (done, or failed with its reason). */
    async finish(id: string, status: 'done' | 'failed', now: number, error?: { code: string; message: string }) {
      await db
        .updateTable('user_import_jobs')
        .set({
          status,
          finished_at: now,
          heartbeat_at: now,
          error_code: error?.code ?? null,
          error_message: error?.message.slice(0, 500) ?? null,
        })
        .where('id', '=', id)
        .where('status', '=', 'running')
        .execute();
    },

    /** Marks failed (`interrupted`) the running jobs whose process stopped beating before `staleBefore`. */
    async failStale(staleBefore: number, now: number): Promise<number> {
      const r = await db
        .updateTable('user_import_jobs')
        .set({
          status: 'failed',
          finished_at: now,
          error_code: 'interrupted',
          error_message: 'the process running the import stopped before its end',
        })
        .where('status', '=', 'running')
        .where('heartbeat_at', '<', staleBefore)
        .executeTakeFirst();
      return Number(r.numUpdatedRows);
    },

    /** The job's kept lines after `afterLine`, in line order. */
    lines: (id: string, afterLine: number, limit: number): Promise<ImportJobLineRow[]> =>
      db
        .selectFrom('user_import_job_lines')
        .selectAll()
        .where('job_id', '=', id)
        .where('line', '>', afterLine)
        .orderBy('line')
        .limit(limit)
        .execute(),
  };
}
