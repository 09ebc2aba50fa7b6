// A bulk import (issue 36): reads the source one user at a time, applies each in its own
// transaction (or savepoint, import_batches), and reports per line. The report holds counts and the lines worth a look (refused,
// skipped, weak hashes), or every line when asked: memory stays flat whatever the source's size.
import type { Readable } from 'node:stream';
import type { ConsentDefinitionSetting, CustomFieldSetting } from '../../config/types.js';
import type { FirebaseParams } from '../foreign-hashes/formats.js';
import { applyImportedLines } from './tuning/apply-batch.js';
import { type ApplyDeps, applyImportedLine, type ImportMode, type LineOutcome } from './apply-line.js';
import { type ImportedLine, keysOf, LineRefused, readImportedLine, type LineCode } from './read-line.js';
import { type ImportFormat, SourceBroken, sourceLines } from './source-lines.js';

/** Groups of lines written at once (a line each on the plain path, import_batches' batches else). */
const IN_FLIGHT = 4;

export interface ImportOptions {
  format: ImportFormat;
  mode: ImportMode;
  /** Every line in the report (else only refused, skipped and weak-hash lines). */
  reportAll: boolean;
  firebase?: FirebaseParams;
  /** Lines per transaction (speed-up import_batches, apply-line.ts); 1 (the plain path): one each. */
  batchLines?: number;
  /**
   * Told of every line once counted (a job's progress, import-jobs.ts); awaited, so a slow writer
   * slows the import. When given, the report's `results` stay empty.
   */
  onLine?: (r: LineResult, counts: Readonly<ImportReport>) => Promise<void> | void;
}

export interface LineResult {
  line: number;
  status: 'created' | 'updated' | 'skipped' | 'refused';
  user_id?: string;
  code?: LineCode;
  message?: string;
  /** The line's password hash is a legacy digest (MD5, salted SHA): accepted, worth replacing soon. */
  weak_hash?: true;
}

export interface ImportReport {
  mode: ImportMode;
  lines: number;
  created: number;
  updated: number;
  skipped: number;
  refused: number;
  weak_hashes: number;
  results: LineResult[];
  /** The source broke off (a JSON array that is not one): the lines before it stand. */
  error?: { code: 'invalid_json'; message: string };
}

export async function importUsers(
  deps: ApplyDeps & {
    customFields: () => CustomFieldSetting[];
    /** The account's consent definitions, which a line's `consents` must name. */
    consentDefinitions?: () => ConsentDefinitionSetting[];
    /** An existing user the import blocked: ends their sessions and tokens (as disabling does). */
    onBlocked: (userId: string) => Promise<unknown>;
  },
  input: Readable,
  opts: ImportOptions,
): Promise<ImportReport> {
  const report: ImportReport = {
    mode: opts.mode,
    lines: 0,
    created: 0,
    updated: 0,
    skipped: 0,
    refused: 0,
    weak_hashes: 0,
    results: [],
  };
  const customFields = deps.customFields();
  const consentDefinitions = deps.consentDefinitions?.() ?? [];
  const batchLines = Math.max(1, opts.batchLines ?? 1);
  const keep = async (r: LineResult) => {
    report[r.status]++;
    if (opts.onLine) return opts.onLine(r, report);
    if (opts.reportAll || r.status === 'refused' || r.status === 'skipped' || r.weak_hash) report.results.push(r);
  };
  // A few lines are written at once (PostgreSQL's round trips overlap; SQLite runs them in turn),
  // never two that name the same address, external id or identity: such a line waits for the others.
  const inflight = new Set<Promise<void>>();
  const busy = new Set<string>();
  let fatal: { error: unknown } | undefined;
  /** The outcome of one line, counted and kept. */
  const settle = async (n: number, line: ImportedLine, outcome: LineOutcome | LineRefused) => {
    if (outcome instanceof LineRefused)
      return keep({ line: n, status: 'refused', code: outcome.code, message: outcome.message });
    const { blocked, ...done } = outcome;
    if (blocked) await deps.onBlocked(done.user_id);
    const weak = line.password?.weak && done.status !== 'skipped';
    if (weak) report.weak_hashes++;
    await keep({
      line: n,
      ...done,
      ...(done.status === 'skipped'
        ? { code: 'exists' as const, message: 'a user with this external_id or email exists' }
        : {}),
      ...(weak ? { weak_hash: true as const } : {}),
    });
  };
  /** Writes a group of lines: one transaction each (plain), or the group in one (import_batches). */
  const apply = async (group: Array<{ n: number; line: ImportedLine }>) => {
    try {
      let outcomes: Array<LineOutcome | LineRefused>;
      if (batchLines > 1)
        outcomes = await applyImportedLines(
          deps,
          group.map((g) => g.line),
          opts.mode,
        );
      else
        outcomes = [
          await applyImportedLine(deps, group[0]!.line, opts.mode).catch((e: unknown) => {
            if (e instanceof LineRefused) return e;
            throw e;
          }),
        ];
      for (const [i, g] of group.entries()) await settle(g.n, g.line, outcomes[i]!);
    } catch (e) {
      fatal ??= { error: e };
    }
  };
  let group: Array<{ n: number; line: ImportedLine }> = [];
  let groupKeys = new Set<string>();
  const send = async () => {
    if (!group.length) return;
    const lines = group;
    const keys = [...groupKeys];
    group = [];
    groupKeys = new Set();
    if (keys.some((k) => busy.has(k))) await Promise.all(inflight);
    while (inflight.size >= IN_FLIGHT) await Promise.race(inflight);
    for (const k of keys) busy.add(k);
    const p: Promise<void> = apply(lines).finally(() => {
      inflight.delete(p);
      for (const k of keys) busy.delete(k);
    });
    inflight.add(p);
  };
  try {
    for await (const src of sourceLines(input, opts.format)) {
      if (fatal) break;
      report.lines++;
      if ('refused' in src) {
        await keep({ line: src.line, status: 'refused', code: src.refused, message: src.message });
        continue;
      }
      let line: ImportedLine;
      try {
        line = readImportedLine(src.value, {
          customFields,
          consentDefinitions,
          firebase: opts.firebase,
          now: deps.now(),
        });
      } catch (e) {
        if (!(e instanceof LineRefused)) throw e;
        await keep({ line: src.line, status: 'refused', code: e.code, message: e.message });
        continue;
      }
      // Lines of one group run one after another in it: two naming the same address may share one.
      for (const k of keysOf(line)) groupKeys.add(k);
      group.push({ n: src.line, line });
      if (group.length >= batchLines) await send();
    }
  } catch (e) {
    if (!(e instanceof SourceBroken)) fatal ??= { error: e };
    else report.error = { code: 'invalid_json', message: e.message };
  }
  // The last group (also the lines before a JSON array that broke off: they stand).
  if (!fatal) await send();
  await Promise.all(inflight);
  if (fatal) throw fatal.error;
  report.results.sort((a, b) => a.line - b.line);
  return report;
}
