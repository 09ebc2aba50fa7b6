import { Type } from 'typebox';
import { anyObject, nullable } from '../http/schema-types.js';
import { extrasView } from '../accounts/profile-extras.js';
import type { StoredProfile } from '../storage/sql/profiles.js';

// The profile part of a user in the management API: the fields PATCH /api/v1/users/{id} takes (their
// values checked by accounts/profile.ts, the one validator, so the schemas here only say what they are)
// and what a user's view shows.

const text = (description: string) => nullable(Type.String({ description }));

export const profileFields = {
  given_name: text('null clears it'),
  family_name: text('null clears it'),
  middle_name: text('null clears it'),
  nickname: text('null clears it'),
  birthdate: text('YYYY-MM-DD'),
  gender: text('e.g. female, male'),
  locale: text('a BCP 47 language tag such as fr-FR'),
  picture: text('an http(s) URL'),
  website: text('an http(s) URL'),
  zoneinfo: text('a time zone name such as Europe/Paris'),
  address: nullable(anyObject({ description: 'formatted, street_address, locality, region, postal_code, country' })),
  addresses: nullable(
    Type.Array(anyObject(), {
      description:
        'ReachFive addresses (title, default, address_type billing|delivery, street_address, address_complement, locality, region, postal_code, country, raw, delivery_note, recipient, company, phone_number); at most one default; null or [] clears them',
    }),
  ),
  company: text('null clears it'),
  bio: text('null clears it'),
  lite_only: nullable(Type.Boolean({ description: 'a lite profile: kept without credentials, it cannot sign in' })),
  name: text('the full name as written (the name claim); null clears it'),
  profile_url: text('an http(s) URL (the profile claim)'),
  username: text('a display name (the preferred_username claim), not unique, not a sign-in identifier'),
  custom_fields: anyObject({
    description: "the account's custom fields, those only administrators may write included; null removes one",
  }),
};

/** The profile claims and custom fields of a user's view. */
export const profileView = (p: StoredProfile | undefined) => ({
  middle_name: p?.middle_name ?? null,
  nickname: p?.nickname ?? null,
  birthdate: p?.birthdate ?? null,
  gender: p?.gender ?? null,
  locale: p?.locale ?? null,
  picture: p?.picture ?? null,
  website: p?.website ?? null,
  zoneinfo: p?.zoneinfo ?? null,
  address: p?.address ?? null,
  ...extrasView(p),
  name: p?.name ?? null,
  custom_fields: p?.custom_fields ?? {},
});

export const profileViewSchema = {
  middle_name: nullable(Type.String()),
  nickname: nullable(Type.String()),
  birthdate: nullable(Type.String()),
  gender: nullable(Type.String()),
  locale: nullable(Type.String()),
  picture: nullable(Type.String()),
  website: nullable(Type.String()),
  zoneinfo: nullable(Type.String()),
  address: nullable(anyObject()),
  addresses: Type.Array(anyObject()),
  company: nullable(Type.String()),
  bio: nullable(Type.String()),
  lite_only: Type.Boolean(),
  profile_url: nullable(Type.String()),
  username: nullable(Type.String()),
  name: nullable(Type.String()),
  custom_fields: anyObject(),
};
