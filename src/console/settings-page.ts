// The HTML of Account settings: every field PATCH /api/v1/settings/account accepts, grouped, each
// labelled, with its bounds as min/max. A dotted name (rate_limits.login.limit) is a nested field;
// settings.js reads and writes the form by these names.

const id = (name: string) => `s-${name.replace(/\./g, '-')}`;

const number = (name: string, label: string, min: number, max: number, optional = false) =>
  `<div class="field"><label for="${id(name)}">${label}</label><input id="${id(name)}" name="${name}" type="number" inputmode="numeric" min="${min}" max="${max}" step="1"${optional ? ` aria-describedby="h-no-limit"` : ' required'}></div>`;

const check = (name: string, label: string) =>
  `<div class="check"><input type="checkbox" id="${id(name)}" name="${name}"><label for="${id(name)}">${label}</label></div>`;

/** A request limit: requests per window (blank: no limit) and the window in seconds. */
const limit = (key: string, label: string) =>
  `<fieldset class="pair"><legend>${label}</legend>${number(`rate_limits.${key}.limit`, `${label}: requests per window`, 1, 1_000_000, true)}${number(`rate_limits.${key}.window_seconds`, `${label}: window (seconds)`, 1, 86400)}</fieldset>`;

const userWindow = (key: string, label: string, min: number, max: number) =>
  `<fieldset class="pair"><legend>${label}</legend>${number(`${key}.limit`, `${label}: count`, min, max)}${number(`${key}.window_seconds`, `${label}: window (seconds)`, 1, 86400)}</fieldset>`;

const TEN_YEARS = 315360000;

export const SETTINGS_BODY = `<form id="settings-form" novalidate>
<fieldset><legend>Multi-factor authentication</legend><div class="field"><label for="s-mfa_required">MFA required</label>
<select id="s-mfa_required" name="mfa_required"><option value="always">Always</option><option value="never">Never</option></select></div>
${number('step_up_ttl', 'Step-up token lifetime (seconds)', 30, 1800)}${number('trusted_device_ttl', 'Trusted device lifetime (seconds)', 1, TEN_YEARS)}
<div class="check"><input type="checkbox" id="s-step_up_bearer_allowed" name="step_up_bearer_allowed"><label for="s-step_up_bearer_allowed">Accept a Bearer access token for step-up (last resort)</label></div></fieldset>
<fieldset><legend>Verification codes</legend>${number('verification_code_length', 'Code length (digits)', 4, 10)}
${number('verification_code_ttl', 'Code lifetime (seconds)', 30, 600)}${number('verification_max_attempts', 'Attempts per code', 1, 20)}
${number('verification_requests_per_step_up', 'Codes per step-up', 0, 100)}
${userWindow('verification_requests_per_user', 'Codes per user', 0, 10000)}${userWindow('verification_failures_per_user', 'Wrong codes per user', 1, 100)}</fieldset>
<fieldset><legend>Request limits (per client IP)</legend><p class="hint" id="h-no-limit">Leave the number of requests empty for no limit.</p>
${limit('login', 'Login')}${limit('signup', 'Signup')}${limit('token', 'Token')}${limit('verification', 'Verification')}</fieldset>
<fieldset><legend>Per-account protection (failed password sign-ins)</legend><p class="hint" id="h-sign-in">Counted per email or phone number, whether or not an account has it; a success forgets them. Past the first number each attempt waits, the wait doubling; past the second, password sign-ins stop for the lockout period and the user is told.</p>
${number('sign_in_delay_after', 'Failures before attempts slow down', 1, 100)}${number('sign_in_delay_seconds', 'First wait (seconds)', 1, 3600)}
${number('sign_in_lock_after', 'Failures before a lockout', 1, 100)}${number('sign_in_lock_seconds', 'Lockout period (seconds)', 60, 86400)}
${number('sign_in_failure_memory_seconds', 'Failures forgotten after (seconds)', 60, 2592000)}</fieldset>
<fieldset><legend>Token and session lifetimes (seconds)</legend>${number('access_token_ttl', 'Access token', 1, TEN_YEARS)}${number('id_token_ttl', 'ID token', 1, TEN_YEARS)}
${number('refresh_token_ttl', 'Refresh token', 1, TEN_YEARS)}${number('authorization_code_ttl', 'Authorization code', 1, 600)}
${number('tkn_ttl', 'Login token (tkn)', 1, TEN_YEARS)}${number('session_ttl', 'Session', 1, TEN_YEARS)}${number('session_idle_ttl', 'Session idle timeout', 1, TEN_YEARS)}</fieldset>
<fieldset><legend>Passkeys</legend>
<div class="check"><input type="checkbox" id="s-passkeys-enabled" name="passkeys.enabled"><label for="s-passkeys-enabled">Passkeys on</label></div>
<div class="field"><label for="s-passkeys-rp_id">Relying-party ID (domain)</label><input id="s-passkeys-rp_id" name="passkeys.rp_id" type="text" maxlength="253" spellcheck="false" aria-describedby="h-rp-id"></div>
<p class="hint" id="h-rp-id">Empty: the issuer's host. The pages that use passkeys must be on this domain or its subdomains.</p>
<div class="field"><label for="s-passkeys-rp_name">Relying-party name</label><input id="s-passkeys-rp_name" name="passkeys.rp_name" type="text" maxlength="100" required></div>
<div class="field"><label for="s-passkeys-origins">Allowed origins (one per line)</label><textarea id="s-passkeys-origins" name="passkeys.origins" rows="3" spellcheck="false" aria-describedby="h-origins"></textarea></div>
<p class="hint" id="h-origins">Empty: the issuer's origin. Each origin must be on the relying-party ID.</p>
<div class="check"><input type="checkbox" id="s-passkeys-user_verification_is_mfa" name="passkeys.user_verification_is_mfa"><label for="s-passkeys-user_verification_is_mfa">A passkey with user verification counts as multi-factor</label></div>
<div class="check"><input type="checkbox" id="s-passkeys-recovery_replaces" name="passkeys.recovery_replaces"><label for="s-passkeys-recovery_replaces">After account recovery, the new passkey replaces the old ones</label></div>
${number('passkeys.challenge_ttl', 'Passkey challenge lifetime (seconds)', 30, 600)}</fieldset>
<fieldset><legend>Self-service (verification, password reset, email and phone changes)</legend>
<div class="field"><label for="s-self_service-email_verification">Email verification at signup</label>
<select id="s-self_service-email_verification" name="self_service.email_verification"><option value="off">Off</option><option value="send">Send a verification email</option><option value="required">Required before sign-in</option></select></div>
${number('self_service.code_ttl', 'Lifetime of a self-service code (seconds)', 60, 3600)}${number('self_service.link_ttl', 'Lifetime of a self-service link (seconds)', 300, 604800)}
${number('self_service.max_attempts', 'Attempts per self-service code', 1, 20)}
${userWindow('self_service.requests_per_address', 'Messages per address', 0, 1000)}</fieldset>
<fieldset><legend>Passwordless sign-in</legend>
${check('passwordless.magic_link', 'Email a sign-in link (and code)')}${check('passwordless.sms', 'Text a sign-in code')}
${check('passwordless.signup', 'A first passwordless sign-in creates the account')}</fieldset>
<fieldset><legend>Social sign-up</legend>
${check('social_signup.email_required', 'A new social account needs an email (asked for when the provider did not verify one)')}
<div class="field"><label for="s-social_signup-completion_url">The app's completion page URL</label>
<input id="s-social_signup-completion_url" name="social_signup.completion_url" type="url" maxlength="2048" placeholder="https://app.example/complete-profile" aria-describedby="h-completion"></div>
<p class="hint" id="h-completion">Empty: Ward's "Complete your profile" page. Used for a client that lists it among its Allowed Callback URLs; it gets <code>signup_token</code>.</p></fieldset>
<fieldset><legend>Passwords</legend>${number('password_min_length', 'Minimum password length', 1, 128)}
${number('password_min_strength', 'Minimum strength (zxcvbn score, 0 to 4; 0: no rule)', 0, 4)}
${check('password_refuse_user_info', "Refuse passwords that contain the user's email address or name")}
${check('password_refuse_common', 'Refuse the most common passwords')}
<div class="field"><label for="s-password_breach_check_url">Breached-password range API URL</label>
<input id="s-password_breach_check_url" name="password_breach_check_url" type="url" maxlength="2048" placeholder="https://api.pwnedpasswords.com/range/" aria-describedby="h-breach"></div>
<p class="hint" id="h-breach">Empty: no breach check. Only the first 5 characters of the password's SHA-1 are sent; a slow or failing service never blocks a password.</p>
${number('password_breach_check_timeout_ms', 'Breach check timeout (milliseconds)', 100, 10000)}</fieldset>
<fieldset><legend>Custom profile fields</legend>
<div class="field"><label for="s-custom_fields">Custom fields (JSON list)</label><textarea id="s-custom_fields" name="custom_fields" rows="6" spellcheck="false" aria-describedby="h-custom-fields"></textarea></div>
<p class="hint" id="h-custom-fields">Each field: <code>{"name": "loyalty_id", "data_type": "string", "required": true, "writable": "user"}</code>. Types: string, number, integer, boolean, date, list (with <code>"values": [...]</code>), email, phone. <code>writable</code>: user (the user and administrators) or admin (administrators only). A required field must be writable by the user.</p></fieldset>
<button type="submit" data-perm="manage:settings">Save settings</button></form>`;
