// The profile form of the hosted account page (docs/self-service.md, "The hosted account page"): what it
// shows of the stored profile, and what a post of it changes. The form holds what a user may change
// without a proof: names, full name, nickname, birthdate, company, bio, the default postal address and the
// custom fields the user may write; never the email address or phone number (their own verified forms).
// A post becomes an update-profile input naming only what differs from the stored profile, read by the
// one profile validator (accounts/profile.ts), so the page and the API refuse the same things.
import { customFieldFromForm, customFieldToForm } from '../accounts/custom-field-form.js';
import { isCheckbox } from '../accounts/custom-field-types.js';
import type { CustomFieldSetting } from '../config/types.js';
import type { FieldError } from '../errors/ward-error.js';
import type { ProfileAddress, StoredProfile } from '../storage/sql/profiles.js';
import type { User } from '../storage/sql/users.js';

/** The profile's own text fields, as the form names them. */
export const PROFILE_TEXT_FIELDS = [
  'given_name',
  'family_name',
  'name',
  'nickname',
  'birthdate',
  'company',
  'bio',
] as const;
/** The default address's parts the form edits (posted as `address_<part>`). */
export const ADDRESS_PARTS = [
  'street_address',
  'address_complement',
  'postal_code',
  'locality',
  'region',
  'country',
] as const;

type TextField = (typeof PROFILE_TEXT_FIELDS)[number];
type AddressPart = (typeof ADDRESS_PARTS)[number];

/** The form's values by input name (`given_name`, `address_locality`, `cf_<name>`). */
export type ProfileFormValues = Record<string, string>;

const defaultOf = (addresses: ProfileAddress[]) => addresses.find((a) => a.default);

const storedText = (user: User, p: StoredProfile, k: TextField): string => {
  const v = k === 'given_name' || k === 'family_name' ? user[k] : p[k];
  return typeof v === 'string' ? v : '';
};

/** What the form shows of the stored profile. */
export function formOfProfile(user: User, p: StoredProfile, fields: CustomFieldSetting[]): ProfileFormValues {
  const out: ProfileFormValues = {};
  for (const k of PROFILE_TEXT_FIELDS) out[k] = storedText(user, p, k);
  const address = defaultOf(p.addresses);
  for (const k of ADDRESS_PARTS) out[`address_${k}`] = address?.[k] ?? '';
  for (const f of fields) out[`cf_${f.name}`] = customFieldToForm(f, p.custom_fields[f.name]);
  return out;
}

/** What a post typed, as the form shows it again (strings only, each cut to a sane length; never a secret). */
export function typedProfile(params: Record<string, unknown>, fields: CustomFieldSetting[]): ProfileFormValues {
  const names = [
    ...PROFILE_TEXT_FIELDS,
    ...ADDRESS_PARTS.map((k) => `address_${k}`),
    ...fields.map((f) => `cf_${f.name}`),
  ];
  const out: ProfileFormValues = {};
  for (const k of names) {
    const v = params[k];
    out[k] = typeof v === 'string' ? v.slice(0, 12_000) : '';
  }
  return out;
}

/**
 * The update-profile input of a post: each field whose typed value differs from the stored one (an emptied
 * field is null: cleared), the default address rebuilt from its parts (its other parts kept; all emptied:
 * removed), the custom fields as their types read them.
 */
export function profileInput(
  typed: ProfileFormValues,
  user: User,
  p: StoredProfile,
  fields: CustomFieldSetting[],
): Record<string, unknown> {
  const input: Record<string, unknown> = {};
  for (const k of PROFILE_TEXT_FIELDS) {
    const v = typed[k] ?? '';
    if (v !== storedText(user, p, k)) input[k] = v === '' ? null : v;
  }
  const addresses = addressesAfter(typed, p.addresses);
  if (JSON.stringify(addresses) !== JSON.stringify(p.addresses)) input.addresses = addresses;
  const custom: Record<string, unknown> = {};
  for (const f of fields) {
    const v = typed[`cf_${f.name}`] ?? '';
    const held = p.custom_fields[f.name];
    if (v === customFieldToForm(f, held)) continue;
    if (isCheckbox(f)) custom[f.name] = v === 'true';
    else custom[f.name] = v === '' ? null : customFieldFromForm(f, v);
  }
  if (Object.keys(custom).length) input.custom_fields = custom;
  return input;
}

/** The addresses once the default one is edited: replaced in place, added first, or removed when emptied. */
function addressesAfter(typed: ProfileFormValues, addresses: ProfileAddress[]): ProfileAddress[] {
  const i = addresses.findIndex((a) => a.default);
  const edited: ProfileAddress = { ...(i >= 0 ? addresses[i] : {}), default: true };
  for (const k of ADDRESS_PARTS) {
    const v = typed[`address_${k}`] ?? '';
    if (v === '') delete edited[k];
    else edited[k] = v;
  }
  const empty = ADDRESS_PARTS.every((k) => !typed[`address_${k}`]);
  if (i < 0) return empty ? addresses : [edited, ...addresses];
  const others = addresses.filter((_, j) => j !== i);
  if (empty) return others;
  return addresses.map((a, j) => (j === i ? edited : a));
}

/** The form input a validator's problem is about (`addresses[0].locality` is `address_locality`). */
export function inputOf(e: FieldError): string {
  if (e.field.startsWith('custom_fields.')) return `cf_${e.field.slice('custom_fields.'.length)}`;
  const address = /^addresses(\[\d+\])?(\.(\w+))?/.exec(e.field);
  if (address) {
    const part = address[3] as AddressPart | undefined;
    return part && (ADDRESS_PARTS as readonly string[]).includes(part) ? `address_${part}` : 'address';
  }
  return e.field;
}
