// A bulk export (issue 36): every user as one NDJSON line in the shape an import takes, read a page
// at a time (constant memory). Password hashes only when asked (a separate permission): Ward's own
// argon2id as `argon2`, a foreign hash not yet replaced in the fields it was imported with.
import type { Storage } from '../../storage/storage.js';
import type { ExportPage } from '../../storage/sql/user-import.js';
import { importFieldsOf, type PasswordFields } from '../foreign-hashes/encode.js';
import { openForeignHash } from '../foreign-hashes/sealed.js';
import { PROFILE_CLAIMS } from '../profile.js';
import { extrasOfLine } from '../profile-extras.js';

/** Users per page: a page is a query per table and one chunk of the stream (docs/performance.md, I1). */
const PAGE = 2000;
const iso = (ms: number) => new Date(ms).toISOString();

export interface ExportOptions {
  /** Only users changed at or after this time (ms). */
  since: number | null;
  includePasswordHashes: boolean;
  /** Users read per page (PAGE when not given). */
  pageSize?: number;
  /** How the pages are read: one after another (pagesOf, when not given), or one ahead (export_prefetch). */
  pages?: (read: ReadPage) => AsyncIterable<ExportPage>;
}

/** Reads the page of users after this id (null: the first). */
export type ReadPage = (afterId: string | null) => Promise<ExportPage>;
/** The id the page after this one starts after. */
export const lastIdOf = (page: ExportPage) => page.users[page.users.length - 1]!.id;

/** The pages, each read when the one before has been written (the plain path). */
export async function* pagesOf(read: ReadPage): AsyncGenerator<ExportPage> {
  for (let page = await read(null); page.users.length; page = await read(lastIdOf(page))) yield page;
}

function passwordOf(masterKey: Buffer, userId: string, stored: string | null): PasswordFields | undefined {
  if (!stored) return undefined;
  if (stored.startsWith('$argon2')) return { password_hash: stored, password_hash_algorithm: 'argon2' };
  const foreign = openForeignHash(masterKey, userId, stored);
  return foreign && importFieldsOf(foreign);
}

/**
 * The export's NDJSON, in id order: a chunk per page of users (whole lines, each ending in a newline),
 * so a stream writes a page at once rather than a socket write per user.
 */
export async function* exportUserLines(
  deps: { storage: Storage; masterKey: Buffer },
  opts: ExportOptions,
): AsyncGenerator<string> {
  const read: ReadPage = (after) => deps.storage.userImport.exportPage(after, opts.pageSize ?? PAGE, opts.since);
  for await (const page of (opts.pages ?? pagesOf)(read)) {
    const group = <T extends { user_id: string }>(rows: T[]) => {
      const m = new Map<string, T[]>();
      for (const r of rows) {
        const of = m.get(r.user_id);
        if (of) of.push(r);
        else m.set(r.user_id, [r]);
      }
      return m;
    };
    const identities = group(page.identities);
    const factors = group(page.factors);
    const external = new Map(page.externalIds.map((x) => [x.user_id, x.external_id]));
    const profiles = page.profiles;
    let chunk = '';
    for (const u of page.users) {
      const profile = profiles.get(u.id);
      // Built by assignment, in the import's key order (no spread of a fresh object per field: the
      // export is a loop over every user).
      const line: Record<string, unknown> = {};
      const externalId = external.get(u.id);
      if (externalId !== undefined) line.external_id = externalId;
      if (u.email) {
        line.email = u.email;
        line.email_verified = !!u.email_verified;
      }
      if (u.phone_number) {
        line.phone_number = u.phone_number;
        line.phone_number_verified = !!u.phone_number_verified;
      }
      line.created_at = iso(u.created_at);
      line.blocked = !!u.disabled;
      if (u.given_name !== null) line.given_name = u.given_name;
      if (u.family_name !== null) line.family_name = u.family_name;
      if (profile) {
        for (const c of PROFILE_CLAIMS) if (profile[c] !== null) line[c] = profile[c];
        Object.assign(line, extrasOfLine(profile));
        if (Object.keys(profile.custom_fields).length) line.custom_fields = profile.custom_fields;
      }
      if (opts.includePasswordHashes) Object.assign(line, passwordOf(deps.masterKey, u.id, u.password_hash));
      line.identities = (identities.get(u.id) ?? []).map((i) =>
        i.email
          ? { provider: i.provider, subject: i.subject, email: i.email }
          : { provider: i.provider, subject: i.subject },
      );
      line.second_factors = (factors.get(u.id) ?? []).map((f) => ({ type: f.type, destination: f.destination }));
      chunk += `${JSON.stringify(line)}\n`;
    }
    yield chunk;
  }
}
