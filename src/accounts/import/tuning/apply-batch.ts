// Speed-up `import_batches` (docs/performance.md; plain path: apply-line.ts's applyImportedLine, a
// transaction per line). A batch of lines is written in one transaction (Storage.batch): the new
// users that stand alone (nobody has their external id, email or phone number; no identity or
// factor; no address shared with an earlier line of the batch) are inserted together, a statement
// per table, in one savepoint; every other line is written by apply-line.ts's write() in a savepoint
// of its own, in line order, so a refused line is rolled back alone. If the rows inserted together
// meet a unique violation (another writer took an address meanwhile), that savepoint is rolled back
// and those lines go line by line too. Each line is written whole or not at all, as on the plain path.
import { randomId } from '../../../lib/random.js';
import { isUniqueViolation } from '../../../storage/sql/errors.js';
import type { UserProfilesTable, UsersTable } from '../../../storage/schema.js';
import type { Repos } from '../../../storage/storage.js';
import { applyProfile, touchesProfile } from '../../profile.js';
import { profileRow } from '../../../storage/sql/profiles.js';
import { type ApplyDeps, columnsOf, type ImportMode, type LineOutcome, write } from '../apply-line.js';
import { type ImportedLine, keysOf, LineRefused } from '../read-line.js';

const defined = <T>(xs: Array<T | undefined>): T[] => xs.filter((x): x is T => x !== undefined);

/** The lines that may be inserted together (their indexes), the others in line order. */
async function split(tx: Repos, lines: readonly ImportedLine[]) {
  const found = await tx.userImport.taken(
    defined(lines.map((l) => l.external_id)),
    defined(lines.map((l) => l.email)),
    defined(lines.map((l) => l.phone_number)),
  );
  const taken = new Set<string>([
    ...found.externalIds.map((x) => `x:${x}`),
    ...found.emails.map((e) => `e:${e}`),
    ...found.phones.map((p) => `p:${p}`),
  ]);
  const together: number[] = [];
  const alone: number[] = [];
  lines.forEach((line, i) => {
    const keys = keysOf(line);
    const free =
      !line.identities.length &&
      !line.second_factors.length &&
      !line.consents.length &&
      !keys.some((k) => taken.has(k));
    for (const k of keys) taken.add(k);
    (free ? together : alone).push(i);
  });
  return { together, alone };
}

/** The rows of new users inserted together. */
function rowsOf(deps: ApplyDeps, lines: readonly ImportedLine[], indexes: number[], now: number) {
  const users: UsersTable[] = [];
  const profiles: UserProfilesTable[] = [];
  const externalIds: Array<{ external_id: string; user_id: string; created_at: number }> = [];
  const ids: string[] = [];
  for (const i of indexes) {
    const line = lines[i]!;
    const id = randomId();
    ids.push(id);
    const c = columnsOf(line, id, deps.masterKey);
    users.push({
      id,
      email: c.email ?? null,
      phone_number: c.phone_number ?? null,
      password_hash: c.password_hash ?? null,
      given_name: c.given_name ?? null,
      family_name: c.family_name ?? null,
      email_verified: c.email_verified ? 1 : 0,
      phone_number_verified: c.phone_number_verified ? 1 : 0,
      role: null,
      disabled: c.disabled ? 1 : 0,
      created_at: line.created_at ?? now,
      updated_at: now,
    });
    if (touchesProfile(line.profile)) {
      const p = applyProfile(undefined, line.profile);
      profiles.push(profileRow(id, p, now));
    }
    if (line.external_id !== undefined)
      externalIds.push({ external_id: line.external_id, user_id: id, created_at: now });
  }
  return { users, profiles, externalIds, ids };
}

/** Applies a batch of lines in one transaction: each line's outcome, or its refusal. */
export async function applyImportedLines(
  deps: ApplyDeps,
  lines: readonly ImportedLine[],
  mode: ImportMode,
): Promise<Array<LineOutcome | LineRefused>> {
  return deps.storage.batch(async (tx, each) => {
    const out: Array<LineOutcome | LineRefused> = new Array(lines.length);
    const { together, alone } = await split(tx, lines);
    if (together.length) {
      const rows = rowsOf(deps, lines, together, deps.now());
      try {
        await each(() => tx.userImport.insertMany(rows.users, rows.profiles, rows.externalIds));
        for (const [k, i] of together.entries()) out[i] = { status: 'created', user_id: rows.ids[k]! };
      } catch (e) {
        if (!isUniqueViolation(e)) throw e;
        alone.push(...together);
        alone.sort((a, b) => a - b);
      }
    }
    for (const i of alone)
      try {
        out[i] = await each(() => write(tx, deps, lines[i]!, mode));
      } catch (e) {
        if (e instanceof LineRefused) out[i] = e;
        // Another writer took the address or id between the checks and the insert.
        else if (isUniqueViolation(e))
          out[i] = new LineRefused('exists', 'an address, identity or external_id was taken meanwhile');
        else throw e;
      }
    return out;
  });
}
