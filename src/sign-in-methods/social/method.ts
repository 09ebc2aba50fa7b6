import type { SignInMethod } from '../contract.js';

/**
 * Social login (src/social/): one "Continue with ..." button per configured provider, the provider's
 * callback, and the link page where an existing account proves itself by its password.
 */
export const socialMethod: SignInMethod = {
  id: 'social',
  amr: ['social'],
  enabled: ({ providers }) => providers.length > 0,
  loginEntry: ({ providers, interaction }) => ({
    social: providers.map((p) => ({
      label: p.label,
      href: `/oauth/authorize/social?interaction=${encodeURIComponent(interaction)}&provider=${encodeURIComponent(p.name)}`,
    })),
  }),
  routes: [
    'GET /oauth/authorize/social',
    'GET /identity/v1/oauth/callback/:name',
    'POST /identity/v1/oauth/callback/:name',
    'POST /identity/v1/oauth/link',
  ],
};
