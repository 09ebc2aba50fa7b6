import type { SignInMethod } from '../contract.js';

// Passwordless first factors (src/passwordless/): one method per channel, each its own account setting.
const ROUTES = [
  'POST /oauth/authorize/passwordless',
  'POST /oauth/authorize/passwordless/verify',
  'POST /identity/v1/passwordless/start',
  'POST /identity/v1/passwordless/verify',
  'GET /identity/v1/passwordless/verify',
  'POST /identity/v1/passwordless/confirm',
];

/** A link (and a code) by email: the login page's "Email me a sign-in link". */
export const magicLinkMethod: SignInMethod = {
  id: 'magic_link',
  amr: ['otp', 'email'],
  enabled: ({ account }) => account.passwordless.magic_link,
  loginEntry: () => ({ passwordless: { magicLink: true, sms: false } }),
  routes: ROUTES,
};

/** A code by SMS: the login page's "Text me a code". */
export const smsMethod: SignInMethod = {
  id: 'sms',
  amr: ['otp', 'sms'],
  enabled: ({ account }) => account.passwordless.sms,
  loginEntry: () => ({ passwordless: { magicLink: false, sms: true } }),
  routes: ROUTES,
};
