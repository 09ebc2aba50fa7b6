// The HTML of Account settings: every field PATCH /api/v1/settings/account accepts, grouped, each
// labelled, with its bounds as min/max. A dotted name (rate_limits.login.limit) is a nested field;
// settings.js reads and writes the form by these names.
import { type HtmlValue, html, joinHtml, type SafeHtml } from '../lib/html.js';

const id = (name: string) => `s-${name.replace(/\./g, '-')}`;

/** A labelled control in its field box; `control` is the element, given its id and name. */
const field = (name: string, label: string, control: (attrs: SafeHtml) => SafeHtml) =>
  html`<div class="field"><label for="${id(name)}">${label}</label>${control(html`id="${id(name)}" name="${name}"`)}</div>`;

const number = (name: string, label: string, min: number, max: number, optional = false) =>
  field(
    name,
    label,
    (attrs) =>
      html`<input ${attrs} type="number" inputmode="numeric" min="${min}" max="${max}" step="1"${
        optional ? html` aria-describedby="h-no-limit"` : html` required`
      }>`,
  );

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
    number(`rate_limits.${key}.limit`, `${label}: requests per window`, 1, 1_000_000, true),
    number(`rate_limits.${key}.window_seconds`, `${label}: window (seconds)`, 1, 86400),
  );

const userWindow = (key: string, label: string, min: number, max: number) =>
  pair(
    label,
    number(`${key}.limit`, `${label}: count`, min, max),
    number(`${key}.window_seconds`, `${label}: window (seconds)`, 1, 86400),
  );

const TEN_YEARS = 315360000;

const MFA = fieldset('Multi-factor authentication', [
  select('mfa_required', 'MFA required', [
    ['always', 'Always'],
    ['never', 'Never'],
  ]),
  number('step_up_ttl', 'Step-up token lifetime (seconds)', 30, 1800),
  number('trusted_device_ttl', 'Trusted device lifetime (seconds)', 1, TEN_YEARS),
  check('step_up_bearer_allowed', 'Accept a Bearer access token for step-up (last resort)'),
]);

const CODES = fieldset('Verification codes', [
  number('verification_code_length', 'Code length (digits)', 4, 10),
  number('verification_code_ttl', 'Code lifetime (seconds)', 30, 600),
  number('verification_max_attempts', 'Attempts per code', 1, 20),
  number('verification_requests_per_step_up', 'Codes per step-up', 0, 100),
  userWindow('verification_requests_per_user', 'Codes per user', 0, 10000),
  userWindow('verification_failures_per_user', 'Wrong codes per user', 1, 100),
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
  number('sign_in_delay_after', 'Failures before attempts slow down', 1, 100),
  number('sign_in_delay_seconds', 'First wait (seconds)', 1, 3600),
  number('sign_in_lock_after', 'Failures before a lockout', 1, 100),
  number('sign_in_lock_seconds', 'Lockout period (seconds)', 60, 86400),
  number('sign_in_failure_memory_seconds', 'Failures forgotten after (seconds)', 60, 2592000),
]);

const LIFETIMES = fieldset('Token and session lifetimes (seconds)', [
  number('access_token_ttl', 'Access token', 1, TEN_YEARS),
  number('id_token_ttl', 'ID token', 1, TEN_YEARS),
  number('refresh_token_ttl', 'Refresh token', 1, TEN_YEARS),
  number('authorization_code_ttl', 'Authorization code', 1, 600),
  number('tkn_ttl', 'Login token (tkn)', 1, TEN_YEARS),
  number('session_ttl', 'Session', 1, TEN_YEARS),
  number('session_idle_ttl', 'Session idle timeout', 1, TEN_YEARS),
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
  number('passkeys.challenge_ttl', 'Passkey challenge lifetime (seconds)', 30, 600),
]);

const SELF_SERVICE = fieldset('Self-service (verification, password reset, email and phone changes)', [
  select('self_service.email_verification', 'Email verification at signup', [
    ['off', 'Off'],
    ['send', 'Send a verification email'],
    ['required', 'Required before sign-in'],
  ]),
  number('self_service.code_ttl', 'Lifetime of a self-service code (seconds)', 60, 3600),
  number('self_service.link_ttl', 'Lifetime of a self-service link (seconds)', 300, 604800),
  number('self_service.max_attempts', 'Attempts per self-service code', 1, 20),
  userWindow('self_service.requests_per_address', 'Messages per address', 0, 1000),
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
  number('password_min_length', 'Minimum password length', 1, 128),
  number('password_min_strength', 'Minimum strength (zxcvbn score, 0 to 4; 0: no rule)', 0, 4),
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
  number('password_breach_check_timeout_ms', 'Breach check timeout (milliseconds)', 100, 10000),
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
