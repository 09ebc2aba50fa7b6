import { hasControlCharacter } from '../lib/text.js';
import { CUSTOM_FIELD_TYPES, type CustomFieldSetting, type CustomFieldType } from './types.js';

const NAME = /^[a-z][a-z0-9_]{0,63}$/;
const KEYS = ['name', 'data_type', 'required', 'writable', 'values'];
const MAX_FIELDS = 100;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The account's `custom_fields` setting: a list of {name, data_type, required?, writable?, values?}.
 * Names are snake_case and unique (the Core SDK sends custom_fields' keys unconverted); a `list` names
 * its allowed values; a required field must be one the user may write (else no signup could succeed).
 */
export function validateCustomFields(
  p: { add(key: string, message: string): void },
  raw: unknown,
  base: CustomFieldSetting[],
): CustomFieldSetting[] {
  if (raw === undefined) return structuredClone(base);
  const key = 'account.custom_fields';
  if (!Array.isArray(raw) || raw.length > MAX_FIELDS) {
    p.add(key, `must be an array of at most ${MAX_FIELDS} fields {name, data_type, required, writable, values}`);
    return structuredClone(base);
  }
  const out: CustomFieldSetting[] = [];
  const seen = new Set<string>();
  for (const [i, f] of raw.entries()) {
    const at = `${key}[${i}]`;
    if (!isObject(f)) {
      p.add(at, 'must be an object {name, data_type, required, writable, values}');
      continue;
    }
    for (const k of Object.keys(f))
      if (!KEYS.includes(k)) p.add(`${at}.${k}`, `unknown key (allowed: ${KEYS.join(', ')})`);
    const problems: string[] = [];
    if (typeof f.name !== 'string' || !NAME.test(f.name))
      problems.push('name: must be snake_case: a lower-case letter, then letters, digits or _ (at most 64)');
    else if (seen.has(f.name)) problems.push(`name: ${f.name} is declared twice`);
    if (!CUSTOM_FIELD_TYPES.includes(f.data_type as CustomFieldType))
      problems.push(`data_type: must be one of ${CUSTOM_FIELD_TYPES.join(', ')}`);
    if (f.required !== undefined && typeof f.required !== 'boolean') problems.push('required: must be true or false');
    if (f.writable !== undefined && f.writable !== 'user' && f.writable !== 'admin')
      problems.push('writable: must be user or admin');
    if (f.required === true && f.writable === 'admin')
      problems.push('required: a required field must be writable by the user (else no signup could succeed)');
    if (f.data_type === 'list') {
      const v = f.values;
      if (
        !Array.isArray(v) ||
        !v.length ||
        v.length > 200 ||
        v.some((x) => typeof x !== 'string' || !x || x.length > 100 || hasControlCharacter(x)) ||
        new Set(v).size !== v.length
      )
        problems.push('values: a list field must name 1 to 200 distinct values of 1 to 100 characters');
    } else if (f.values !== undefined) problems.push('values: only a list field has values');
    for (const m of problems) p.add(`${at}.${m.slice(0, m.indexOf(':'))}`, m.slice(m.indexOf(':') + 2));
    if (problems.length) continue;
    seen.add(f.name as string);
    out.push({
      name: f.name as string,
      data_type: f.data_type as CustomFieldType,
      required: f.required === true,
      writable: f.writable === 'admin' ? 'admin' : 'user',
      ...(f.data_type === 'list' ? { values: [...(f.values as string[])] } : {}),
    });
  }
  return out;
}
