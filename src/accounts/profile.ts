import type { CustomFieldSetting } from '../config/types.js';
import { WardError, type FieldError } from '../errors/ward-error.js';
import { hasControlCharacter } from '../lib/text.js';
import { isWebUrl } from '../lib/url.js';
import {
  EMPTY_PROFILE,
  PROFILE_CLAIM_COLUMNS,
  type PostalAddress,
  type StoredProfile,
} from '../storage/sql/profiles.js';
import { normalizeEmail, normalizePhone } from './identifiers.js';
import { isExtraField, readExtra } from './profile-extras.js';
import { checkDecimal, checkObject, checkTags } from './custom-field-types.js';

// One validator for every write of a profile: signup's `data`, update-profile, the management API.
// It reads the standard OIDC claims (Core 5.1) Ward keeps and the account's custom fields, and refuses
// (400 with error_details, nothing stored) an unknown field, a wrong type, a field the writer may not
// write, or a required custom field left out: never a silent drop.

/** Names kept in the users table. */
export const NAME_CLAIMS = ['given_name', 'family_name'] as const;
/** Claims kept in the profile (its columns). */
export const PROFILE_CLAIMS = PROFILE_CLAIM_COLUMNS;
export const ADDRESS_PARTS = ['formatted', 'street_address', 'locality', 'region', 'postal_code', 'country'] as const;

type NameClaim = (typeof NAME_CLAIMS)[number];
type ProfileClaim = (typeof PROFILE_CLAIMS)[number];
export type ProfileClaims = Omit<StoredProfile, 'custom_fields' | 'updated_at'>;

/** A validated change: only the fields the input named (null clears one). */
export interface ProfileChange {
  names: Partial<Record<NameClaim, string | null>>;
  claims: Partial<ProfileClaims>;
  /** Custom fields to set (null: remove). */
  custom_fields: Record<string, unknown>;
  /** What changed, for the audit trail (names only, never values). */
  fields: string[];
}

export interface ProfileRules {
  customFields: CustomFieldSetting[];
  /** `user` may not write a field the account reserves to administrators. */
  writer: 'user' | 'admin';
  /** Where the fields sit in the request, for error_details (`data` at signup, '' at the top). */
  prefix: string;
  /** `create`: required custom fields must be given; `update`: they may not be cleared. */
  mode: 'create' | 'update';
  /** Keys of the input another part of the request reads (signup's email, password, ...). */
  ignore?: readonly string[];
  /** Keys refused with their own message (update-profile: email, phone_number, password). */
  elsewhere?: Readonly<Record<string, string>>;
  /** Problems the caller found in the same input, reported with these. */
  errors?: FieldError[];
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const LOCALE = /^[A-Za-z]{2,3}([-_][A-Za-z0-9]{2,8}){0,4}$/;

/** Whether s is a real calendar date YYYY-MM-DD (1000-01-01 to 9999-12-31). */
export function isCalendarDate(s: string): boolean {
  const m = DATE.exec(s);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const t = new Date(Date.UTC(y, mo - 1, d));
  return y >= 1000 && t.getUTCFullYear() === y && t.getUTCMonth() === mo - 1 && t.getUTCDate() === d;
}

/**
 * The zone names found valid so far: building an Intl.DateTimeFormat costs ~100 µs, a quarter of an
 * imported line's time when every line names a zone (bench I1). Only valid names are kept, so the set
 * is bounded by the zones ICU knows (a few hundred with their aliases).
 */
const knownZones = new Set<string>();

const isTimeZone = (s: string): boolean => {
  if (knownZones.has(s)) return true;
  if (s.length > 64 || !/^[A-Za-z0-9_+\-/]+$/.test(s)) return false;
  try {
    new Intl.DateTimeFormat('en', { timeZone: s });
    knownZones.add(s);
    return true;
  } catch {
    return false;
  }
};

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A text of at most max characters without control characters, or the reason it is not. */
const text = (v: unknown, max: number): string | null =>
  typeof v === 'string' && v.length <= max && !hasControlCharacter(v) ? v : null;

type Check = { ok: true; value: unknown } | { ok: false; message: string };
const ok = (value: unknown): Check => ({ ok: true, value });
const bad = (message: string): Check => ({ ok: false, message });

function checkClaim(name: NameClaim | ProfileClaim, v: unknown): Check {
  switch (name) {
    case 'given_name':
    case 'family_name':
    case 'middle_name':
    case 'nickname':
      return text(v, 200) !== null
        ? ok(v)
        : bad('must be a string of at most 200 characters, without control characters');
    case 'birthdate':
      return typeof v === 'string' && isCalendarDate(v) && v <= new Date().toISOString().slice(0, 10)
        ? ok(v)
        : bad('must be a date YYYY-MM-DD, not in the future');
    case 'gender':
      return text(v, 40) !== null && v !== ''
        ? ok(v)
        : bad('must be a string of at most 40 characters (e.g. female, male)');
    case 'locale':
      return typeof v === 'string' && v.length <= 35 && LOCALE.test(v)
        ? ok(v)
        : bad('must be a BCP 47 language tag such as fr-FR');
    case 'picture':
    case 'website':
      return typeof v === 'string' && isWebUrl(v) ? ok(v) : bad('must be an http(s) URL of at most 2048 characters');
    case 'zoneinfo':
      return typeof v === 'string' && isTimeZone(v) ? ok(v) : bad('must be a time zone name such as Europe/Paris');
    case 'address':
      return bad('');
  }
}

function checkAddress(v: unknown, at: string, errors: FieldError[]): PostalAddress | undefined {
  if (!isObject(v)) {
    errors.push({ field: at, message: `must be an object {${ADDRESS_PARTS.join(', ')}}`, code: 'invalid' });
    return undefined;
  }
  const out: PostalAddress = {};
  for (const [k, part] of Object.entries(v)) {
    if (!(ADDRESS_PARTS as readonly string[]).includes(k)) {
      errors.push({
        field: `${at}.${k}`,
        message: `is not an address part (${ADDRESS_PARTS.join(', ')})`,
        code: 'invalid',
      });
      continue;
    }
    if (part === null || part === '') continue;
    const max = k === 'formatted' ? 1000 : 200;
    if (text(part, max) === null)
      errors.push({ field: `${at}.${k}`, message: `must be a string of at most ${max} characters`, code: 'invalid' });
    else out[k as keyof PostalAddress] = part as string;
  }
  return out;
}

/** The value of a custom field of its declared type (normalized), or why it is not one. */
export function checkCustomValue(f: CustomFieldSetting, v: unknown): Check {
  switch (f.data_type) {
    case 'string':
      return text(v, 1000) !== null ? ok(v) : bad('must be a string of at most 1000 characters');
    case 'number':
      return typeof v === 'number' && Number.isFinite(v) ? ok(v) : bad('must be a number');
    case 'integer':
      return typeof v === 'number' && Number.isSafeInteger(v) ? ok(v) : bad('must be an integer');
    case 'decimal':
      return checkDecimal(v);
    case 'boolean':
    case 'checkbox':
      return typeof v === 'boolean' ? ok(v) : bad('must be true or false');
    case 'tags':
      return checkTags(f, v);
    case 'object':
      return checkObject(v);
    case 'date':
      return typeof v === 'string' && isCalendarDate(v) ? ok(v) : bad('must be a date YYYY-MM-DD');
    case 'list':
    case 'select':
      return typeof v === 'string' && f.values!.includes(v) ? ok(v) : bad(`must be one of ${f.values!.join(', ')}`);
    case 'email': {
      const e = normalizeEmail(v);
      return e ? ok(e) : bad('must be an email address');
    }
    case 'phone': {
      const p = normalizePhone(v);
      return p ? ok(p) : bad('must be an E.164 phone number such as +33612345678');
    }
  }
}

function readCustomFields(
  raw: unknown,
  rules: ProfileRules,
  at: string,
  errors: FieldError[],
): Record<string, unknown> | undefined {
  if (!isObject(raw)) {
    errors.push({ field: at, message: 'must be an object of the custom fields the account declares', code: 'invalid' });
    return undefined;
  }
  const out: Record<string, unknown> = {};
  for (const [name, v] of Object.entries(raw)) {
    const f = rules.customFields.find((c) => c.name === name);
    const field = `${at}.${name}`;
    if (!f) errors.push({ field, message: 'is not a custom field of this account', code: 'invalid' });
    else if (f.writable === 'admin' && rules.writer === 'user')
      errors.push({ field, message: 'may only be written by an administrator', code: 'invalid' });
    else if (v === null) {
      if (f.required) errors.push({ field, message: `${field} is required`, code: 'missing' });
      else out[name] = null;
    } else {
      const c = checkCustomValue(f, v);
      if (c.ok) out[name] = c.value;
      else errors.push({ field, message: c.message, code: 'invalid' });
    }
  }
  return out;
}

/**
 * Reads and validates the profile fields of a request body: every key must be a known claim,
 * `custom_fields`, or one the caller reads itself (`ignore`). Throws `profileInvalid` with every
 * problem at once; returns only what the input named.
 */
export function readProfile(input: Record<string, unknown>, rules: ProfileRules): ProfileChange {
  const errors: FieldError[] = [...(rules.errors ?? [])];
  const at = (k: string) => (rules.prefix ? `${rules.prefix}.${k}` : k);
  const change: ProfileChange = { names: {}, claims: {}, custom_fields: {}, fields: [] };
  for (const [k, v] of Object.entries(input)) {
    if (rules.ignore?.includes(k)) continue;
    if (v === undefined) continue;
    if (rules.elsewhere?.[k]) {
      errors.push({ field: at(k), message: rules.elsewhere[k]!, code: 'invalid' });
      continue;
    }
    if (k === 'custom_fields') {
      const cf = readCustomFields(v, rules, at(k), errors);
      if (cf) {
        change.custom_fields = cf;
        change.fields.push(...Object.keys(cf).map((n) => `custom_fields.${n}`));
      }
      continue;
    }
    if (isExtraField(k)) {
      const value = readExtra(k, v, at(k), rules.writer, errors);
      if (value !== undefined) {
        (change.claims as Record<string, unknown>)[k] = value;
        change.fields.push(k);
      }
      continue;
    }
    const isName = (NAME_CLAIMS as readonly string[]).includes(k);
    if (!isName && !(PROFILE_CLAIMS as readonly string[]).includes(k)) {
      errors.push({ field: at(k), message: 'is not a profile field Ward keeps', code: 'invalid' });
      continue;
    }
    let value: unknown = null;
    if (v !== null && v !== '') {
      if (k === 'address') value = checkAddress(v, at(k), errors) ?? null;
      else {
        const c = checkClaim(k as NameClaim | ProfileClaim, v);
        if (!c.ok) {
          errors.push({ field: at(k), message: c.message, code: 'invalid' });
          continue;
        }
        value = c.value;
      }
    }
    if (k === 'address' && value !== null && !Object.keys(value as object).length) value = null;
    if (isName) change.names[k as NameClaim] = value as string | null;
    else (change.claims as Record<string, unknown>)[k] = value;
    change.fields.push(k);
  }
  if (rules.mode === 'create')
    for (const f of rules.customFields)
      if (f.required && (change.custom_fields[f.name] === undefined || change.custom_fields[f.name] === null)) {
        const field = `${at('custom_fields')}.${f.name}`;
        if (!errors.some((e) => e.field === field))
          errors.push({ field, message: `${field} is required`, code: 'missing' });
      }
  if (errors.length)
    throw new WardError('profileInvalid', {
      description: errors.map((e) => (e.code === 'missing' ? e.message : `${e.field} ${e.message}`)).join('; '),
      details: errors,
    });
  return change;
}

/** The profile after a change. */
export function applyProfile(
  current: Omit<StoredProfile, 'updated_at'> | undefined,
  change: ProfileChange,
): ProfileClaims & {
  custom_fields: Record<string, unknown>;
} {
  const base = current ?? EMPTY_PROFILE;
  const custom_fields = { ...base.custom_fields };
  for (const [k, v] of Object.entries(change.custom_fields)) {
    if (v === null) delete custom_fields[k];
    else custom_fields[k] = v;
  }
  return { ...base, ...change.claims, custom_fields };
}

/** Whether a change touches the stored profile (beyond the names kept with the user). */
export const touchesProfile = (change: ProfileChange): boolean =>
  Object.keys(change.claims).length > 0 || Object.keys(change.custom_fields).length > 0;
