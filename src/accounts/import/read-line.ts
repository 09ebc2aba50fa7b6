// One user of an import, checked before anything is written: identifiers, flags, the date, the
// external id, the password hash (foreign-hashes/formats.ts), social identities, verified second
// factors, and the profile claims and custom fields by the one profile validator (profile.ts).
import type { ConsentDefinitionSetting } from '../../config/types.js';
import type { ImportedConsent } from '../consent-changes.js';
import { readConsents } from '../user-consents.js';
import type { CustomFieldSetting } from '../../config/types.js';
import { WardError } from '../../errors/ward-error.js';
import { type FirebaseParams, type ForeignHash, readForeignHash } from '../foreign-hashes/formats.js';
import { normalizeEmail, normalizePhone } from '../identifiers.js';
import { type ProfileChange, readProfile } from '../profile.js';

/** Why a line is refused (the report's `code`). */
export type LineCode =
  | 'invalid_json'
  | 'line_too_long'
  | 'not_an_object'
  | 'invalid_field'
  | 'invalid_profile'
  | 'missing_identifier'
  | 'unknown_hash_algorithm'
  | 'malformed_password_hash'
  | 'email_in_use'
  | 'phone_number_in_use'
  | 'identity_in_use'
  | 'exists';

export class LineRefused extends Error {
  constructor(
    readonly code: LineCode,
    message: string,
  ) {
    super(message);
  }
}

export interface ImportedLine {
  /** undefined: not named by the line (an upsert keeps what the user has). */
  email?: string;
  phone_number?: string;
  email_verified?: boolean;
  phone_number_verified?: boolean;
  blocked?: boolean;
  created_at?: number;
  external_id?: string;
  password?: { hash: ForeignHash; weak: boolean };
  identities: Array<{ provider: string; subject: string; email: string | null }>;
  second_factors: Array<{ type: 'email' | 'sms'; destination: string }>;
  profile: ProfileChange;
  /** Consents to the account's definitions (reporter `import`), each at its `date` when given. */
  consents: ImportedConsent[];
}

/** The keys this reader takes itself; every other key goes to the profile validator. */
const OWN_KEYS = [
  'email',
  'phone_number',
  'email_verified',
  'phone_number_verified',
  'blocked',
  'created_at',
  'external_id',
  'password_hash',
  'password_hash_algorithm',
  'password_salt',
  'password_salt_position',
  'identities',
  'second_factors',
  'consents',
];

const MAX_LIST = 20;
const PROVIDER = /^[A-Za-z0-9_.-]{1,64}$/;

const invalid = (field: string, message: string) => new LineRefused('invalid_field', `${field} ${message}`);
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function bool(o: Record<string, unknown>, k: string): boolean | undefined {
  const v = o[k];
  if (v === undefined) return undefined;
  if (typeof v !== 'boolean') throw invalid(k, 'must be true or false');
  return v;
}

/** ISO 8601 or milliseconds since the epoch; not in the future. */
function date(v: unknown, now: number): number | undefined {
  if (v === undefined) return undefined;
  const ms =
    typeof v === 'number' ? v : typeof v === 'string' && /^\d{4}-\d{2}-\d{2}/.test(v) ? Date.parse(v) : Number.NaN;
  if (!Number.isInteger(ms) || ms < 0 || ms > now) throw invalid('created_at', 'must be an ISO 8601 date in the past');
  return ms;
}

function identities(v: unknown): ImportedLine['identities'] {
  if (v === undefined) return [];
  if (!Array.isArray(v) || v.length > MAX_LIST) throw invalid('identities', `must be a list of at most ${MAX_LIST}`);
  return v.map((i, n) => {
    if (!isObject(i) || typeof i.provider !== 'string' || !PROVIDER.test(i.provider))
      throw invalid(`identities[${n}].provider`, 'must be a provider name');
    if (typeof i.subject !== 'string' || !i.subject || i.subject.length > 255)
      throw invalid(`identities[${n}].subject`, 'must be a string of 1 to 255 characters');
    const email = i.email === undefined || i.email === null ? null : normalizeEmail(i.email);
    if (i.email !== undefined && i.email !== null && !email)
      throw invalid(`identities[${n}].email`, 'must be an email address');
    return { provider: i.provider, subject: i.subject, email };
  });
}

function factors(v: unknown): ImportedLine['second_factors'] {
  if (v === undefined) return [];
  if (!Array.isArray(v) || v.length > MAX_LIST)
    throw invalid('second_factors', `must be a list of at most ${MAX_LIST}`);
  return v.map((f, n) => {
    const at = `second_factors[${n}]`;
    if (!isObject(f) || (f.type !== 'email' && f.type !== 'sms')) throw invalid(`${at}.type`, 'must be email or sms');
    const destination = f.type === 'email' ? normalizeEmail(f.destination) : normalizePhone(f.destination);
    if (!destination)
      throw invalid(`${at}.destination`, `must be ${f.type === 'email' ? 'an email' : 'an E.164 number'}`);
    return { type: f.type, destination };
  });
}

function password(o: Record<string, unknown>, firebase: FirebaseParams | undefined): ImportedLine['password'] {
  if (o.password_hash === undefined && o.password_hash_algorithm === undefined) return undefined;
  const read = readForeignHash({
    algorithm: o.password_hash_algorithm,
    hash: o.password_hash,
    salt: o.password_salt,
    saltPosition: o.password_salt_position,
    firebase,
  });
  if (!read.ok) throw new LineRefused(read.code, `password_hash ${read.message}`);
  return { hash: read.hash, weak: read.weak };
}

/** Reads one user of an import (throws LineRefused with what is wrong). */
export function readImportedLine(
  value: unknown,
  opts: {
    customFields: CustomFieldSetting[];
    consentDefinitions?: ConsentDefinitionSetting[];
    firebase?: FirebaseParams;
    now: number;
  },
): ImportedLine {
  if (!isObject(value)) throw new LineRefused('not_an_object', 'is not a JSON object');
  const email = value.email === undefined || value.email === null ? undefined : normalizeEmail(value.email);
  if (value.email !== undefined && value.email !== null && !email) throw invalid('email', 'must be an email address');
  const phone =
    value.phone_number === undefined || value.phone_number === null ? undefined : normalizePhone(value.phone_number);
  if (value.phone_number !== undefined && value.phone_number !== null && !phone)
    throw invalid('phone_number', 'must be an E.164 phone number such as +33612345678');
  const external = value.external_id;
  if (external !== undefined && (typeof external !== 'string' || !external || external.length > 255))
    throw invalid('external_id', 'must be a string of 1 to 255 characters');
  if (!email && !phone && external === undefined)
    throw new LineRefused('missing_identifier', 'needs an email, a phone_number or an external_id');
  let profile: ProfileChange;
  try {
    profile = readProfile(value, {
      customFields: opts.customFields,
      writer: 'admin',
      prefix: '',
      mode: 'update',
      ignore: OWN_KEYS,
    });
  } catch (e) {
    if (e instanceof WardError) throw new LineRefused('invalid_profile', e.description);
    throw e;
  }
  return {
    ...(email ? { email } : {}),
    ...(phone ? { phone_number: phone } : {}),
    email_verified: bool(value, 'email_verified'),
    phone_number_verified: bool(value, 'phone_number_verified'),
    blocked: bool(value, 'blocked'),
    created_at: date(value.created_at, opts.now),
    ...(typeof external === 'string' ? { external_id: external } : {}),
    password: password(value, opts.firebase),
    identities: identities(value.identities),
    second_factors: factors(value.second_factors),
    profile,
    consents: importedConsents(value.consents, opts.consentDefinitions ?? []),
  };
}

/** The consents of a line, checked as the API's; each one's `date` (ISO 8601) is when it was given. */
function importedConsents(raw: unknown, definitions: ConsentDefinitionSetting[]): ImportedConsent[] {
  let read: ReturnType<typeof readConsents>;
  try {
    read = readConsents(raw, definitions, 'consents');
  } catch (e) {
    if (e instanceof WardError) throw new LineRefused('invalid_field', e.description);
    throw e;
  }
  return read.map((c) => {
    const date = (raw as Record<string, { date?: unknown }>)[c.key]?.date;
    return typeof date === 'string' ? { ...c, at: Date.parse(date) } : c;
  });
}

/** What two lines must not write at the same time (nor together in one batch): the addresses, ids and identities they name. */
export const keysOf = (line: ImportedLine): string[] => [
  ...(line.email ? [`e:${line.email}`] : []),
  ...(line.phone_number ? [`p:${line.phone_number}`] : []),
  ...(line.external_id !== undefined ? [`x:${line.external_id}`] : []),
  ...line.identities.map((i) => `i:${i.provider}:${i.subject}`),
];
