// The HTML of Account settings: every field PATCH /api/v1/settings/account accepts, grouped, each
// labelled, with its bounds as min/max. A dotted name (rate_limits.login.limit) is a nested field;
// settings.js reads and writes the form by these names. Each number's bounds are read from the
// settings schema (config/schema/account.ts), where they are written once.
import type { TSchema } from 'typebox';
import { AccountSchema } from '../config/schema/account.js';
import { type HtmlValue, html, joinHtml, type SafeHtml } from '../lib/html.js';

const id = (name: string) => `s-${name.replace(/\./g, '-')}`;

/** A labelled control in its field box; `control` is the element, given its id and name. */
const field = (name: string, label: string, control: (attrs: SafeHtml) => SafeHtml) =>
  html`<div class="field"><label for="${id(name)}">${label}</label>${control(html`id="${id(name)}" name="${name}"`)}</div>`;

/** The bounds of a setting (a dotted name), as its schema writes them. */
function bounds(name: string): { min: number; max: number } {
  let schema: TSchema = AccountSchema;
  for (const part of name.split('.'))
    schema = (schema as unknown as { properties: Record<string, TSchema> }).properties[part]!;
  const { minimum, maximum } = schema as { minimum: number; maximum: number };
  return { min: minimum, max: maximum };
}

const number = (name: string, label: string, optional = false) => {
  const { min, max } = bounds(name);
  return field(
    name,
    label,
    (attrs) =>
      html`<input ${attrs} type="number" inputmode="numeric" min="${min}" max="${max}" step="1"${
        optional ? html` aria-describedby="h-no-limit"` : html` required`
      }>`,
  );
};

const text = (name: string, label: string, attrs: SafeHtml) => field(name, label, (a) => html`<input ${a} ${attrs}>`);

const textarea = (name: string, label: string, rows: number, hintId: string) =>
  field(
    name,
    label,
    (a) => html`<textarea ${a} rows="${rows}" spellcheck="false" aria-describedby="${hintId}"></textarea>`,
  );

const select = (name: string, label: string, options: Array<[string, string]>) =>
  field(
    name,
    label,
    (a) => html`<select ${a}>${options.map(([v, t]) => html`<option value="${v}">${t}</option>`)}</select>`,
  );

const check = (name: string, label: string) =>
  html`<div class="check"><input type="checkbox" id="${id(name)}" name="${name}"><label for="${id(name)}">${label}</label></div>`;

/** A hint paragraph; its text may hold markup of the page's own (html``). */
const hint = (hintId: string, text: HtmlValue) => html`<p class="hint" id="${hintId}">${text}</p>`;

const fieldset = (legend: string, parts: SafeHtml[]) =>
  html`<fieldset><legend>${legend}</legend>\n${joinHtml(parts, html`\n`)}</fieldset>`;

/** A count per window and the window in seconds, side by side. */
const pair = (legend: string, count: SafeHtml, window: SafeHtml) =>
  html`<fieldset class="pair"><legend>${legend}</legend>${count}${window}</fieldset>`;

/** A request limit: requests per window (blank: no limit) and the window in seconds. */
const limit = (key: string, label: string) =>
  pair(
    label,
    number(`rate_limits.${key}.limit`, `${label}: requests per window`, true),
    number(`rate_limits.${key}.window_seconds`, `${label}: window (seconds)`),
  );

const userWindow = (key: string, label: string) =>
  pair(label, number(`${key}.limit`, `${label}: count`), number(`${key}.window_seconds`, `${label}: window (seconds)`));

const MFA = fieldset('Multi-factor authentication', [
  select('mfa_required', 'MFA required', [
    ['always', 'Always'],
    ['never', 'Never'],
  ]),
  number('step_up_ttl', 'Step-up token lifetime (seconds)'),
  number('trusted_device_ttl', 'Trusted device lifetime (seconds)'),
  check('step_up_bearer_allowed', 'Accept a Bearer access token for step-up (last resort)'),
]);

const CODES = fieldset('Verification codes', [
  number('verification_code_length', 'Code length (digits)'),
  number('verification_code_ttl', 'Code lifetime (seconds)'),
  number('verification_max_attempts', 'Attempts per code'),
  number('verification_requests_per_step_up', 'Codes per step-up'),
  userWindow('verification_requests_per_user', 'Codes per user'),
  userWindow('verification_failures_per_user', 'Wrong codes per user'),
]);

const LIMITS = fieldset('Request limits (per client IP)', [
  hint('h-no-limit', 'Leave the number of requests empty for no limit.'),
  html`${limit('login', 'Login')}${limit('signup', 'Signup')}${limit('token', 'Token')}${limit('verification', 'Verification')}`,
]);

const PROTECTION = fieldset('Per-account protection (failed password sign-ins)', [
  hint(
    'h-sign-in',
    'Counted per email or phone number, whether or not an account has it; a success forgets them. Past the ' +
      'first number each attempt waits, the wait doubling; past the second, password sign-ins stop for the ' +
      'lockout period and the user is told.',
  ),
  number('sign_in_delay_after', 'Failures before attempts slow down'),
  number('sign_in_delay_seconds', 'First wait (seconds)'),
  number('sign_in_lock_after', 'Failures before a lockout'),
  number('sign_in_lock_seconds', 'Lockout period (seconds)'),
  number('sign_in_failure_memory_seconds', 'Failures forgotten after (seconds)'),
]);

const LIFETIMES = fieldset('Token and session lifetimes (seconds)', [
  number('access_token_ttl', 'Access token'),
  number('id_token_ttl', 'ID token'),
  number('refresh_token_ttl', 'Refresh token'),
  number('authorization_code_ttl', 'Authorization code'),
  number('tkn_ttl', 'Login token (tkn)'),
  number('session_ttl', 'Session'),
  number('session_idle_ttl', 'Session idle timeout'),
]);

const PASSKEYS = fieldset('Passkeys', [
  check('passkeys.enabled', 'Passkeys on'),
  text(
    'passkeys.rp_id',
    'Relying-party ID (domain)',
    html`type="text" maxlength="253" spellcheck="false" aria-describedby="h-rp-id"`,
  ),
  hint('h-rp-id', "Empty: the issuer's host. The pages that use passkeys must be on this domain or its subdomains."),
  text('passkeys.rp_name', 'Relying-party name', html`type="text" maxlength="100" required`),
  textarea('passkeys.origins', 'Allowed origins (one per line)', 3, 'h-origins'),
  hint('h-origins', "Empty: the issuer's origin. Each origin must be on the relying-party ID."),
  check('passkeys.user_verification_is_mfa', 'A passkey with user verification counts as multi-factor'),
  check('passkeys.recovery_replaces', 'After account recovery, the new passkey replaces the old ones'),
  number('passkeys.challenge_ttl', 'Passkey challenge lifetime (seconds)'),
]);

const SELF_SERVICE = fieldset('Self-service (verification, password reset, email and phone changes)', [
  select('self_service.email_verification', 'Email verification at signup', [
    ['off', 'Off'],
    ['send', 'Send a verification email'],
    ['required', 'Required before sign-in'],
  ]),
  number('self_service.code_ttl', 'Lifetime of a self-service code (seconds)'),
  number('self_service.link_ttl', 'Lifetime of a self-service link (seconds)'),
  number('self_service.max_attempts', 'Attempts per self-service code'),
  userWindow('self_service.requests_per_address', 'Messages per address'),
]);

const PASSWORDLESS = fieldset('Passwordless sign-in', [
  check('passwordless.magic_link', 'Email a sign-in link (and code)'),
  check('passwordless.sms', 'Text a sign-in code'),
  check('passwordless.signup', 'A first passwordless sign-in creates the account'),
]);

const SOCIAL_SIGNUP = fieldset('Social sign-up', [
  check(
    'social_signup.email_required',
    'A new social account needs an email (asked for when the provider did not verify one)',
  ),
  text(
    'social_signup.completion_url',
    "The app's completion page URL",
    html`type="url" maxlength="2048" placeholder="https://app.example/complete-profile" aria-describedby="h-completion"`,
  ),
  hint(
    'h-completion',
    html`Empty: Ward's "Complete your profile" page. Used for a client that lists it among its Allowed Callback
URLs; it gets <code>signup_token</code>.`,
  ),
]);

const PASSWORDS = fieldset('Passwords', [
  number('password_min_length', 'Minimum password length'),
  number('password_min_strength', 'Minimum strength (zxcvbn score, 0 to 4; 0: no rule)'),
  check('password_refuse_user_info', "Refuse passwords that contain the user's email address or name"),
  check('password_refuse_common', 'Refuse the most common passwords'),
  text(
    'password_breach_check_url',
    'Breached-password range API URL',
    html`type="url" maxlength="2048" placeholder="https://api.pwnedpasswords.com/range/" aria-describedby="h-breach"`,
  ),
  hint(
    'h-breach',
    "Empty: no breach check. Only the first 5 characters of the password's SHA-1 are sent; a slow or failing " +
      'service never blocks a password.',
  ),
  number('password_breach_check_timeout_ms', 'Breach check timeout (milliseconds)'),
]);

const CUSTOM_FIELDS = fieldset('Custom profile fields', [
  textarea('custom_fields', 'Custom fields (JSON list)', 6, 'h-custom-fields'),
  hint(
    'h-custom-fields',
    html`Each field: <code>{"name": "loyalty_id", "data_type": "string", "required": true, "writable": "user"}</code>.
Types: string, number, integer, boolean, date, list (with <code>"values": [...]</code>), email, phone.
<code>writable</code>: user (the user and administrators) or admin (administrators only). A required
field must be writable by the user.`,
  ),
]);

const GROUPS = [MFA, CODES, LIMITS, PROTECTION, LIFETIMES, PASSKEYS, SELF_SERVICE, PASSWORDLESS, SOCIAL_SIGNUP];

export const SETTINGS_BODY = html`<form id="settings-form" novalidate>
${joinHtml([...GROUPS, PASSWORDS, CUSTOM_FIELDS], html`\n`)}
<button type="submit" data-perm="manage:settings">Save settings</button></form>`;
