import { customFieldFromForm } from '../accounts/custom-field-form.js';
import type { CustomFieldSetting } from '../config/types.js';

// The completion form posts strings (Ward's page, or the app's own page): `email`, the claims by
// name, each custom field as `custom_fields.<name>` and each consent as `consents.<key>`. They become
// the input the profile validator reads (accounts/profile.ts), each custom field typed by the account's
// declaration (customFieldFromForm), each consent the `{granted, consent_version}` the consents'
// validator reads (accounts/user-consents.ts). An empty field is not given.

/** A consent's posted value: `true`, `1` or `on` (a checked box) grants it, `false` or `0` does not. */
const GRANTS = new Map<unknown, boolean>([
  ['true', true],
  ['1', true],
  ['on', true],
  ['false', false],
  ['0', false],
]);

/** The version a consent's box showed (its version and language), when the page showed it. */
export type ShownConsent = (key: string) => { version_id: number; language: string } | undefined;

/** The form's fields as profile input; `skip`: the fields the route reads itself (token, CSRF). */
export function completionInput(
  form: Record<string, unknown>,
  fields: CustomFieldSetting[],
  skip: readonly string[],
  shown: ShownConsent = () => undefined,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const custom: Record<string, unknown> = {};
  const consents: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(form)) {
    if (skip.includes(k) || v === undefined || v === '') continue;
    if (k.startsWith('consents.')) {
      const key = k.slice('consents.'.length);
      const version = shown(key);
      // Anything else is left for the validator to refuse (granted must be true or false).
      consents[key] = { granted: GRANTS.get(v) ?? v, ...(version ? { consent_version: version } : {}) };
      continue;
    }
    if (!k.startsWith('custom_fields.')) {
      out[k] = v;
      continue;
    }
    const name = k.slice('custom_fields.'.length);
    const f = fields.find((c) => c.name === name);
    custom[name] = f && typeof v === 'string' ? customFieldFromForm(f, v) : v;
  }
  // A bare `custom_fields` or `consents` value is left for the validator to refuse (a form cannot post an object).
  if (Object.keys(custom).length && out.custom_fields === undefined) out.custom_fields = custom;
  if (Object.keys(consents).length && out.consents === undefined) out.consents = consents;
  return out;
}
