import type { FieldError } from '../errors/ward-error.js';
import { hasControlCharacter } from '../lib/text.js';
import type { PostalAddress, ProfileAddress, StoredProfile } from '../storage/sql/profiles.js';
import { normalizePhone } from './identifiers.js';

// ReachFive postal addresses (the Core SDK's ProfileAddress; issue 37, item 2): the profile's
// `addresses`, validated here for every writer (signup, update-profile, management API, import).
// Not to be confused with self-service/addresses.ts (a user's email addresses and phone numbers).

/** At most this many addresses per profile. */
export const MAX_ADDRESSES = 10;

/** Each text part with its longest length; the multi-line ones may hold line breaks. */
const TEXT_PARTS: Record<string, { max: number; multiline?: boolean }> = {
  title: { max: 100 },
  street_address: { max: 500, multiline: true },
  address_complement: { max: 500 },
  locality: { max: 200 },
  region: { max: 200 },
  postal_code: { max: 40 },
  country: { max: 100 },
  raw: { max: 1000, multiline: true },
  delivery_note: { max: 500, multiline: true },
  recipient: { max: 200 },
  company: { max: 200 },
};
const ADDRESS_TYPES = ['billing', 'delivery'] as const;
/** Every key an address may have; `is_default` is how the Core SDK sends `isDefault` (snake-cased). */
export const ADDRESS_KEYS = [
  ...Object.keys(TEXT_PARTS),
  'default',
  'is_default',
  'address_type',
  'phone_number',
] as const;

/** Whether v is a string of at most max characters, without control characters (but line breaks if multiline). */
export const isText = (v: unknown, max: number, multiline = false): v is string =>
  typeof v === 'string' && v.length <= max && !hasControlCharacter(multiline ? v.replace(/\r?\n|\t/g, ' ') : v);

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function readAddress(v: unknown, at: string, errors: FieldError[]): ProfileAddress | undefined {
  const invalid = (field: string, message: string) => errors.push({ field, message, code: 'invalid' });
  if (!isObject(v)) {
    invalid(at, `must be an object {${ADDRESS_KEYS.filter((k) => k !== 'is_default').join(', ')}}`);
    return undefined;
  }
  const out: ProfileAddress = {};
  const before = errors.length;
  for (const [k, part] of Object.entries(v)) {
    const field = `${at}.${k}`;
    if (!(ADDRESS_KEYS as readonly string[]).includes(k)) {
      invalid(field, 'is not a part of an address');
      continue;
    }
    if (part === null || part === undefined || part === '') continue;
    if (k === 'default' || k === 'is_default') {
      if (typeof part !== 'boolean') invalid(field, 'must be true or false');
      else if (out.default !== undefined && out.default !== part) invalid(field, 'contradicts default');
      else out.default = part;
    } else if (k === 'address_type') {
      if (!(ADDRESS_TYPES as readonly unknown[]).includes(part))
        invalid(field, `must be one of ${ADDRESS_TYPES.join(', ')}`);
      else out.address_type = part as ProfileAddress['address_type'];
    } else if (k === 'phone_number') {
      const p = normalizePhone(part);
      if (!p) invalid(field, 'must be an E.164 phone number such as +33612345678');
      else out.phone_number = p;
    } else {
      const rule = TEXT_PARTS[k]!;
      if (!isText(part, rule.max, rule.multiline))
        invalid(field, `must be a string of at most ${rule.max} characters, without control characters`);
      else (out as Record<string, unknown>)[k] = part;
    }
  }
  if (errors.length > before) return undefined;
  if (!Object.keys(out).some((k) => k !== 'default' && k !== 'address_type')) {
    invalid(at, 'must hold at least one part of an address');
    return undefined;
  }
  return out;
}

/** The addresses of an input (null or [] clears them), or undefined with the problems in errors. */
export function readAddresses(v: unknown, at: string, errors: FieldError[]): ProfileAddress[] | undefined {
  if (v === null) return [];
  if (!Array.isArray(v)) {
    errors.push({ field: at, message: 'must be an array of addresses', code: 'invalid' });
    return undefined;
  }
  if (v.length > MAX_ADDRESSES) {
    errors.push({ field: at, message: `must hold at most ${MAX_ADDRESSES} addresses`, code: 'invalid' });
    return undefined;
  }
  const before = errors.length;
  const out = v.map((a, i) => readAddress(a, `${at}[${i}]`, errors));
  if (errors.length > before) return undefined;
  if (out.filter((a) => a?.default).length > 1) {
    errors.push({ field: at, message: 'may have at most one default address', code: 'invalid' });
    return undefined;
  }
  return out as ProfileAddress[];
}

/** The addresses as the Core SDK reads them: `default` (ReachFive's name) and `is_default` (the SDK's isDefault). */
export const addressesView = (list: readonly ProfileAddress[]) =>
  list.map((a) => ({ ...a, default: a.default ?? false, is_default: a.default ?? false }));

/**
 * The OpenID Connect `address` claim (Core 5.1.1): the default ReachFive address when there is one,
 * otherwise the `address` written as such.
 */
export function oidcAddress(profile: Pick<StoredProfile, 'address' | 'addresses'> | undefined): PostalAddress | null {
  const d = profile?.addresses.find((a) => a.default);
  if (!d) return profile?.address ?? null;
  const street = [d.street_address, d.address_complement].filter(Boolean).join('\n');
  const claim: PostalAddress = {
    formatted: d.raw,
    street_address: street || undefined,
    locality: d.locality,
    region: d.region,
    postal_code: d.postal_code,
    country: d.country,
  };
  return Object.fromEntries(Object.entries(claim).filter(([, v]) => v !== undefined)) as PostalAddress;
}
