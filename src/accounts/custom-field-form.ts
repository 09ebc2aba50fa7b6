import type { CustomFieldSetting } from '../config/types.js';

// A custom field posted by a hosted form is a string: it becomes the type the account declares, for
// the profile validator (accounts/profile.ts). A value that is not of its type is passed as written,
// so the validator names the problem.

const NUMBER = /^-?\d+(\.\d+)?([eE][+-]?\d+)?$/;

export function customFieldFromForm(f: CustomFieldSetting, v: string): unknown {
  switch (f.data_type) {
    case 'number':
    case 'integer':
      return NUMBER.test(v.trim()) ? Number(v.trim()) : v;
    case 'boolean':
      return v === 'true' ? true : v === 'false' ? false : v;
    default:
      return v;
  }
}
