// One imported user written in one transaction: the user (under their original date), the sealed
// foreign hash, the profile, the external id, social identities and verified second factors, all or
// nothing. Nobody is mailed; nothing is hashed with argon2 here (the first sign-in does it).
import { storeImportedConsents } from '../consent-changes.js';
import { randomId } from '../../lib/random.js';
import { isUniqueViolation } from '../../storage/sql/errors.js';
import type { ImportedUserChange } from '../../storage/sql/user-import.js';
import type { Repos, Storage } from '../../storage/storage.js';
import { sealForeignHash } from '../foreign-hashes/sealed.js';
import { applyProfile, touchesProfile } from '../profile.js';
import { profileRow } from '../../storage/sql/profiles.js';
import { type ImportedLine, LineRefused } from './read-line.js';

export type ImportMode = 'create' | 'upsert';

export interface LineOutcome {
  status: 'created' | 'updated' | 'skipped';
  user_id: string;
  /** An existing user the line blocked: their sessions and tokens are to end. */
  blocked?: true;
}

export interface ApplyDeps {
  storage: Storage;
  masterKey: Buffer;
  now: () => number;
}

/** The users the line names, read in one query: the match (by external id, else email), and who holds its email and phone. */
async function lookUp(tx: Repos, line: ImportedLine) {
  const rows = await tx.userImport.candidates(line.external_id ?? null, line.email ?? null, line.phone_number ?? null);
  const byExternal = line.external_id !== undefined ? rows.find((r) => r.external_id === line.external_id) : undefined;
  const byEmail = line.email ? rows.find((r) => r.email === line.email) : undefined;
  const byPhone = line.phone_number ? rows.find((r) => r.phone_number === line.phone_number) : undefined;
  return { match: byExternal ?? byEmail, byEmail, byPhone };
}

/** Refuses an email or phone number that belongs to another user than the one matched. */
function requireFree({ match, byEmail, byPhone }: Awaited<ReturnType<typeof lookUp>>): void {
  if (byEmail && match && byEmail.id !== match.id)
    throw new LineRefused('email_in_use', 'email belongs to another user');
  if (byPhone && byPhone.id !== match?.id)
    throw new LineRefused('phone_number_in_use', 'phone_number belongs to another user');
}

/** The user columns the line names. */
export function columnsOf(line: ImportedLine, userId: string, masterKey: Buffer): ImportedUserChange {
  const c: ImportedUserChange = {};
  if (line.email !== undefined) c.email = line.email;
  if (line.phone_number !== undefined) c.phone_number = line.phone_number;
  if (line.email_verified !== undefined) c.email_verified = line.email_verified;
  if (line.phone_number_verified !== undefined) c.phone_number_verified = line.phone_number_verified;
  if (line.blocked !== undefined) c.disabled = line.blocked;
  if (line.password) c.password_hash = sealForeignHash(masterKey, userId, line.password.hash);
  if (line.profile.names.given_name !== undefined) c.given_name = line.profile.names.given_name;
  if (line.profile.names.family_name !== undefined) c.family_name = line.profile.names.family_name;
  return c;
}

/** The user's identities and verified second factors the line adds (those they have stay). */
async function linkAll(tx: Repos, line: ImportedLine, userId: string, now: number): Promise<void> {
  for (const i of line.identities) {
    const found = await tx.identities.find(i.provider, i.subject);
    if (found && found.user_id !== userId)
      throw new LineRefused('identity_in_use', `the ${i.provider} identity ${i.subject} belongs to another user`);
    if (!found) await tx.identities.insert({ id: randomId(), user_id: userId, ...i, created_at: now });
  }
  for (const f of line.second_factors) {
    const found = await tx.mfaCredentials.findOne(userId, f.type, f.destination);
    if (!found)
      await tx.mfaCredentials.insert({
        id: randomId(),
        user_id: userId,
        ...f,
        friendly_name: null,
        verified_at: now,
        created_at: now,
      });
    else if (found.verified_at === null) await tx.mfaCredentials.markVerified(found.id, now);
  }
}

export async function write(tx: Repos, deps: ApplyDeps, line: ImportedLine, mode: ImportMode): Promise<LineOutcome> {
  const now = deps.now();
  const found = await lookUp(tx, line);
  const { match } = found;
  if (match && mode === 'create') return { status: 'skipped', user_id: match.id };
  requireFree(found);
  const id = match?.id ?? randomId();
  const columns = columnsOf(line, id, deps.masterKey);
  if (match) await tx.userImport.updateUser(id, columns, now);
  else
    await tx.userImport.insertUser(
      {
        id,
        email: null,
        phone_number: null,
        password_hash: null,
        given_name: null,
        family_name: null,
        email_verified: false,
        phone_number_verified: false,
        disabled: false,
        ...columns,
        role: null,
      },
      line.created_at ?? now,
      now,
    );
  if (touchesProfile(line.profile)) {
    const p = applyProfile(match && (await tx.profiles.find(id)), line.profile);
    if (match) await tx.profiles.put(id, p, now);
    else await tx.userImport.insertProfile(profileRow(id, p, now));
  }
  // A new user's external id is new (lookUp found nobody under it); a match keeps its own unless renamed.
  if (line.external_id !== undefined) {
    if (!match) await tx.userImport.addExternalId(id, line.external_id, now);
    else if (match.external_id !== line.external_id) await tx.userImport.setExternalId(id, line.external_id, now);
  }
  await linkAll(tx, line, id, now);
  if (line.consents.length) await storeImportedConsents(tx, id, line.consents, now);
  if (match && line.blocked && !match.disabled) return { status: 'updated', user_id: id, blocked: true };
  return { status: match ? 'updated' : 'created', user_id: id };
}

/** Applies one line in its own transaction: written whole, or not at all (throws LineRefused). */
export async function applyImportedLine(deps: ApplyDeps, line: ImportedLine, mode: ImportMode): Promise<LineOutcome> {
  try {
    return await deps.storage.transaction((tx) => write(tx, deps, line, mode));
  } catch (e) {
    // Another writer took the address or id between the checks and the insert.
    if (isUniqueViolation(e))
      throw new LineRefused('exists', 'an address, identity or external_id was taken meanwhile');
    throw e;
  }
}
