import type { FieldError } from '../errors/ward-error.js';
import type { StoredProfile } from '../storage/sql/profiles.js';
import { isWebUrl } from '../lib/url.js';
import { addressesView, isText, readAddresses } from './postal-addresses.js';

// The ReachFive profile fields beyond the OpenID Connect claims kept as such (issue 37, item 2):
// `addresses` (postal-addresses.ts), `company`, `bio`, `lite_only`, and `name`, `profile_url` and
// `username`, which the `name`, `profile` and `preferred_username` claims answer (protocol/scopes.ts).
// The profile validator (profile.ts) hands each of these keys here; the userinfo answer and the
// management API show them with extrasView.

export type ExtraField = 'addresses' | 'company' | 'bio' | 'lite_only' | 'name' | 'profile_url' | 'username';
export const EXTRA_FIELDS: readonly ExtraField[] = [
  'addresses',
  'company',
  'bio',
  'lite_only',
  'name',
  'profile_url',
  'username',
];
export const isExtraField = (k: string): k is ExtraField => (EXTRA_FIELDS as readonly string[]).includes(k);

/** Refusal of `lite_only: true` by a user (signup, update-profile). */
const LITE_BY_ADMIN =
  'may only be made true by an administrator (management API, import): a lite profile has no credentials and cannot sign in';

/**
 * The stored value of an extra field (null or '' clears it), or undefined with the problem in errors.
 * `writer` is who writes: a user may not make their own profile a lite one.
 */
export function readExtra(
  k: ExtraField,
  v: unknown,
  at: string,
  writer: 'user' | 'admin',
  errors: FieldError[],
): StoredProfile[ExtraField] | undefined {
  const invalid = (message: string) => {
    errors.push({ field: at, message, code: 'invalid' });
    return undefined;
  };
  switch (k) {
    case 'addresses':
      return readAddresses(v, at, errors);
    case 'company':
      if (v === null || v === '') return null;
      return isText(v, 200) ? v : invalid('must be a string of at most 200 characters, without control characters');
    case 'bio':
      if (v === null || v === '') return null;
      return isText(v, 2000, true) ? v : invalid('must be a string of at most 2000 characters');
    case 'lite_only':
      if (v === null) return false;
      if (typeof v !== 'boolean') return invalid('must be true or false');
      if (v && writer === 'user') return invalid(LITE_BY_ADMIN);
      return v;
    case 'name':
      if (v === null || v === '') return null;
      return isText(v, 300) && v.trim() !== ''
        ? v
        : invalid('must be a string of at most 300 characters, without control characters');
    case 'profile_url':
      if (v === null || v === '') return null;
      return typeof v === 'string' && isWebUrl(v) ? v : invalid('must be an http(s) URL of at most 2048 characters');
    case 'username':
      if (v === null || v === '') return null;
      return isText(v, 100) && v.trim() === v && v !== ''
        ? v
        : invalid('must be a string of at most 100 characters, without control characters or spaces at either end');
  }
}

/**
 * The extra fields as userinfo and the management API answer them (the Core SDK's shape). Not `name`:
 * userinfo answers the `name` claim (the one written, else the names joined), the management API the one written.
 */
export const extrasView = (p: Pick<StoredProfile, ExtraField> | undefined) => ({
  addresses: addressesView(p?.addresses ?? []),
  company: p?.company ?? null,
  bio: p?.bio ?? null,
  lite_only: p?.lite_only ?? false,
  profile_url: p?.profile_url ?? null,
  username: p?.username ?? null,
});

/** The extra fields a profile holds, as an import line writes them (the bulk export): only those set. */
export const extrasOfLine = (p: Pick<StoredProfile, ExtraField> | undefined): Record<string, unknown> => ({
  ...(p?.addresses.length ? { addresses: p.addresses } : {}),
  ...(p?.company ? { company: p.company } : {}),
  ...(p?.bio ? { bio: p.bio } : {}),
  ...(p?.lite_only ? { lite_only: true } : {}),
  ...(p?.name ? { name: p.name } : {}),
  ...(p?.profile_url ? { profile_url: p.profile_url } : {}),
  ...(p?.username ? { username: p.username } : {}),
});
