// A bulk import as a job (issue 36, accounts/import/import-jobs.ts): `POST /api/v1/users/import/jobs`
// takes the same body and query as `POST /api/v1/users/import`, streams it to the data dir and answers
// 202 with the job and its Location; `GET /api/v1/users/import/:jobId` reads its state, counts and the
// lines worth a look a page at a time, from any process.
import type { Readable } from 'node:stream';
import { Type } from 'typebox';
import { type ImportJobs, MAX_KEPT_LINES } from '../accounts/import/import-jobs.js';
import { importUsers } from '../accounts/import/import-users.js';
import { recordAudit } from '../audit/record.js';
import type { RateLimit } from '../config/types.js';
import { WardError } from '../errors/ward-error.js';
import { partialObject, stringEnum } from '../http/schema-types.js';
import type { ImportJobLineRow, ImportJobRow } from '../storage/sql/user-import-jobs.js';
import { managementRoute, type ManagementRoute } from './route.js';
import {
  batchLinesOf,
  firebaseOf,
  formatOf,
  importDeps,
  importedUser,
  importQuery,
  NDJSON,
  type UserImportRoutesDeps,
} from './user-import-routes.js';

/** The services this module uses (registry.ts builds them; the composition passes them in). */
export interface UserImportJobRoutesDeps extends UserImportRoutesDeps {
  importJobs: ImportJobs;
}

/** Reading a job is polled: a looser rule than bulk_users, per caller. */
const READ_RULE: RateLimit = { limit: 300, window_seconds: 60 };
const PAGE = 100;
const MAX_PAGE = 1000;

const lineSchema = partialObject({
  line: Type.Integer(),
  status: stringEnum(['skipped', 'refused', 'created', 'updated']),
  user_id: Type.String(),
  code: Type.String(),
  message: Type.String(),
  weak_hash: Type.Boolean(),
});

const jobSchema = partialObject({
  id: Type.String(),
  status: stringEnum(['running', 'done', 'failed']),
  mode: stringEnum(['create', 'upsert']),
  format: stringEnum(['ndjson', 'json']),
  created_at: Type.String({ format: 'date-time' }),
  updated_at: Type.String({ format: 'date-time', description: 'the last progress written' }),
  finished_at: Type.String({ format: 'date-time' }),
  lines: Type.Integer({ description: 'lines read so far' }),
  created: Type.Integer(),
  updated: Type.Integer(),
  skipped: Type.Integer(),
  refused: Type.Integer(),
  weak_hashes: Type.Integer(),
  lines_kept: Type.Integer({ description: `refused, skipped and weak-hash lines kept (at most ${MAX_KEPT_LINES})` }),
  lines_truncated: Type.Boolean({ description: 'more lines were worth a look than were kept' }),
  results: Type.Array(lineSchema, { description: 'a page of the kept lines, in line order' }),
  next_after_line: Type.Integer({ description: 'after_line for the next page (absent on the last)' }),
  error: partialObject({ code: Type.String(), message: Type.String() }),
});

const iso = (ms: number) => new Date(ms).toISOString();

function view(job: ImportJobRow, page: ImportJobLineRow[], limit: number) {
  const last = page[page.length - 1];
  return {
    id: job.id,
    status: job.status,
    mode: job.mode,
    format: job.format,
    created_at: iso(Number(job.created_at)),
    updated_at: iso(Number(job.heartbeat_at)),
    ...(job.finished_at === null ? {} : { finished_at: iso(Number(job.finished_at)) }),
    lines: job.lines,
    created: job.created,
    updated: job.updated,
    skipped: job.skipped,
    refused: job.refused,
    weak_hashes: job.weak_hashes,
    lines_kept: job.lines_kept,
    lines_truncated: job.skipped + job.refused + job.weak_hashes > job.lines_kept,
    results: page.map((l) => ({
      line: l.line,
      status: l.status,
      ...(l.user_id ? { user_id: l.user_id } : {}),
      ...(l.code ? { code: l.code } : {}),
      ...(l.message ? { message: l.message } : {}),
      ...(l.weak_hash ? { weak_hash: true } : {}),
    })),
    ...(last && page.length === limit ? { next_after_line: last.line } : {}),
    ...(job.error_code ? { error: { code: job.error_code, message: job.error_message ?? '' } } : {}),
  };
}

export function userImportJobRoutes(r: UserImportJobRoutesDeps): ManagementRoute[] {
  const { report: _report, ...jobQuery } = importQuery.properties;
  return [
    managementRoute({
      method: 'POST',
      url: '/api/v1/users/import/jobs',
      tag: 'users',
      permission: 'manage:users',
      audit: 'users.import_started',
      summary:
        'Import users as a job: the body (as for POST /api/v1/users/import) is streamed to storage, the job answered at once (202, Location), its lines applied in the background',
      query: partialObject(jobQuery, { additionalProperties: false }),
      stream: { [NDJSON]: importedUser, 'application/json': Type.Array(importedUser) },
      response: { status: 202, schema: jobSchema },
      handler: async ({ actor, query: q, req, reply }) => {
        await r.limiter('users_import', req.ip, r.account().rate_limits.bulk_users);
        const firebase = firebaseOf(q as Record<string, string | undefined>);
        const format = formatOf(req.headers['content-type']);
        const mode = (q as { mode?: 'create' | 'upsert' }).mode ?? 'create';
        const id = await r.importJobs.start(req.body as Readable, {
          mode,
          format,
          actor: `${actor.type}:${actor.id}`,
          run: (input, onLine) =>
            importUsers(importDeps(r), input, {
              format,
              mode,
              reportAll: false,
              firebase,
              onLine,
              batchLines: batchLinesOf(r),
            }),
          // The end is audited as a direct import is, by the one who started it.
          ended: (job) =>
            recordAudit(
              r.storage,
              r.clock.now(),
              actor,
              'users.imported',
              `import:${job.id}`,
              job.status === 'done' ? 'success' : 'failed',
              {
                job: job.id,
                lines: job.lines,
                created: job.created,
                updated: job.updated,
                skipped: job.skipped,
                refused: job.refused,
                weak_hashes: job.weak_hashes,
                ...(job.error_code ? { error: job.error_code } : {}),
              },
            ),
        });
        await recordAudit(r.storage, r.clock.now(), actor, 'users.import_started', `import:${id}`, 'success', {
          mode,
          format,
        });
        reply.header('Location', `/api/v1/users/import/${id}`);
        const job = await r.importJobs.find(id);
        return view(job!, [], PAGE);
      },
    }),
    managementRoute({
      method: 'GET',
      url: '/api/v1/users/import/:jobId',
      tag: 'users',
      permission: 'manage:users',
      summary:
        'An import job: running, done or failed; its counts so far; a page of its refused, skipped and weak-hash lines (line number and code)',
      params: Type.Object({ jobId: Type.String({ minLength: 1, maxLength: 64 }) }),
      query: partialObject(
        {
          after_line: Type.String({ pattern: '^[0-9]{1,9}$', description: 'lines after this one (default 0)' }),
          limit: Type.String({ pattern: '^[0-9]{1,4}$', description: `at most ${MAX_PAGE} (default ${PAGE})` }),
        },
        { additionalProperties: false },
      ),
      response: { status: 200, schema: jobSchema },
      handler: async ({ actor, params, query: q }) => {
        await r.limiter('users_import_jobs', `${actor.type}:${actor.id}`, READ_RULE);
        const limit = Math.min(MAX_PAGE, Math.max(1, Number(q.limit ?? PAGE)));
        const job = await r.importJobs.find(params.jobId);
        if (!job) throw new WardError('notFound', { description: `No import job ${params.jobId.slice(0, 64)}` });
        const page = await r.storage.userImportJobs.lines(job.id, Number(q.after_line ?? 0), limit);
        return view(job, page, limit);
      },
    }),
  ];
}
