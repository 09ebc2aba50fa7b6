import { Type } from 'typebox';
import { answer, protocolParams } from '../../protocol-schema.js';

/** The claims follow the access token's scopes (protocol/scopes.ts claimsFor); `fields` keeps only those named. */
export const userinfoSchema = {
  querystring: protocolParams({ fields: 'string: comma-separated names of the fields to answer (sub is always in)' }),
  response: {
    200: answer({
      sub: Type.String(),
      id: Type.String(),
      custom_fields: Type.Record(Type.String(), Type.Unknown()),
      addresses: Type.Array(Type.Record(Type.String(), Type.Unknown()), {
        description: "ReachFive postal addresses; `default` and `is_default` (the SDK's isDefault) say the same",
      }),
      company: Type.Union([Type.String(), Type.Null()]),
      bio: Type.Union([Type.String(), Type.Null()]),
      lite_only: Type.Boolean({ description: 'a lite profile (no credentials)' }),
      profile_url: Type.Union([Type.String(), Type.Null()], {
        description: 'the profile claim, as ReachFive names it',
      }),
      username: Type.Union([Type.String(), Type.Null()], {
        description: 'the preferred_username claim, as ReachFive names it',
      }),
      consents: Type.Record(
        Type.String(),
        answer({
          granted: Type.Boolean(),
          date: Type.String(),
          consent_version: answer({ version_id: Type.Integer(), language: Type.String() }),
          consent_type: Type.String(),
          waiting_double_accept: Type.Boolean(),
          reporter: Type.String({ description: 'end_user, managed (an administrator) or import' }),
        }),
        { description: "the user's consents to the account's consent definitions (with the profile scope)" },
      ),
      identities: Type.Array(
        answer({
          id: Type.String(),
          provider: Type.String(),
          user_id: Type.String({ description: "the provider's subject" }),
          created_at: Type.String(),
        }),
      ),
    }),
  },
};

/** POST userinfo: the token in the Authorization header, or (RFC 6750 2.2) in a form body. */
export const userinfoPostSchema = {
  ...userinfoSchema,
  body: protocolParams({
    access_token: 'string: the access token, when no Authorization header carries it (form-encoded body)',
  }),
};

/** The Core SDK's updateProfile: the standard claims and custom fields to change (never email, phone, password). */
export const updateProfileSchema = {
  body: protocolParams({
    given_name: 'string',
    family_name: 'string',
    middle_name: 'string',
    nickname: 'string',
    birthdate: 'string: YYYY-MM-DD',
    gender: 'string',
    locale: 'string: a BCP 47 language tag',
    picture: 'string: an http(s) URL',
    website: 'string: an http(s) URL',
    zoneinfo: 'string: a time zone name such as Europe/Paris',
    address: 'object: formatted, street_address, locality, region, postal_code, country',
    addresses:
      'array: ReachFive addresses {title, default, address_type, street_address, address_complement, locality, region, postal_code, country, raw, delivery_note, recipient, company, phone_number}',
    company: 'string',
    bio: 'string',
    lite_only: 'boolean: only false (an administrator makes a lite profile)',
    name: 'string: the full name as written (the name claim)',
    profile_url: 'string: an http(s) URL (the profile claim)',
    username: 'string: a display name (the preferred_username claim), not unique',
    custom_fields: "object: the account's custom fields the user may write",
    consents: 'object: consents by key, each {granted, consent_version?: {version_id, language}}',
    redirect_url: 'string: accepted for the SDK; no email changes here, so nothing is sent to it',
  }),
};

/** The Core SDK's unlink: a linked social identity of the user, by its id (from userinfo's identities). */
export const unlinkSchema = {
  body: protocolParams({
    identity_id: "string: the linked identity to remove (from userinfo's identities)",
    provider: 'string: the provider name, instead of identity_id',
  }),
};
