import { protocolParams } from '../../protocol-schema.js';

/**
 * The hosted account page (GET /identity/v1/account) and its forms (application/x-www-form-urlencoded,
 * from the page itself). The route reads every field itself: a repeated field, a missing CSRF token
 * or a wrong type is answered on the page, so the schemas describe and refuse nothing.
 */
const form = {
  csrf: 'string: the CSRF token of the page (bound to the pre-login cookie)',
  client_id: 'string: the app that linked to the page (optional: a "Back to" link)',
};

export const accountPageSchema = {
  querystring: protocolParams({
    notice: 'string: what the last form did (email_sent, phone_code_sent, phone_changed, password_changed, confirmed)',
    client_id: form.client_id,
  }),
};

export const accountEmailSchema = {
  body: protocolParams({ ...form, email: 'string: the new email address (it changes once its link is opened)' }),
};

export const accountPhoneSchema = {
  body: protocolParams({ ...form, phone_number: 'string: the new phone number, E.164 (a code is sent to it)' }),
};

export const accountPhoneVerifySchema = {
  body: protocolParams({
    ...form,
    phone_number: 'string: the number the code was sent to',
    verification_code: 'string: the code received by SMS',
  }),
};

export const accountPasswordSchema = {
  body: protocolParams({
    ...form,
    old_password: 'string: the current password (when the account has one)',
    password: 'string: the new password',
    password_confirmation: 'string: the new password again',
  }),
};

export const accountStepUpSchema = {
  body: protocolParams({
    ...form,
    auth_type: 'string: the factor to send the code to, email or sms',
    step_up: 'string: a step-up already started (a new code for it)',
  }),
};

export const accountStepUpVerifySchema = {
  body: protocolParams({
    ...form,
    auth_type: 'string: email or sms',
    step_up: 'string: the step-up started',
    challenge_id: 'string: the code sent',
    verification_code: 'string: the code the user typed',
  }),
};

export const accountConsentRevokeSchema = {
  body: protocolParams({ ...form, consent_client_id: 'string: the app whose access is withdrawn' }),
};

/** A form of the account page's authenticator app (account-app.ts); `verification_code` on the first code. */
export const accountFormSchema = (what: string) => ({
  body: protocolParams({ ...form, verification_code: `string: the app's code (${what})` }),
});

/** "Delete my account" (account-leave.ts): the proof and the confirmation. */
export const accountDeleteSchema = {
  body: protocolParams({
    ...form,
    password: 'string: the current password (when the account has one)',
    verification_code: 'string: the code sent by POST /identity/v1/account/delete/code (when it has none)',
    confirm: 'string: yes, the explicit confirmation',
  }),
};

/** "Download my data": a JSON file of everything kept about the signed-in user (SSO cookie). */
export const accountDataSchema = {
  querystring: protocolParams({}),
};

/** "Where you're signed in" (account-sign-ins.ts): sign out one session, every other one, forget a device. */
export const accountSessionEndSchema = {
  body: protocolParams({ ...form, session: 'string: the session to sign out (its id in the list)' }),
};

export const accountSessionsOthersSchema = { body: protocolParams({ ...form }) };

export const accountTrustedDeviceSchema = {
  body: protocolParams({ ...form, device: 'string: the trusted device to stop trusting' }),
};

/** "Confirm it's you" with a security key or passkey (account-key.ts): start, then the assertion. */
export const accountKeySchema = { body: protocolParams({ ...form }) };

export const accountKeyVerifySchema = {
  body: protocolParams({
    ...form,
    step_up: 'string: the step-up started',
    assertion: 'string: the JSON of the assertion (id, raw_id, type, response), keys snake_cased',
  }),
};

/** "Your profile": the fields a user changes without a proof (self-service/profile-form.ts). */
export const accountProfileSchema = {
  body: protocolParams({
    ...form,
    given_name: 'string',
    family_name: 'string',
    name: 'string: the full name as written',
    nickname: 'string',
    birthdate: 'string: YYYY-MM-DD',
    company: 'string',
    bio: 'string',
    address_street_address: 'string: the default address (each part; all empty removes it)',
    address_address_complement: 'string',
    address_postal_code: 'string',
    address_locality: 'string',
    address_region: 'string',
    address_country: 'string',
    'cf_<name>': "string: a custom field the user may write, as its type's form control writes it",
  }),
};
