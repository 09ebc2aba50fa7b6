// The HTML of the administrator's user actions (static/user-admin.js fills and drives them): on the
// Users page, a form to create a user with a password; on a user's page, the Account section: the
// verification of the email and phone, the password sign-in protection state, and Verify / Unverify,
// Unlock, Send password reset, Export data (JSON) and Delete user; and the profile form (names, the other
// OIDC claims, the custom fields as JSON). All need manage:users (data-perm).
import { html, type SafeHtml } from '../lib/html.js';

const field = (name: string, label: string, attrs: SafeHtml) =>
  html`<div class="field"><label for="nu-${name}">${label}</label><input id="nu-${name}" name="${name}" ${attrs}></div>`;

const check = (name: string, label: string) =>
  html`<div class="check"><input type="checkbox" id="nu-${name}" name="${name}"><label for="nu-${name}">${label}</label></div>`;

export const CREATE_USER_FORM = html`<details id="new-user" data-perm="manage:users"><summary>New user</summary>
<form id="create-user-form" novalidate><p class="hint" id="nu-hint">An email address or a phone number (E.164, such
as +33612345678) is required. The password must meet the account's password policy; or invite the user by email to
choose one.</p>
${field('email', 'Email', html`type="email" maxlength="320" autocomplete="off" aria-describedby="nu-hint"`)}
${field('phone_number', 'Phone number', html`type="tel" maxlength="40" autocomplete="off"`)}
${field('given_name', 'Given name', html`type="text" maxlength="200" autocomplete="off"`)}
${field('family_name', 'Family name', html`type="text" maxlength="200" autocomplete="off"`)}
${field('password', 'Password', html`type="password" maxlength="256" autocomplete="new-password"`)}
${check('invite', 'Invite by email instead: the user chooses the password')}
${check('email_verified', 'The email address is verified')}
${check('phone_number_verified', 'The phone number is verified')}
<button type="submit">Create user</button></form></details>`;

export const USER_ACCOUNT_SECTION = html`<section aria-labelledby="h-account"><h2 id="h-account">Account</h2>
<dl id="account-details"></dl>
<div class="actions" data-perm="manage:users">
<button type="button" id="toggle-email-verified">Mark email verified</button>
<button type="button" id="toggle-phone-verified">Mark phone verified</button>
<button type="button" id="unlock-user">Unlock password sign-in</button>
<button type="button" id="send-reset">Send password reset</button>
<button type="button" id="export-user">Export data (JSON)</button>
<button type="button" id="delete-user" class="danger">Delete user</button></div></section>`;

const profileField = (name: string, label: string, attrs: SafeHtml) =>
  html`<div class="field"><label for="pf-${name}">${label}</label><input id="pf-${name}" name="${name}" ${attrs}></div>`;

/** The profile a user may also edit themselves (update-profile), and the custom fields, admin-only ones included. */
export const USER_PROFILE_FORM = html`<details id="edit-profile" data-perm="manage:users"><summary>Edit profile</summary>
<form id="profile-form" novalidate><p class="hint" id="pf-hint">An emptied field is cleared. Custom fields are a JSON
object of the account's declared fields (null removes one); each value is checked against its type.</p>
${profileField('given_name', 'Given name', html`type="text" maxlength="200" autocomplete="off"`)}
${profileField('family_name', 'Family name', html`type="text" maxlength="200" autocomplete="off"`)}
${profileField('nickname', 'Nickname', html`type="text" maxlength="200" autocomplete="off"`)}
${profileField('birthdate', 'Birthdate', html`type="date"`)}
${profileField('gender', 'Gender', html`type="text" maxlength="50" autocomplete="off"`)}
${profileField('locale', 'Locale', html`type="text" maxlength="35" autocomplete="off" placeholder="fr-FR"`)}
<div class="field"><label for="pf-custom_fields">Custom fields (JSON)</label>
<textarea id="pf-custom_fields" name="custom_fields" rows="4" spellcheck="false" aria-describedby="pf-hint">
</textarea></div>
<button type="submit">Save profile</button></form></details>`;

/**
 * Every factor of the user (GET /api/v1/users/{id}/factors: email, SMS, authenticator app; passkeys in
 * their own table), the recovery codes left, and "Reset all factors" with the reason the audit trail keeps
 * (manage:users; static/user-factors.js asks in the confirmation dialog first). Nothing is made for the
 * user: only they enrol factors and make recovery codes.
 */
export const USER_FACTORS_SECTION = html`<section aria-labelledby="h-factors"><h2 id="h-factors">Second factors</h2>
<table id="factors-table"><caption>Second factors (MFA)</caption><thead><tr><th scope="col">Type</th>
<th scope="col">Destination</th><th scope="col">Verified</th><th scope="col">Added</th><th scope="col">Last used</th>
<th scope="col"><span class="sr">Actions</span></th></tr></thead><tbody></tbody></table>
<p id="recovery-codes-left"></p>
<details id="reset-factors" data-perm="manage:users"><summary>Reset all factors</summary>
<form id="reset-factors-form" novalidate><p class="hint" id="rf-hint">For a user who lost their factors, once you
have checked who they are outside Ward. Every second factor, passkey and recovery code of the user is removed and
their trusted devices are forgotten; they are told by email. The reason is kept in the audit trail.</p>
<div class="field"><label for="rf-reason">Reason (required)</label><textarea id="rf-reason" name="reason" rows="3"
minlength="3" maxlength="500" required aria-describedby="rf-hint"></textarea></div>
<button type="submit" class="danger">Reset all factors</button></form></details></section>`;
