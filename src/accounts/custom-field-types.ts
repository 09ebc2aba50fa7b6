import type { CustomFieldSetting } from '../config/types.js';
import { hasControlCharacter } from '../lib/text.js';

// The custom field types beyond the plain ones (issue 37, item 2): `decimal`, `tags` and `object`, the
// Core SDK's names of each type, and the account's custom fields as the remote settings list them
// (name and value translations included). The profile validator (profile.ts) checks the others.

type Check = { ok: true; value: unknown } | { ok: false; message: string };
const ok = (value: unknown): Check => ({ ok: true, value });
const bad = (message: string): Check => ({ ok: false, message });

/** At most this many tags in a `tags` field. */
export const MAX_TAGS = 50;
/** An `object` field's value, as JSON, is at most this long (and this deep). */
export const MAX_OBJECT_JSON = 10_000;
const MAX_OBJECT_DEPTH = 5;

/** A checkbox (`checkbox`, or Ward's earlier `boolean`). */
export const isCheckbox = (f: CustomFieldSetting): boolean => f.data_type === 'checkbox' || f.data_type === 'boolean';
/** A select (`select`, or Ward's earlier `list`): one of its values. */
export const isSelect = (f: CustomFieldSetting): boolean => f.data_type === 'select' || f.data_type === 'list';

const depth = (v: unknown): number =>
  typeof v === 'object' && v !== null ? 1 + Math.max(0, ...Object.values(v).map(depth)) : 0;

/** A decimal: a finite number (JSON's number; a decimal string such as "12.50" is read as one). */
export function checkDecimal(v: unknown): Check {
  if (typeof v === 'string' && /^-?\d{1,30}(\.\d{1,30})?$/.test(v)) return ok(Number(v));
  return typeof v === 'number' && Number.isFinite(v) ? ok(v) : bad('must be a decimal number such as 12.5');
}

/** Tags: distinct strings of 1 to 100 characters (among the field's values when it names some). */
export function checkTags(f: CustomFieldSetting, v: unknown): Check {
  if (!Array.isArray(v) || v.length > MAX_TAGS) return bad(`must be an array of at most ${MAX_TAGS} tags`);
  for (const t of v) {
    if (typeof t !== 'string' || !t || t.length > 100 || hasControlCharacter(t))
      return bad('must hold tags of 1 to 100 characters, without control characters');
    if (f.values && !f.values.includes(t)) return bad(`must hold tags among ${f.values.join(', ')}`);
  }
  if (new Set(v).size !== v.length) return bad('must not repeat a tag');
  return ok(v);
}

/** An object: a JSON object of at most MAX_OBJECT_JSON characters and 5 levels. */
export function checkObject(v: unknown): Check {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return bad('must be a JSON object');
  if (JSON.stringify(v).length > MAX_OBJECT_JSON || depth(v) > MAX_OBJECT_DEPTH)
    return bad(`must be at most ${MAX_OBJECT_JSON} characters of JSON, ${MAX_OBJECT_DEPTH} levels deep`);
  return ok(v);
}

/** The Core SDK's name of each custom field type (its CustomFieldType), for /identity/v1/config. */
const SDK_TYPES: Record<CustomFieldSetting['data_type'], string> = {
  string: 'string',
  number: 'number',
  integer: 'integer',
  decimal: 'decimal',
  boolean: 'checkbox',
  checkbox: 'checkbox',
  date: 'date',
  list: 'select',
  select: 'select',
  tags: 'tags',
  object: 'object',
  email: 'email',
  phone: 'phone',
};

type Translations = CustomFieldSetting['name_translations'];
const translationsOf = (t: Translations) => (t ?? []).map((x) => ({ lang_code: x.lang_code, label: x.label }));

/** The account's custom fields as /identity/v1/config lists them (the Core SDK's CustomField shape). */
export const publicCustomFields = (fields: CustomFieldSetting[]) =>
  fields.map((f) => ({
    name: f.name,
    ...(f.name_translations ? { name_translations: translationsOf(f.name_translations) } : {}),
    path: `custom_fields.${f.name}`,
    data_type: SDK_TYPES[f.data_type],
    required: f.required,
    writable: f.writable,
    ...(f.values
      ? {
          selectable_values: f.values.map((value) => {
            const l = f.value_labels?.find((x) => x.value === value);
            return { value, label: l?.label ?? value, translations: translationsOf(l?.translations) };
          }),
        }
      : {}),
  }));
