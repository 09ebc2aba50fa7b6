import type { SignInMethod } from '../contract.js';

/**
 * Email (or phone number) and password: the hosted login form, the Core SDK's password login (a tkn),
 * and the opt-in password grant. Always offered; its login-page entry is the "Forgot your password?" link.
 */
export const passwordMethod: SignInMethod = {
  id: 'password',
  amr: ['pwd'],
  enabled: () => true,
  loginEntry: ({ request }) => ({
    forgotHref: `/identity/v1/password/forgot?${new URLSearchParams({
      client_id: request.client.client_id,
      ...(request.uiLocales ? { ui_locales: request.uiLocales } : {}),
    })}`,
  }),
  routes: ['POST /oauth/authorize/login', 'POST /identity/v1/password/login', 'POST /oauth/token'],
};
