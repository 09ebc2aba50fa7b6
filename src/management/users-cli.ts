import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { exportUserLines } from '../accounts/import/export-users.js';
import { importUsers } from '../accounts/import/import-users.js';
import { recordAudit, type Actor } from '../audit/record.js';
import { WardError } from '../errors/ward-error.js';
import { batchLinesOf, exportPaging, firebaseOf, importDeps } from './user-import-routes.js';
import type { AccountSettings } from '../config/types.js';
import type { ClientService } from '../clients/service.js';
import type { LogoutDelivery } from '../logout/backchannel.js';
import type { Tuning } from '../config/tuning.js';
import type { Clock } from '../lib/clock.js';
import type { Storage } from '../storage/storage.js';

/** The services this module uses (registry.ts builds them; the composition passes them in). */
export interface UsersCliDeps {
  account: () => AccountSettings;
  config: { tuning: Pick<Tuning, 'import_batches' | 'export_prefetch'> };
  clients: ClientService;
  logoutDelivery: LogoutDelivery;
  clock: Clock;
  masterKey: Buffer;
  storage: Storage;
}

export const USERS_USAGE = `  users import FILE [--mode create|upsert] [--format ndjson|json] [--report all]
                [--firebase-signer-key B64 --firebase-salt-separator B64 --firebase-rounds N --firebase-mem-cost N]
                               import users from NDJSON (or a JSON array: a .json file), streamed;
                               prints the report (JSON) and exits 1 if a line was refused
  users export [--updated-since ISO] [--include-password-hashes]
                               every user as NDJSON in the import's shape, on standard output`;

/** `ward users import FILE`: the management API's import, reading the file as a stream. */
export async function runUsersCommand(
  r: UsersCliDeps,
  args: string[],
  actorName: string,
  out: (line: string) => void,
): Promise<number> {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(args.slice(2));
  } catch (e) {
    out(`${(e as Error).message}\n${USERS_USAGE}`);
    return 2;
  }
  const { values, positionals } = parsed;
  if (args[1] === 'export' && positionals.length === 0) return exportCommand(r, values, actorName, out);
  const [file] = positionals;
  const mode = values.mode ?? 'create';
  const format = values.format ?? (file?.toLowerCase().endsWith('.json') ? 'json' : 'ndjson');
  if (args[1] !== 'import' || !file || positionals.length > 1) {
    out(`Unknown command.\n${USERS_USAGE}`);
    return 2;
  }
  if ((mode !== 'create' && mode !== 'upsert') || (format !== 'ndjson' && format !== 'json')) {
    out(`--mode is create or upsert; --format is ndjson or json\n${USERS_USAGE}`);
    return 2;
  }
  const actor: Actor = { type: 'cli', id: actorName, ip: null };
  try {
    if (!(await stat(file)).isFile()) throw Object.assign(new Error('not a file'), { code: 'ENOENT' });
    const firebase = firebaseOf({
      firebase_signer_key: values['firebase-signer-key'],
      firebase_salt_separator: values['firebase-salt-separator'],
      firebase_rounds: values['firebase-rounds'],
      firebase_mem_cost: values['firebase-mem-cost'],
    });
    const report = await importUsers(importDeps(r), createReadStream(file), {
      format,
      mode,
      reportAll: values.report === 'all',
      firebase,
      batchLines: batchLinesOf(r),
    });
    const { results: _results, ...counts } = report;
    await recordAudit(r.storage, r.clock.now(), actor, 'users.imported', 'users', 'success', {
      ...counts,
      error: report.error?.code,
    });
    out(JSON.stringify(report, null, 2));
    return report.refused || report.error ? 1 : 0;
  } catch (e) {
    if (e instanceof WardError) {
      out(e.description);
      return 2;
    }
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') {
      out(`No such file: ${file}`);
      return 2;
    }
    throw e;
  }
}

async function exportCommand(
  r: UsersCliDeps,
  values: ReturnType<typeof parse>['values'],
  actorName: string,
  out: (line: string) => void,
): Promise<number> {
  const since = values['updated-since'] === undefined ? null : Date.parse(values['updated-since']);
  if (since !== null && Number.isNaN(since)) {
    out(`--updated-since must be an ISO 8601 date\n${USERS_USAGE}`);
    return 2;
  }
  const includePasswordHashes = values['include-password-hashes'] === true;
  await recordAudit(
    r.storage,
    r.clock.now(),
    { type: 'cli', id: actorName, ip: null },
    'users.exported',
    'users',
    'success',
    {
      include_password_hashes: includePasswordHashes,
    },
  );
  for await (const line of exportUserLines(r, { since, includePasswordHashes, ...exportPaging(r.config.tuning) }))
    out(line.trimEnd());
  return 0;
}

const parse = (args: string[]) =>
  parseArgs({
    args,
    allowPositionals: true,
    options: {
      mode: { type: 'string' },
      format: { type: 'string' },
      report: { type: 'string' },
      'firebase-signer-key': { type: 'string' },
      'firebase-salt-separator': { type: 'string' },
      'firebase-rounds': { type: 'string' },
      'firebase-mem-cost': { type: 'string' },
      'updated-since': { type: 'string' },
      'include-password-hashes': { type: 'boolean' },
    },
  });
