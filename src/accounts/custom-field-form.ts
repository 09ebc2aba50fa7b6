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
