// A bulk export (issue 36): every user as one NDJSON line in the shape an import takes, read a page
// at a time (constant memory). Password hashes only when asked (a separate permission): Ward's own
// argon2id as `argon2`, a foreign hash not yet replaced in the fields it was imported with.
import type { Storage } from '../../storage/storage.js';
import { importFieldsOf, type PasswordFields } from '../foreign-hashes/encode.js';
import { openForeignHash } from '../foreign-hashes/sealed.js';
import { PROFILE_CLAIMS } from '../profile.js';
import { extrasOfLine } from '../profile-extras.js';

const PAGE = 500;
const iso = (ms: number) => new Date(ms).toISOString();

export interface ExportOptions {
  /** Only users changed at or after this time (ms). */
  since: number | null;
  includePasswordHashes: boolean;
}

function passwordOf(masterKey: Buffer, userId: string, stored: string | null): PasswordFields | undefined {
  if (!stored) return undefined;
  if (stored.startsWith('$argon2')) return { password_hash: stored, password_hash_algorithm: 'argon2' };
  const foreign = openForeignHash(masterKey, userId, stored);
  return foreign && importFieldsOf(foreign);
}

/** The NDJSON lines of the export, one per user, in id order. */
export async function* exportUserLines(
  deps: { storage: Storage; masterKey: Buffer },
  opts: ExportOptions,
): AsyncGenerator<string> {
  let after: string | null = null;
  for (;;) {
    const page = await deps.storage.userImport.exportPage(after, PAGE, opts.since);
    if (!page.users.length) return;
    const group = <T extends { user_id: string }>(rows: T[]) => {
      const m = new Map<string, T[]>();
      for (const r of rows) m.set(r.user_id, [...(m.get(r.user_id) ?? []), r]);
      return m;
    };
    const identities = group(page.identities);
    const factors = group(page.factors);
    const external = new Map(page.externalIds.map((x) => [x.user_id, x.external_id]));
    // The page's profiles in one query (not one per user).
    const profiles = await deps.storage.profiles.findMany(page.users.map((u) => u.id));
    for (const u of page.users) {
      const profile = profiles.get(u.id);
      const claims = Object.fromEntries(
        PROFILE_CLAIMS.map((c) => [c, profile?.[c] ?? null]).filter(([, v]) => v !== null),
      );
      const password = opts.includePasswordHashes ? passwordOf(deps.masterKey, u.id, u.password_hash) : undefined;
      const line = {
        ...(external.has(u.id) ? { external_id: external.get(u.id) } : {}),
        ...(u.email ? { email: u.email, email_verified: !!u.email_verified } : {}),
        ...(u.phone_number ? { phone_number: u.phone_number, phone_number_verified: !!u.phone_number_verified } : {}),
        created_at: iso(u.created_at),
        blocked: !!u.disabled,
        ...(u.given_name !== null ? { given_name: u.given_name } : {}),
        ...(u.family_name !== null ? { family_name: u.family_name } : {}),
        ...claims,
        ...extrasOfLine(profile),
        ...(profile && Object.keys(profile.custom_fields).length ? { custom_fields: profile.custom_fields } : {}),
        ...password,
        identities: (identities.get(u.id) ?? []).map((i) => ({
          provider: i.provider,
          subject: i.subject,
          ...(i.email ? { email: i.email } : {}),
        })),
        second_factors: (factors.get(u.id) ?? []).map((f) => ({ type: f.type, destination: f.destination })),
      };
      yield `${JSON.stringify(line)}\n`;
    }
    after = page.users[page.users.length - 1]!.id;
  }
}
