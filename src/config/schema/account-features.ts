import { Type } from 'typebox';
import { flag, group, int, list, oneOf, orNull, text } from './kit.js';

/** The nested groups of the account settings (schema/account.ts holds the rest). */

const perWindow = (limit: number, window: number, min: number, max: number, description: string) =>
  group(
    {
      limit: int(min, max, 'How many per window.', limit),
      window_seconds: int(1, 86400, 'The window, seconds.', window),
    },
    description,
  );

/** Requests per window and per client IP; a null limit is no limit. */
const rateLimit = (limit: number, what: string) =>
  group(
    {
      limit: orNull(
        Type.Integer({ minimum: 1, maximum: 1_000_000_000, description: 'Requests per window; null: no limit.' }),
        limit,
      ),
      window_seconds: int(1, 86400, 'The window, seconds.', 60),
    },
    `Requests to ${what} per window and per client IP.`,
  );

export const RateLimits = group(
  {
    login: rateLimit(30, 'sign in'),
    signup: rateLimit(20, 'sign up'),
    token: rateLimit(1200, 'the token endpoint'),
    verification: rateLimit(60, 'send and check verification codes'),
    consents: rateLimit(
      120,
      'list and revoke consents (/identity/v1/consents), answer the consents to accept again at sign-in (/oauth/authorize/reconsent)',
    ),
    sessions: rateLimit(120, "list and end the user's own sessions, read their security events (/identity/v1/me/...)"),
    bulk_users: rateLimit(10, 'import or export users in bulk (/api/v1/users/import and /export)'),
    registration: rateLimit(20, 'register, read, change and delete clients (/oauth/register, RFC 7591 and 7592)'),
    device: rateLimit(10, 'enter a device user code on the device page (/device, RFC 8628)'),
  },
  'Per-IP rate limits of the busiest endpoints.',
);

export const codesPerUser = perWindow(
  10,
  3600,
  0,
  10_000,
  'Codes one user may request per window, all step_up tokens together (limit 0: none).',
);
export const failuresPerUser = perWindow(
  20,
  3600,
  1,
  100,
  'Wrong codes one user may submit per window across challenges before verify refuses (NIST: at most 100).',
);

export const Passkeys = group(
  {
    enabled: flag(false, 'Passkeys (WebAuthn) under /identity/v1/webauthn.'),
    rp_id: orNull(
      text("The relying-party ID passkeys are bound to (a domain); null: the issuer's host.", {
        max: 253,
        check: 'domain',
      }),
    ),
    rp_name: text("The relying party's name the browser shows.", {
      min: 1,
      max: 100,
      check: 'printable',
      value: 'Ward',
    }),
    origins: list(
      text('An origin.', { max: 300, check: 'origin' }),
      20,
      "The origins a ceremony may come from (each on rp_id or a subdomain); empty: the issuer's origin.",
    ),
    user_verification_is_mfa: flag(
      true,
      'A passkey sign-in with user verification counts as multi-factor (amr `mfa`).',
    ),
    recovery_replaces: flag(
      true,
      "After account recovery, the new passkey replaces the user's old ones (else it is added to them).",
    ),
    challenge_ttl: int(30, 600, "Lifetime of a ceremony's challenge, seconds.", 300),
  },
  "The account's passkey (WebAuthn) settings.",
);

export const SelfService = group(
  {
    email_verification: oneOf(
      ['off', 'send', 'required'],
      'off',
      'At signup: send nothing, send a verification email, or also refuse sign-in until it is verified.',
    ),
    code_ttl: int(60, 3600, 'Lifetime of a code the user types, seconds.', 900),
    link_ttl: int(300, 7 * 24 * 3600, 'Lifetime of a link, seconds.', 3600),
    max_attempts: int(1, 20, 'Wrong codes after which a code is dead, even the right one.', 5),
    requests_per_address: perWindow(
      5,
      3600,
      0,
      1000,
      'Messages per address and purpose per window (verification, reset, change): limit 0 sends none.',
    ),
    account_deletion: flag(
      true,
      'Users may delete their own account from the account page (and its JSON API); false: only an administrator can.',
    ),
    deletion_grace_days: int(
      0,
      365,
      "Days between a user's deletion of their own account and its erasure: the account is signed out at once, erased once they pass, and a sign-in meanwhile cancels it; 0: erased at once.",
      0,
    ),
  },
  'Account self-service: email and phone verification, password reset, changes of email and phone, deletion of the account.',
);

export const Passwordless = group(
  {
    magic_link: flag(false, 'A link (and a code) by email.'),
    sms: flag(false, 'A code by SMS.'),
    signup: flag(
      false,
      'A first passwordless sign-in of an unknown address creates the account (the address then verified).',
    ),
  },
  'Passwordless first factors (magic link, SMS code) through /identity/v1/passwordless.',
);

export const SignInIdentifiers = group(
  {
    email: flag(true, 'A password signs in with the email address.'),
    phone_number: flag(true, 'A password signs in with the phone number.'),
    custom_identifier: flag(
      false,
      "A password signs in with the user's custom identifier (set at signup or by an administrator).",
    ),
  },
  "The identifiers a password sign-in accepts (the hosted login page, /identity/v1/password/login, grant_type=password); the remote settings' login_type_allowed says the same.",
);

/**
 * The custom field types: the Core SDK's (`checkbox`, `select`, `decimal`, `tags`, `object` among them)
 * and Ward's earlier names `boolean` (a checkbox) and `list` (a select), kept for existing settings.
 */
export const CUSTOM_FIELD_TYPES = [
  'string',
  'number',
  'integer',
  'decimal',
  'boolean',
  'checkbox',
  'date',
  'list',
  'select',
  'tags',
  'object',
  'email',
  'phone',
] as const;

const Translation = group(
  {
    lang_code: text('A language tag such as fr or pt-BR.', {
      min: 2,
      max: 35,
      pattern: '^[A-Za-z]{2,3}([-_][A-Za-z0-9]{2,8}){0,4}$',
      allowed: 'a BCP 47 language tag such as fr or pt-BR',
    }),
    label: text('The label in that language.', { min: 1, max: 200, check: 'printable' }),
  },
  'A label in one language.',
  ['lang_code', 'label'],
);

const translations = (description: string) => Type.Optional(list(Translation, 50, description, { value: null }));

export const CustomField = group(
  {
    name: text('The key under custom_fields: snake_case, unique.', {
      pattern: '^[a-z][a-z0-9_]{0,63}$',
      allowed: 'snake_case: a lower-case letter, then letters, digits or _ (at most 64)',
    }),
    name_translations: translations("The field's name in other languages (the remote settings' name_translations)."),
    data_type: oneOf(CUSTOM_FIELD_TYPES, undefined, 'The type of its value.'),
    required: flag(false, 'Required at signup (and never cleared by an update); only a field the user may write.'),
    writable: oneOf(
      ['user', 'admin'],
      'user',
      '`user`: the user and administrators write it; `admin`: only administrators (the user reads it).',
    ),
    values: Type.Optional(
      list(
        text('A value.', { min: 1, max: 100, check: 'printable' }),
        200,
        'The allowed values of a `select` (or `list`) field, one of them stored, or of a `tags` field (optional there: any tags without it); absent for the other types.',
        { value: null, unique: true, min: 1 },
      ),
    ),
    value_labels: Type.Optional(
      list(
        group(
          {
            value: text('One of the values.', { min: 1, max: 100 }),
            label: text('Its label.', { min: 1, max: 200, check: 'printable' }),
            translations: translations('Its label in other languages.'),
          },
          "A value's label and its translations (the remote settings' selectable_values).",
          ['value', 'label'],
        ),
        200,
        'Labels of the values (a value without one is its own label).',
        { value: null },
      ),
    ),
  },
  'One custom field: its name, type, whether required, who may write it.',
  ['name', 'data_type'],
);

export const CustomFields = list(
  CustomField,
  100,
  "The account's custom profile fields (signup, update-profile, the management API); a PATCH replaces the whole list.",
);

export const SocialSignup = group(
  {
    email_required: flag(
      false,
      'A new social user must have an email: one the provider verified, else one typed on the completion page.',
    ),
    completion_url: orNull(
      text(
        "The app's own completion page (it gets `signup_token=`), used for a client that lists it among its allowed_callback_urls; null: Ward's page.",
        { max: 2048, check: 'web_page' },
      ),
    ),
  },
  'What a first social sign-in must give before Ward creates the user, and where it is completed.',
);

/** Clients that register themselves (RFC 7591 / 7592) or name themselves by a metadata document. */
export const ClientRegistration = group(
  {
    mode: oneOf(
      ['off', 'open', 'initial_access_token'],
      'off',
      'Dynamic Client Registration at /oauth/register: `off`, `open` (anyone may register a third-party client) or `initial_access_token` (a registration needs the Bearer token whose SHA-256 is initial_access_token_sha256).',
    ),
    initial_access_token_sha256: orNull(
      text('The SHA-256 (lower-case hex) of the initial access token registrations must present; null: none.', {
        pattern: '^[0-9a-f]{64}$',
        allowed: '64 lower-case hex digits',
      }),
    ),
    metadata_documents: flag(
      false,
      'Client ID Metadata Documents: a client_id that is an https URL is fetched and, when valid, served as a third-party public client.',
    ),
  },
  'Self-registering clients: Dynamic Client Registration and Client ID Metadata Documents (docs/client-registration.md).',
);
