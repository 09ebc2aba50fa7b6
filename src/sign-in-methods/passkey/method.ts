import type { SignInMethod } from '../contract.js';

/**
 * Passkeys (WebAuthn, src/passkeys/): the login page's autofill and button, and the Core SDK's
 * authentication (a tkn). Offered when the account turned passkeys on.
 */
export const passkeyMethod: SignInMethod = {
  id: 'passkey',
  amr: ['webauthn', 'mfa'],
  enabled: ({ account }) => account.passkeys.enabled,
  loginEntry: async ({ passkeyOptions }) => ({ passkey: await passkeyOptions() }),
  routes: [
    'POST /oauth/authorize/passkey',
    'POST /identity/v1/webauthn/authentication-options',
    'POST /identity/v1/webauthn/authentication',
  ],
};
