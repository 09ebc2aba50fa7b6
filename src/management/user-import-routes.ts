import { Readable } from 'node:stream';
import { Type } from 'typebox';
import { anyObject, partialObject, stringEnum } from '../http/schema-types.js';
import { recordAudit } from '../audit/record.js';
import { firebaseParamsProblem, HASH_ALGORITHMS, type FirebaseParams } from '../accounts/foreign-hashes/formats.js';
import { exportUserLines, type ExportOptions } from '../accounts/import/export-users.js';
import { prefetchedPages } from '../accounts/import/tuning/export-prefetch.js';
import { importUsers, type ImportReport } from '../accounts/import/import-users.js';
import type { ImportFormat } from '../accounts/import/source-lines.js';
import { invalidField } from '../errors/refusals.js';
import { requirePermission } from './auth.js';
import { endSessionsOfUser, type LogoutDelivery } from '../logout/backchannel.js';
import type { ClientService } from '../clients/service.js';
import { managementRoute, type ManagementRoute } from './route.js';
import type { AccountSettings } from '../config/types.js';
import type { Tuning } from '../config/tuning.js';
import type { Clock } from '../lib/clock.js';
import type { Limiter } from '../limits/rate-limit.js';
import type { Storage } from '../storage/storage.js';

/** The services this module uses (registry.ts builds them; the composition passes them in). */
export interface UserImportRoutesDeps {
  account: () => AccountSettings;
  config: { tuning: Pick<Tuning, 'import_batches' | 'export_prefetch'> };
  clients: ClientService;
  logoutDelivery: LogoutDelivery;
  clock: Clock;
  limiter: Limiter;
  masterKey: Buffer;
  storage: Storage;
}

export const NDJSON = 'application/x-ndjson';

/** One user of an import (the OpenAPI description; each line is checked by accounts/import/read-line.ts). */
export const importedUser = partialObject(
  {
    email: Type.String(),
    phone_number: Type.String({ description: 'E.164' }),
    email_verified: Type.Boolean(),
    phone_number_verified: Type.Boolean(),
    blocked: Type.Boolean(),
    created_at: Type.String({ description: 'ISO 8601 (or milliseconds since the epoch)' }),
    external_id: Type.String({ description: 'the id in the system imported from; upsert finds the user by it' }),
    password_hash: Type.String(),
    password_hash_algorithm: stringEnum([...HASH_ALGORITHMS]),
    password_salt: Type.String({ description: 'firebase_scrypt (base64), salted_sha256/512 and md5 (text)' }),
    password_salt_position: stringEnum(['after', 'before']),
    identities: Type.Array(partialObject({ provider: Type.String(), subject: Type.String(), email: Type.String() })),
    second_factors: Type.Array(partialObject({ type: stringEnum(['email', 'sms']), destination: Type.String() })),
    given_name: Type.String(),
    family_name: Type.String(),
    custom_fields: anyObject(),
  },
  { description: 'Also every profile claim of PATCH /api/v1/users/{userId} (middle_name, birthdate, address, ...)' },
);

const reportSchema = partialObject({
  mode: stringEnum(['create', 'upsert']),
  lines: Type.Integer(),
  created: Type.Integer(),
  updated: Type.Integer(),
  skipped: Type.Integer(),
  refused: Type.Integer(),
  weak_hashes: Type.Integer(),
  results: Type.Array(
    partialObject({
      line: Type.Integer(),
      status: stringEnum(['created', 'updated', 'skipped', 'refused']),
      user_id: Type.String(),
      code: Type.String(),
      message: Type.String(),
      weak_hash: Type.Boolean(),
    }),
  ),
  error: partialObject({ code: Type.String(), message: Type.String() }),
});

export const importQuery = partialObject(
  {
    mode: stringEnum(['create', 'upsert'], { description: 'create (default): existing users are skipped' }),
    report: stringEnum(['problems', 'all'], { description: 'problems (default): refused, skipped and weak lines' }),
    firebase_signer_key: Type.String({ maxLength: 200, description: 'base64, for firebase_scrypt hashes' }),
    firebase_salt_separator: Type.String({ maxLength: 100 }),
    firebase_rounds: Type.String({ pattern: '^[0-9]{1,2}$' }),
    firebase_mem_cost: Type.String({ pattern: '^[0-9]{1,2}$' }),
  },
  { additionalProperties: false },
);

/** The source's format by its Content-Type (the route took only these two). */
export const formatOf = (contentType: string | undefined): ImportFormat =>
  (contentType ?? '').split(';')[0]!.trim().toLowerCase() === NDJSON ? 'ndjson' : 'json';

/**
 * Lines per transaction: the speed-up import_batches (config/tuning.ts), whose new users are inserted
 * a statement per table (docs/performance.md); one on the plain path.
 */
export const batchLinesOf = (r: Pick<UserImportRoutesDeps, 'config' | 'storage'>): number =>
  r.config.tuning.import_batches ? 100 : 1;

/** How an export reads its pages: one ahead with the speed-up export_prefetch, else one after another. */
export const exportPaging = (tuning: Pick<Tuning, 'export_prefetch'>): Pick<ExportOptions, 'pages'> =>
  tuning.export_prefetch ? { pages: prefetchedPages } : {};

/** What an import (direct or a job) uses. */
export const importDeps = (
  r: Pick<UserImportRoutesDeps, 'storage' | 'masterKey' | 'clock' | 'account' | 'clients' | 'logoutDelivery'>,
) => ({
  storage: r.storage,
  masterKey: r.masterKey,
  now: () => r.clock.now(),
  customFields: () => r.account().custom_fields,
  consentDefinitions: () => r.account().consents,
  onBlocked: (id: string) => endSessionsOfUser({ ...r, delivery: r.logoutDelivery }, id),
});

/** The Firebase parameters of the query (all four, or none). */
export function firebaseOf(q: Record<string, string | undefined>): FirebaseParams | undefined {
  const given = ['firebase_signer_key', 'firebase_salt_separator', 'firebase_rounds', 'firebase_mem_cost'].filter(
    (k) => q[k] !== undefined,
  );
  if (!given.length) return undefined;
  if (given.length < 4) throw invalidField('firebase_signer_key', 'the four firebase_* parameters go together');
  const f = {
    signer_key: q.firebase_signer_key!,
    salt_separator: q.firebase_salt_separator!,
    rounds: Number(q.firebase_rounds),
    mem_cost: Number(q.firebase_mem_cost),
  };
  const problem = firebaseParamsProblem(f);
  if (problem) throw invalidField(problem.split(' ')[0]!, problem.slice(problem.indexOf(' ') + 1));
  return f;
}

export function userImportRoutes(r: UserImportRoutesDeps): ManagementRoute[] {
  return [
    managementRoute({
      method: 'POST',
      url: '/api/v1/users/import',
      tag: 'users',
      permission: 'manage:users',
      audit: 'users.imported',
      summary:
        'Import users from NDJSON or a JSON array, streamed: each line applied or refused on its own, with its password hash',
      query: importQuery,
      stream: { [NDJSON]: importedUser, 'application/json': Type.Array(importedUser) },
      response: { status: 200, schema: reportSchema },
      handler: async ({ actor, query: q, req }) => {
        await r.limiter('users_import', req.ip, r.account().rate_limits.bulk_users);
        const firebase = firebaseOf(q);
        const format = formatOf(req.headers['content-type']);
        const report: ImportReport = await importUsers(importDeps(r), req.body as Readable, {
          format,
          mode: q.mode ?? 'create',
          reportAll: q.report === 'all',
          firebase,
          batchLines: batchLinesOf(r),
        });
        const { results: _results, ...counts } = report;
        await recordAudit(r.storage, r.clock.now(), actor, 'users.imported', 'users', 'success', {
          ...counts,
          error: report.error?.code,
        });
        return report;
      },
    }),
    managementRoute({
      method: 'GET',
      url: '/api/v1/users/export',
      tag: 'users',
      permission: 'read:users',
      audit: 'users.exported',
      summary:
        'Every user as NDJSON in the shape the import takes, streamed; password hashes only with include_password_hashes=true and export:secrets',
      query: partialObject(
        {
          updated_since: Type.String({ format: 'date-time', description: 'only users changed since (ISO 8601)' }),
          include_password_hashes: stringEnum(['true', 'false']),
        },
        { additionalProperties: false },
      ),
      response: { status: 200, schema: importedUser, contentType: NDJSON },
      handler: async ({ actor, query: q, req }) => {
        await r.limiter('users_export', req.ip, r.account().rate_limits.bulk_users);
        const includePasswordHashes = q.include_password_hashes === 'true';
        if (includePasswordHashes) requirePermission(actor, 'export:secrets');
        const since = q.updated_since === undefined ? null : Date.parse(q.updated_since);
        await recordAudit(r.storage, r.clock.now(), actor, 'users.exported', 'users', 'success', {
          include_password_hashes: includePasswordHashes,
          ...(q.updated_since ? { updated_since: q.updated_since } : {}),
        });
        return Readable.from(exportUserLines(r, { since, includePasswordHashes, ...exportPaging(r.config.tuning) }));
      },
    }),
  ];
}
