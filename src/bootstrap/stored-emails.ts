import type { Logger } from 'pino';
import { normalizeEmail } from '../accounts/identifiers.js';
import { type Actor, recordAudit } from '../audit/record.js';
import type { Clock } from '../lib/clock.js';
import type { EmailCursor } from '../storage/sql/email-forms.js';
import { isUniqueViolation } from '../storage/sql/errors.js';
import type { Storage } from '../storage/storage.js';

/** Users read per query: a pass holds no more than this many addresses at once. */
const BATCH = 500;
/** User ids named in the one warning of a start (the audit rows name every one). */
const WARN_IDS = 50;

const SYSTEM: Actor = { type: 'system', id: 'ward', ip: null };

/** A stored address left in its old form: its normalised form is another user's, or is not an address. */
export interface LeftAddress {
  user_id: string;
  reason: 'taken' | 'invalid';
  /** For `taken`: the user who has the normalised form. */
  holder_id?: string;
}

export interface StoredEmailsReport {
  rewritten: number;
  /** Of the rewritten: those whose local part changed too (NFKC), not only the domain's form. */
  localPartChanged: number;
  left: LeftAddress[];
  /** Live codes and links to an old-form address of nobody that were ended. */
  codesEnded: number;
}

/**
 * Run at every start (before the first-start bootstrap; once by a cluster's primary): rewrites the
 * email addresses stored before issue 33 (trimmed and lower-cased only) to the one form of
 * `normalizeEmail`, so their users are found by their address again. Only rows that may differ are
 * read (non-ASCII or a trailing dot, filtered by the database), oldest account first in batches: on a
 * database with nothing to rewrite it is one filtered read of users and one of live codes. Idempotent:
 * a rewritten row no longer matches; a row left matches again at the next start and is left again.
 *
 * Nothing is merged or deleted. A row whose normalised form is another user's (an account made since
 * the upgrade, or an older account rewritten first) or is not an address is left as it is: one warning
 * per start with the user ids (never addresses) and one audit row per user (`user.email_not_normalised`,
 * written once). Each rewrite is one transaction with its audit row (`user.email_normalised`).
 */
export async function normaliseStoredEmails(r: {
  storage: Storage;
  log: Pick<Logger, 'info' | 'warn'>;
  clock: Clock;
}): Promise<StoredEmailsReport> {
  const { storage, clock } = r;
  const report: StoredEmailsReport = { rewritten: 0, localPartChanged: 0, left: [], codesEnded: 0 };
  let after: EmailCursor | null = null;
  for (;;) {
    const rows = await storage.users.listEmailsNeedingNormalisation(after, BATCH);
    for (const row of rows) {
      const to = normalizeEmail(row.email);
      if (to === row.email) continue;
      if (to === null) {
        await leave(r, report, { user_id: row.id, reason: 'invalid' });
        continue;
      }
      if (await rewrite(storage, clock.now(), row.id, row.email, to)) {
        report.rewritten++;
        if (localPart(to) !== localPart(row.email)) report.localPartChanged++;
        continue;
      }
      const holder = await storage.users.findByEmail(to);
      // The row changed meanwhile (a user's own change): nothing to do for it now.
      if (!holder || holder.id === row.id) continue;
      await leave(r, report, { user_id: row.id, reason: 'taken', holder_id: holder.id });
    }
    if (rows.length < BATCH) break;
    const last = rows[rows.length - 1]!;
    after = { created_at: last.created_at, id: last.id };
  }
  report.codesEnded = await storage.accountCodes.supersedeLiveToUnnormalisedEmails(clock.now());
  if (report.rewritten)
    r.log.info(
      { event: 'emails_normalised', users: report.rewritten, local_part_changed: report.localPartChanged },
      'stored email addresses rewritten to their normalised form',
    );
  if (report.left.length)
    r.log.warn(
      {
        event: 'emails_not_normalised',
        users: report.left.length,
        taken: report.left.filter((l) => l.reason === 'taken').slice(0, WARN_IDS),
        invalid: report.left
          .filter((l) => l.reason === 'invalid')
          .slice(0, WARN_IDS)
          .map((l) => l.user_id),
      },
      'stored email addresses left in their old form: their normalised form is another account or no address; an operator decides (docs/security.md)',
    );
  if (report.codesEnded)
    r.log.info({ event: 'email_codes_ended', codes: report.codesEnded }, 'codes sent to old-form addresses ended');
  return report;
}

const localPart = (email: string) => email.slice(0, email.lastIndexOf('@'));

/** The rewrite and its audit row in one transaction; false when the normalised form is taken. */
async function rewrite(storage: Storage, now: number, id: string, from: string, to: string): Promise<boolean> {
  try {
    return await storage.transaction(async (tx) => {
      if (!(await tx.users.rewriteEmail(id, from, to, now))) return false;
      await recordAudit(tx, now, SYSTEM, 'user.email_normalised', `user:${id}`, 'success');
      return true;
    });
  } catch (e) {
    // PostgreSQL: an account took the address between the check and the write.
    if (isUniqueViolation(e)) return false;
    throw e;
  }
}

/** Counts a row left as it is, with one audit row per user (not one per start). */
async function leave(r: { storage: Storage; clock: Clock }, report: StoredEmailsReport, left: LeftAddress) {
  report.left.push(left);
  const target = `user:${left.user_id}`;
  const action = 'user.email_not_normalised';
  if ((await r.storage.audit.list({ action, target, limit: 1 })).length) return;
  const details = left.holder_id ? { reason: left.reason, holder: `user:${left.holder_id}` } : { reason: left.reason };
  await recordAudit(r.storage, r.clock.now(), SYSTEM, action, target, 'failed', details);
}
