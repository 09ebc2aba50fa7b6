export const PRESET_NAMES = ['google', 'microsoft', 'apple', 'facebook'] as const;

/**
 * Presets: only endpoints and claim mapping; nothing is fetched at start. Each key of a preset can be
 * overridden in the entry (the tests point `issuer` at a local simulator); the defaults are the real ones.
 * - microsoft: the multi-tenant `common` issuer (`organizations`, `consumers` or a tenant id by overriding
 *   `issuer`); its discovery names the issuer template `.../{tenantid}/v2.0`, checked against each
 *   id_token's `tid` (src/social/issuer-rule.ts).
 * - apple: the answer is posted (`form_post`); `client_secret` is the team's .p8 key, from which Ward
 *   mints the ES256 client secret JWT with `team_id` and `key_id` (src/social/apple-secret.ts).
 * - facebook: plain OAuth 2.0 (Facebook Login for the web is not OpenID Connect): the secret goes in
 *   the token request's body, no PKCE, the profile read from the Graph API's /me with its fields named
 *   and `appsecret_proof`. It says nothing of the email being verified, so it is not taken as verified.
 */
export const PRESETS: Record<(typeof PRESET_NAMES)[number], Record<string, unknown>> = {
  google: {
    type: 'oidc',
    issuer: 'https://accounts.google.com',
    scopes: ['openid', 'email', 'profile'],
    label: 'Google',
  },
  microsoft: {
    type: 'oidc',
    issuer: 'https://login.microsoftonline.com/common/v2.0',
    scopes: ['openid', 'email', 'profile'],
    label: 'Microsoft',
  },
  apple: {
    type: 'oidc',
    issuer: 'https://appleid.apple.com',
    scopes: ['openid', 'email', 'name'],
    response_mode: 'form_post',
    label: 'Apple',
  },
  facebook: {
    type: 'oauth2',
    scopes: ['email', 'public_profile'],
    authorization_url: 'https://www.facebook.com/v19.0/dialog/oauth',
    token_url: 'https://graph.facebook.com/v19.0/oauth/access_token',
    userinfo_url: 'https://graph.facebook.com/v19.0/me?fields=id,first_name,last_name,email',
    claims: { sub: 'id', email: 'email', given_name: 'first_name', family_name: 'last_name' },
    token_endpoint_auth_method: 'client_secret_post',
    pkce: false,
    appsecret_proof: true,
    label: 'Facebook',
  },
};
