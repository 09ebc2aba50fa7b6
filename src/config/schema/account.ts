import type { Static } from 'typebox';
import {
  ClientRegistration,
  CustomFields,
  Passkeys,
  Passwordless,
  RateLimits,
  SelfService,
  SignInIdentifiers,
  SocialSignup,
  codesPerUser,
  failuresPerUser,
} from './account-features.js';
import { Captcha } from './captcha.js';
import { ConsentDefinitions, consentDefinitionRules } from './consents.js';
import { type ProblemSink, type Rule, checkValue, mergeOver } from './check.js';
import { LANGUAGES } from '../../texts/language.js';
import { defaultsOf, flag, group, int, intIn, oneOf, orNull, seconds, text } from './kit.js';

const DAY = 24 * 3600;

/** The account settings: the config file's `account`, the management API's /api/v1/settings/account. */
export const AccountSchema = group(
  {
    mfa_required: oneOf(
      ['always', 'never'],
      'never',
      'Whether every sign-in needs a second factor (any letter case).',
      {
        'x-any-case': true,
      },
    ),
    mfa_enrollment: oneOf(
      ['optional', 'required'],
      'optional',
      'Whether a user without a second factor is asked to enrol one (an authenticator app) at a hosted sign-in, before the code is issued.',
    ),
    mfa_enrollment_grace_skips: int(
      0,
      100,
      'With `mfa_enrollment: required`, how many sign-ins a user may skip the enrolment ("Later") before it is enforced; 0: no skip.',
      0,
    ),
    default_language: oneOf(
      LANGUAGES,
      'en',
      "The language of pages, messages and errors when neither the request's ui_locales, the user's locale nor the browser's Accept-Language names one Ward speaks.",
    ),
    access_token_ttl: seconds(3600, 'Lifetime of an access token, seconds.'),
    id_token_ttl: seconds(3600, 'Lifetime of an ID token, seconds.'),
    refresh_token_ttl: seconds(30 * DAY, 'Lifetime of a refresh token, seconds.'),
    authorization_code_ttl: seconds(
      60,
      'Lifetime of an authorization code, seconds (RFC 6749 4.1.2: at most 10 minutes).',
      600,
    ),
    tkn_ttl: seconds(120, "Lifetime of the Core SDK's login ticket (`tkn`), seconds."),
    session_ttl: seconds(7 * DAY, 'Longest life of a browser session, seconds.'),
    session_idle_ttl: seconds(DAY, 'A session unused this long ends, seconds.'),
    password_min_length: int(1, 128, 'Fewest characters of a new password.', 8),
    password_min_strength: intIn(
      [0, 1, 2, 3, 4],
      2,
      'The least zxcvbn score a new password must reach; 0: no strength rule.',
    ),
    password_refuse_user_info: flag(
      true,
      "Refuse a password that contains the user's email address (or its local part) or name.",
    ),
    password_refuse_common: flag(true, "Refuse the most common passwords (zxcvbn's list), whatever their score."),
    password_uppercase_characters: int(0, 64, 'Fewest upper-case letters a new password must have; 0: no rule.', 0),
    password_lowercase_characters: int(0, 64, 'Fewest lower-case letters a new password must have; 0: no rule.', 0),
    password_digit_characters: int(0, 64, 'Fewest digits a new password must have; 0: no rule.', 0),
    password_special_characters: int(
      0,
      64,
      'Fewest special characters (neither a letter, a digit nor a space) a new password must have; 0: no rule.',
      0,
    ),
    password_breach_check_url: orNull(
      text(
        'The k-anonymity range API of a breached-password corpus, the hash prefix appended (e.g. `https://api.pwnedpasswords.com/range/`); null: no breach check.',
        {
          max: 2048,
          check: 'range_api',
        },
      ),
    ),
    password_breach_check_timeout_ms: int(
      100,
      10_000,
      'How long the breach check may take, ms; past it the password is accepted.',
      2000,
    ),
    allow_private_webhook_targets: flag(
      false,
      'Let webhook endpoints be on loopback or private addresses (a receiver on the same machine or network); development mode sets it. Other URLs Ward fetches follow WARD_OUTBOUND_ALLOW.',
    ),
    require_pushed_authorization_requests: flag(
      false,
      'Every authorization request must be pushed first to /oauth/par (RFC 9126); each client may also require it on its own.',
    ),
    require_signed_request_object: flag(
      false,
      'Every authorization request must come in a signed request object (RFC 9101 10.5); each client may also require it on its own.',
    ),
    rate_limits: RateLimits,
    sign_in_identifiers: SignInIdentifiers,
    sign_in_delay_after: int(
      1,
      100,
      'Failed password sign-ins of one identifier after which each further attempt waits.',
      5,
    ),
    sign_in_delay_seconds: int(
      1,
      3600,
      'The first wait, seconds; it doubles at each further failure, up to sign_in_lock_seconds.',
      1,
    ),
    sign_in_lock_after: int(
      1,
      100,
      "Failures after which the identifier's password sign-ins stop for sign_in_lock_seconds (a notice is sent); at least sign_in_delay_after.",
      10,
    ),
    sign_in_lock_seconds: int(60, DAY, 'How long a locked identifier stays locked, seconds.', 900),
    sign_in_failure_memory_seconds: int(
      60,
      30 * DAY,
      'Failures are forgotten this long after the last one, seconds (a success forgets them at once).',
      DAY,
    ),
    verification_code_length: int(4, 10, 'Digits of a verification code.', 6),
    verification_code_ttl: int(30, 600, 'Lifetime of a verification code, seconds.', 300),
    verification_max_attempts: int(1, 20, 'Wrong codes after which a challenge is dead, even for the right code.', 5),
    verification_requests_per_step_up: int(0, 100, 'Codes one step_up token may request (0: none).', 5),
    verification_requests_per_user: codesPerUser,
    verification_failures_per_user: failuresPerUser,
    step_up_ttl: int(30, 1800, 'Lifetime of a step_up token, seconds.', 300),
    step_up_bearer_allowed: flag(true, 'Accept a Bearer access token at /identity/v1/mfa/stepup (a last resort).'),
    dpop_nonce_required: flag(
      false,
      'Whether every DPoP proof (RFC 9449) must carry a nonce Ward issued (`DPoP-Nonce`, section 8), at the token endpoint and at userinfo: a proof made in advance then expires within 5 to 10 minutes.',
    ),
    trusted_device_ttl: seconds(30 * DAY, 'Lifetime of a trusted device, seconds.', 365 * DAY),
    passkeys: Passkeys,
    self_service: SelfService,
    passwordless: Passwordless,
    custom_fields: CustomFields,
    consents: ConsentDefinitions,
    social_signup: SocialSignup,
    captcha: Captcha,
    client_registration: ClientRegistration,
  },
  'The account settings.',
);

export type AccountSettings = Static<typeof AccountSchema>;
export type PasskeySettings = AccountSettings['passkeys'];
export type SelfServiceSettings = AccountSettings['self_service'];
export type PasswordlessSettings = AccountSettings['passwordless'];
export type SocialSignupSettings = AccountSettings['social_signup'];
export type CustomFieldSetting = AccountSettings['custom_fields'][number];
export type CustomFieldType = CustomFieldSetting['data_type'];
export type ConsentDefinitionSetting = AccountSettings['consents'][number];
export type RateLimit = AccountSettings['rate_limits']['login'];
export type CaptchaSettings = AccountSettings['captcha'];
export type ClientRegistrationSettings = AccountSettings['client_registration'];

/** Documented defaults. Lifetimes are in seconds. */
export const DEFAULT_ACCOUNT: AccountSettings = Object.freeze(defaultsOf<AccountSettings>(AccountSchema));

/** Whether `host` is the relying-party ID or one of its subdomains (WebAuthn's RP ID rule). */
export const hostOnRpId = (host: string, rpId: string): boolean => host === rpId || host.endsWith(`.${rpId}`);

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Locking must not come before the delays it escalates. */
const lockAfterDelay: Rule<AccountSettings> = (a, add) => {
  if (a.sign_in_lock_after < a.sign_in_delay_after) add('.sign_in_lock_after', 'must be at least sign_in_delay_after');
};

/** Registration with an initial access token needs the token's digest, or nobody could register. */
const registrationToken: Rule<AccountSettings> = (a, add) => {
  const r = a.client_registration;
  if (r?.mode === 'initial_access_token' && !r.initial_access_token_sha256)
    add('.client_registration.initial_access_token_sha256', 'is required when mode is initial_access_token');
};

/** A passkey ceremony's origin must be on the relying-party ID (WebAuthn). */
const originsOnRpId: Rule<AccountSettings> = (a, add) => {
  const { rp_id: rpId, origins } = a.passkeys ?? {};
  if (typeof rpId !== 'string' || !Array.isArray(origins)) return;
  for (const o of origins)
    if (typeof o === 'string' && URL.canParse(o) && !hostOnRpId(new URL(o).hostname, rpId))
      add('.passkeys.origins', `${o} is not on the relying-party ID ${rpId} or one of its subdomains`);
};

/**
 * Custom fields: names unique (the Core SDK sends custom_fields' keys unconverted); a `select` (`list`)
 * names its values, a `tags` field may, no other has them; labels are of values the field has; a required field is one the user may write (else no signup succeeds).
 */
const customFieldRules: Rule<AccountSettings> = (a, add) => {
  if (!Array.isArray(a.custom_fields)) return;
  const seen = new Set<unknown>();
  a.custom_fields.forEach((f: unknown, i) => {
    if (!isObject(f)) return;
    const at = `.custom_fields[${i}]`;
    if (seen.has(f.name)) add(`${at}.name`, `${String(f.name)} is declared twice`);
    seen.add(f.name);
    const select = f.data_type === 'list' || f.data_type === 'select';
    if (select && f.values === undefined)
      add(`${at}.values`, 'a select field must name 1 to 200 distinct values of 1 to 100 characters');
    if (!select && f.data_type !== 'tags' && f.values !== undefined)
      add(`${at}.values`, 'only a select or tags field has values');
    if (Array.isArray(f.value_labels))
      f.value_labels.forEach((l: unknown, j) => {
        if (isObject(l) && !(Array.isArray(f.values) && f.values.includes(l.value)))
          add(`${at}.value_labels[${j}].value`, `${String(l.value)} is not one of the field's values`);
      });
    if (f.required === true && f.writable === 'admin')
      add(`${at}.required`, 'a required field must be writable by the user (else no signup could succeed)');
  });
};

/** Some identifier must sign in with a password, or no password could ever be used. */
const someIdentifier: Rule<AccountSettings> = (a, add) => {
  const i = a.sign_in_identifiers;
  if (i && !i.email && !i.phone_number && !i.custom_identifier)
    add('.sign_in_identifiers', 'must allow at least one of email, phone_number and custom_identifier');
};

/** Passkey origins are a set. */
const normalize = (a: AccountSettings): AccountSettings => ({
  ...a,
  passkeys: { ...a.passkeys, origins: [...new Set(a.passkeys.origins)] },
});

/**
 * Applies `raw` (the config file's `account`, a stored copy, a management PATCH) over `base`: each
 * problem is added under `account.<key>`; on any problem `base` comes back unchanged.
 */
export function validateAccount(
  p: ProblemSink,
  raw: unknown,
  base: AccountSettings = DEFAULT_ACCOUNT,
): AccountSettings {
  if (raw === undefined) return structuredClone(base);
  if (!isObject(raw)) {
    p.add('account', 'must be an object');
    return structuredClone(base);
  }
  const out = checkValue<AccountSettings>(p, 'account', AccountSchema, mergeOver(base, raw), [
    lockAfterDelay,
    originsOnRpId,
    customFieldRules,
    consentDefinitionRules,
    registrationToken,
    someIdentifier,
  ]);
  return out ? normalize(out) : structuredClone(base);
}
