import { Type } from 'typebox';
import { answer, captchaParams, protocolParams } from '../../protocol-schema.js';

/**
 * Account self-service as the Core SDK sends it (identity-api.md, "Account self-service"): JSON,
 * snake_case. The parameter rules are the routes' own (one value each, the catalog's errors), so the
 * request schemas describe and do not refuse.
 */
const code = 'string: the code that was sent (required)';

export const sendEmailVerificationSchema = {
  body: protocolParams({
    redirect_url: "string: where the link sends the browser once confirmed (one of the client's callback URLs)",
    return_to_after_email_confirmation: "string: the same, when Ward's own page is shown (a callback URL)",
  }),
  response: { 200: answer({ verification_email_sent: Type.Boolean() }) },
};

export const verifyEmailSchema = {
  body: protocolParams({
    access_token: 'string: the access token, in the body (the SDK sends no header here)',
    email: 'string: the address the code was sent to (required)',
    verification_code: code,
  }),
};

export const emailLinkSchema = {
  querystring: protocolParams({ token: 'string: the token of the emailed link' }),
};

export const emailLinkFormSchema = {
  body: protocolParams({ token: 'string: the token of the emailed link', csrf: 'string: the form token' }),
};

/** The link that finishes a signup with a lite profile's email: its page, then its form. */
export const liteClaimPageSchema = {
  querystring: protocolParams({ token: 'string: the token of the emailed link' }),
};

export const liteClaimFormSchema = {
  body: protocolParams({
    token: 'string: the token of the emailed link',
    csrf: 'string: the form token',
    password: 'string: the password typed at signup',
  }),
};

export const sendPhoneVerificationSchema = {};

export const verifyPhoneSchema = {
  body: protocolParams({ phone_number: 'string: the number the code was sent to (required)', verification_code: code }),
};

export const updateEmailSchema = {
  body: protocolParams({
    email: 'string: the new address; it replaces the old one once confirmed (required)',
    redirect_url: "string: where the confirmation link sends the browser (one of the client's callback URLs)",
    ...captchaParams,
  }),
};

export const updatePhoneSchema = {
  body: protocolParams({ phone_number: 'string: the new number; it replaces the old one once confirmed (required)' }),
};

export const forgotPasswordSchema = {
  body: protocolParams({
    client_id: 'string: the client (required)',
    email: 'string: the account email (or phone_number)',
    phone_number: 'string: the account phone number, for a code by SMS',
    redirect_url: 'string: the page the emailed link opens, with user_id and verification_code (a callback URL)',
    return_to_after_password_reset: "string: where Ward's reset page goes once done (a callback URL)",
    login_link: 'string: ignored',
    origin: 'string: ignored',
    captcha_token: 'string: ignored',
  }),
};

export const updatePasswordSchema = {
  body: protocolParams({
    client_id: 'string: the client',
    password: 'string: the new password (required)',
    old_password: 'string: the current password (with a Bearer access token)',
    email: 'string: with verification_code: the address the reset code was sent to',
    phone_number: 'string: with verification_code: the number the reset code was sent to',
    user_id: "string: with verification_code: the user of a reset link (the link's token is the code)",
    verification_code: 'string: the reset code, or the token of the reset link',
  }),
};

export const resetPageSchema = {
  querystring: protocolParams({ user_id: 'string: the user of the link', verification_code: 'string: its token' }),
};

export const resetFormSchema = {
  body: protocolParams({
    user_id: 'string',
    verification_code: 'string',
    password: 'string: the new password',
    password_confirmation: 'string: the same again',
  }),
};

export const forgotPageSchema = {
  querystring: protocolParams({
    client_id: 'string: the client whose login page linked here',
    ui_locales: 'string: the language of the sign-in that linked here',
  }),
};

export const forgotFormSchema = {
  body: protocolParams({ client_id: 'string', email: 'string: the account email', ui_locales: 'string' }),
};

export const accountRecoverySchema = {
  body: protocolParams({
    client_id: 'string: the client (required)',
    email: 'string: the account email (or phone_number)',
    phone_number: 'string: the account phone number, for a code by SMS',
    redirect_url:
      "string: the app's page the emailed link opens, with the address and verification_code (a callback URL)",
    return_to_after_account_recovery: 'string: ignored (Ward has no hosted passkey page)',
    login_link: 'string: ignored',
    captcha_token: 'string: ignored',
  }),
};

/** A double opt-in consent's emailed link (accounts/consent-changes.ts): a page whose button grants it. */
export const consentLinkSchema = {
  querystring: protocolParams({ token: 'string: the token of the emailed link' }),
};

export const consentLinkFormSchema = {
  body: protocolParams({ token: 'string: the token of the emailed link' }),
};
