import type { CustomFieldSetting } from '../config/types.js';

// A custom field posted by a hosted form is a string: it becomes the type the account declares, for
// the profile validator (accounts/profile.ts): tags separated by commas, an object as JSON. A value that is not of its type is passed as written,
// so the validator names the problem.

const NUMBER = /^-?\d+(\.\d+)?([eE][+-]?\d+)?$/;

export function customFieldFromForm(f: CustomFieldSetting, v: string): unknown {
  switch (f.data_type) {
    case 'number':
    case 'integer':
    case 'decimal':
      return NUMBER.test(v.trim()) ? Number(v.trim()) : v;
    case 'boolean':
    case 'checkbox':
      return v === 'true' ? true : v === 'false' ? false : v;
    case 'tags':
      return v
        .split(',')
        .map((t) => t.trim())
        .filter(Boolean);
    case 'object':
      try {
        return JSON.parse(v) as unknown;
      } catch {
        return v;
      }
    default:
      return v;
  }
}

/** A stored value as a hosted form shows it (the reverse of customFieldFromForm); '' when none. */
export function customFieldToForm(f: CustomFieldSetting, v: unknown): string {
  if (v === undefined || v === null) return '';
  switch (f.data_type) {
    case 'boolean':
    case 'checkbox':
      return v === true ? 'true' : '';
    case 'tags':
      return Array.isArray(v) ? v.join(', ') : String(v);
    case 'object':
      return JSON.stringify(v);
    default:
      return String(v);
  }
}

type Translated = { lang_code: string; label: string }[] | undefined;
const inLanguage = (t: Translated, language: string) =>
  t?.find((x) => x.lang_code.toLowerCase().split(/[-_]/)[0] === language)?.label;

/** A custom field's name in a page's language: its translation, else its name with spaces. */
export const customFieldLabel = (f: CustomFieldSetting, language: string): string =>
  inLanguage(f.name_translations, language) ?? f.name.replace(/_/g, ' ');

/** The label of one of a select's values in a page's language: its translation, its label, else itself. */
export function customValueLabel(f: CustomFieldSetting, value: string, language: string): string {
  const l = f.value_labels?.find((x) => x.value === value);
  return inLanguage(l?.translations, language) ?? l?.label ?? value;
}
