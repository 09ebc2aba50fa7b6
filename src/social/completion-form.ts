import { customFieldFromForm } from '../accounts/custom-field-form.js';
import type { CustomFieldSetting } from '../config/types.js';

// The completion form posts strings (Ward's page, or the app's own page): `email`, the claims by
// name, and each custom field as `custom_fields.<name>`. They become the input the profile validator
// reads (accounts/profile.ts), each custom field typed by the account's declaration
// (customFieldFromForm). An empty field is not given.

/** The form's fields as profile input; `skip`: the fields the route reads itself (token, CSRF). */
export function completionInput(
  form: Record<string, unknown>,
  fields: CustomFieldSetting[],
  skip: readonly string[],
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const custom: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(form)) {
    if (skip.includes(k) || v === undefined || v === '') continue;
    if (!k.startsWith('custom_fields.')) {
      out[k] = v;
      continue;
    }
    const name = k.slice('custom_fields.'.length);
    const f = fields.find((c) => c.name === name);
    custom[name] = f && typeof v === 'string' ? customFieldFromForm(f, v) : v;
  }
  // A bare `custom_fields` value is left for the validator to refuse (a form cannot post an object).
  if (Object.keys(custom).length && out.custom_fields === undefined) out.custom_fields = custom;
  return out;
}
