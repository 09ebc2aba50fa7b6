import type { ConsentDefinitionSetting } from '../config/types.js';
import { WardError } from '../errors/ward-error.js';
import type { StoredUserConsent, UserConsentChange } from '../storage/sql/user-consents.js';

// Users' consents to the account's consent definitions (ReachFive's user consents: a newsletter
// opt-in), never the OAuth consents of clients (interaction/consent.ts). The wire field is `consents`,
// a map key -> {granted, consent_version: {version_id, language}, consent_type?, date?} as the Core SDK
// sends it unconverted; each key must name an active definition. Refusals are 400s of their own keys.

/** Who reported a change (ReachFive's reporter): the user, an administrator, a bulk import. */
export type ConsentReporter = 'end_user' | 'managed' | 'import';

/** One validated consent to write. */
export interface ConsentInput {
  key: string;
  granted: boolean;
  consent_type: ConsentDefinitionSetting['consent_type'];
  version_id: number;
  language: string;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const INPUT_KEYS = ['granted', 'consent_version', 'consent_type', 'date', 'reporter', 'waiting_double_accept'];

/** A definition's current version: its highest version_id. */
export const currentVersion = (d: ConsentDefinitionSetting) =>
  d.versions.reduce((a, b) => (b.version_id > a.version_id ? b : a));

/** The text of a version in a language (its base language next, then its first text). */
export function textIn(version: ConsentDefinitionSetting['versions'][number], language: string | undefined) {
  const want = (language ?? '').toLowerCase().replace('_', '-');
  return (
    version.texts.find((t) => t.language.toLowerCase().replace('_', '-') === want) ??
    version.texts.find((t) => t.language.toLowerCase().split(/[-_]/)[0] === want.split('-')[0]) ??
    version.texts[0]!
  );
}

const invalid = (field: string, message: string) =>
  new WardError('consentInvalid', {
    description: `${field} ${message}`,
    details: [{ field, message, code: 'invalid' }],
  });

function readOne(key: string, raw: unknown, d: ConsentDefinitionSetting, at: string): ConsentInput {
  const field = `${at}.${key}`;
  if (!isObject(raw)) throw invalid(field, 'must be an object {granted, consent_version: {version_id, language}}');
  for (const k of Object.keys(raw))
    if (!INPUT_KEYS.includes(k)) throw invalid(`${field}.${k}`, 'is not a field of a consent');
  if (typeof raw.granted !== 'boolean') throw invalid(`${field}.granted`, 'must be true or false');
  if (raw.consent_type !== undefined && raw.consent_type !== d.consent_type)
    throw invalid(`${field}.consent_type`, `must be ${d.consent_type}, the type of this consent`);
  if (raw.date !== undefined && (typeof raw.date !== 'string' || Number.isNaN(Date.parse(raw.date))))
    throw invalid(`${field}.date`, 'must be an ISO 8601 date (Ward keeps the time it received it)');
  let version = currentVersion(d);
  let language: string | undefined;
  if (raw.consent_version !== undefined) {
    const cv = raw.consent_version;
    if (!isObject(cv) || Object.keys(cv).some((k) => k !== 'version_id' && k !== 'language'))
      throw invalid(`${field}.consent_version`, 'must be an object {version_id, language}');
    if (cv.version_id !== undefined) {
      const v = d.versions.find((x) => x.version_id === cv.version_id);
      if (!v) throw invalid(`${field}.consent_version.version_id`, 'is not a version of this consent');
      version = v;
    }
    if (cv.language !== undefined) {
      if (typeof cv.language !== 'string' || !/^[A-Za-z]{2,3}([-_][A-Za-z0-9]{2,8}){0,4}$/.test(cv.language))
        throw invalid(`${field}.consent_version.language`, 'must be a language tag such as en or fr-FR');
      language = cv.language;
    }
  }
  return {
    key,
    granted: raw.granted,
    consent_type: d.consent_type,
    version_id: version.version_id,
    language: language ?? textIn(version, undefined).language,
  };
}

/**
 * Reads the `consents` of a request against the account's definitions: an unknown key, an archived
 * definition or a wrong shape throws (nothing is stored). `at` is where they sit (`data.consents`).
 */
export function readConsents(raw: unknown, definitions: ConsentDefinitionSetting[], at: string): ConsentInput[] {
  if (raw === undefined || raw === null) return [];
  if (!isObject(raw)) throw invalid(at, 'must be an object of consents by key');
  return Object.entries(raw).map(([key, v]) => {
    const d = definitions.find((x) => x.key === key);
    const field = `${at}.${key}`;
    if (!d)
      throw new WardError('consentUnknown', {
        description: `${field} is not a consent of this account`,
        details: [{ field, message: 'is not a consent of this account', code: 'invalid' }],
      });
    if (d.status === 'archived')
      throw new WardError('consentArchived', {
        description: `${field} is archived`,
        details: [{ field, message: 'is archived', code: 'invalid' }],
      });
    return readOne(key, v, d, at);
  });
}

/** Every active required definition must be granted (a signup by the user). */
export function requireConsents(given: ConsentInput[], definitions: ConsentDefinitionSetting[], at: string): void {
  const missing = definitions.filter(
    (d) => d.required && d.status === 'active' && !given.some((g) => g.key === d.key && g.granted),
  );
  if (missing.length)
    throw new WardError('consentRequired', {
      description: missing.map((d) => `${at}.${d.key} must be granted`).join('; '),
      details: missing.map((d) => ({ field: `${at}.${d.key}`, message: 'must be granted', code: 'missing' })),
    });
}

/** A stored consent in the Core SDK's shape (its UserConsent, snake_case, as ReachFive answers it). */
export const consentView = (c: StoredUserConsent) => ({
  granted: c.granted,
  date: new Date(c.at).toISOString(),
  consent_version: { version_id: c.version_id, language: c.language },
  consent_type: c.consent_type,
  waiting_double_accept: c.waiting_double_accept,
  reporter: c.reporter,
});

/** The user's consents as the map getUser answers. */
export const consentsView = (all: StoredUserConsent[]) => Object.fromEntries(all.map((c) => [c.key, consentView(c)]));

/** One change of the history (management API, data download). */
export const historyView = (h: UserConsentChange) => ({ key: h.key, ...consentView(h) });

/** The active definitions as the remote settings list them, in a language (the Core SDK's Consent). */
export const publicConsents = (definitions: ConsentDefinitionSetting[], language: string | undefined) =>
  definitions
    .filter((d) => d.status === 'active')
    .map((d) => {
      const version = currentVersion(d);
      const t = textIn(version, language);
      return {
        key: d.key,
        title: t.title,
        description: t.description,
        consent_type: d.consent_type,
        status: d.status,
        required: d.required,
        version_id: version.version_id,
        language: t.language,
      };
    });
