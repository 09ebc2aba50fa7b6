// The HTML of the administrator's user actions (static/user-admin.js fills and drives them): on the
// Users page, a form to create a user with a password; on a user's page, the Account section: the
// verification of the email and phone, the password sign-in protection state, and Verify / Unverify,
// Unlock, Export data (JSON) and Delete user. All need manage:users (data-perm).

const field = (name: string, label: string, attrs: string) =>
  `<div class="field"><label for="nu-${name}">${label}</label><input id="nu-${name}" name="${name}" ${attrs}></div>`;

const check = (name: string, label: string) =>
  `<div class="check"><input type="checkbox" id="nu-${name}" name="${name}"><label for="nu-${name}">${label}</label></div>`;

export const CREATE_USER_FORM = `<details id="new-user" data-perm="manage:users"><summary>New user</summary>
<form id="create-user-form" novalidate><p class="hint" id="nu-hint">An email address or a phone number (E.164, such as +33612345678) is required. The password must meet the account's password policy; or invite the user by email to choose one.</p>
${field('email', 'Email', 'type="email" maxlength="320" autocomplete="off" aria-describedby="nu-hint"')}
${field('phone_number', 'Phone number', 'type="tel" maxlength="40" autocomplete="off"')}
${field('given_name', 'Given name', 'type="text" maxlength="200" autocomplete="off"')}
${field('family_name', 'Family name', 'type="text" maxlength="200" autocomplete="off"')}
${field('password', 'Password', 'type="password" maxlength="256" autocomplete="new-password"')}
${check('invite', 'Invite by email instead: the user chooses the password')}
${check('email_verified', 'The email address is verified')}${check('phone_number_verified', 'The phone number is verified')}
<button type="submit">Create user</button></form></details>`;

export const USER_ACCOUNT_SECTION = `<section aria-labelledby="h-account"><h2 id="h-account">Account</h2><dl id="account-details"></dl>
<div class="actions" data-perm="manage:users"><button type="button" id="toggle-email-verified">Mark email verified</button>
<button type="button" id="toggle-phone-verified">Mark phone verified</button>
<button type="button" id="unlock-user">Unlock password sign-in</button>
<button type="button" id="export-user">Export data (JSON)</button>
<button type="button" id="delete-user" class="danger">Delete user</button></div></section>`;
