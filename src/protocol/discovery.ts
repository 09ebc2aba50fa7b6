import { DISPLAYS, PROMPTS } from './authorize/check-prompt.js';
import { SUPPORTED_SCOPES } from './scopes.js';

/** OpenID Provider metadata (OIDC Discovery 3, RFC 8414), serialised once. */
export function discoveryDocument(issuer: string): string {
  return JSON.stringify({
    issuer,
    authorization_endpoint: `${issuer}/oauth/authorize`,
    token_endpoint: `${issuer}/oauth/token`,
    userinfo_endpoint: `${issuer}/identity/v1/userinfo`,
    jwks_uri: `${issuer}/jwks.json`,
    revocation_endpoint: `${issuer}/oauth/revoke`,
    introspection_endpoint: `${issuer}/oauth/introspect`,
    end_session_endpoint: `${issuer}/identity/v1/logout`,
    scopes_supported: SUPPORTED_SCOPES,
    response_types_supported: ['code', 'token', 'id_token', 'code id_token', 'messenger_code'],
    response_modes_supported: ['query', 'fragment', 'form_post', 'web_message'],
    // password: opt-in per client (off by default); listed because Ward supports it.
    grant_types_supported: ['authorization_code', 'refresh_token', 'client_credentials', 'implicit', 'password'],
    subject_types_supported: ['public'],
    id_token_signing_alg_values_supported: ['RS256', 'HS256', 'ES256', 'EdDSA'],
    token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
    revocation_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
    introspection_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
    code_challenge_methods_supported: ['S256'],
    claims_supported: [
      'sub',
      'iss',
      'aud',
      'exp',
      'iat',
      'auth_time',
      'nonce',
      'amr',
      'azp',
      'at_hash',
      'name',
      'given_name',
      'family_name',
      'email',
      'email_verified',
      'phone_number',
      'phone_number_verified',
      'updated_at',
    ],
    prompt_values_supported: PROMPTS,
    display_values_supported: DISPLAYS,
    authorization_response_iss_parameter_supported: true,
    request_parameter_supported: false,
    request_uri_parameter_supported: false,
    claims_parameter_supported: false,
  });
}
