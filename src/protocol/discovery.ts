import { DISPLAYS, PROMPTS } from './authorize/check-prompt.js';
import { PROFILE_SCOPE_CLAIMS, SUPPORTED_SCOPES } from './scopes.js';
import { DPOP_ALGORITHMS } from './dpop/proof.js';
import { REQUEST_OBJECT_ALGS } from '../config/types.js';
import { CLIENT_SECRET_JWT_ALGS, PRIVATE_KEY_JWT_ALGS } from './token/client-assertion.js';

const SECRET_METHODS = ['client_secret_basic', 'client_secret_post'];
/** Client assertions (RFC 7523): token/client-assertion.ts. */
const ASSERTION_METHODS = ['client_secret_jwt', 'private_key_jwt'];
const ASSERTION_ALGS = [...PRIVATE_KEY_JWT_ALGS, ...CLIENT_SECRET_JWT_ALGS];

/** OpenID Provider metadata (OIDC Discovery 3, RFC 8414), serialised once. */
export function discoveryDocument(issuer: string): string {
  return JSON.stringify({
    issuer,
    authorization_endpoint: `${issuer}/oauth/authorize`,
    token_endpoint: `${issuer}/oauth/token`,
    device_authorization_endpoint: `${issuer}/oauth/device_authorization`,
    pushed_authorization_request_endpoint: `${issuer}/oauth/par`,
    userinfo_endpoint: `${issuer}/identity/v1/userinfo`,
    jwks_uri: `${issuer}/jwks.json`,
    revocation_endpoint: `${issuer}/oauth/revoke`,
    introspection_endpoint: `${issuer}/oauth/introspect`,
    end_session_endpoint: `${issuer}/identity/v1/logout`,
    scopes_supported: SUPPORTED_SCOPES,
    response_types_supported: ['code', 'token', 'id_token', 'code id_token', 'messenger_code'],
    response_modes_supported: ['query', 'fragment', 'form_post', 'web_message'],
    // password: opt-in per client (off by default); listed because Ward supports it.
    grant_types_supported: [
      'authorization_code',
      'refresh_token',
      'client_credentials',
      'implicit',
      'password',
      'urn:ietf:params:oauth:grant-type:device_code',
    ],
    subject_types_supported: ['public'],
    id_token_signing_alg_values_supported: ['RS256', 'HS256', 'ES256', 'EdDSA'],
    token_endpoint_auth_methods_supported: [...SECRET_METHODS, ...ASSERTION_METHODS, 'none'],
    token_endpoint_auth_signing_alg_values_supported: ASSERTION_ALGS,
    revocation_endpoint_auth_methods_supported: [...SECRET_METHODS, ...ASSERTION_METHODS, 'none'],
    revocation_endpoint_auth_signing_alg_values_supported: ASSERTION_ALGS,
    introspection_endpoint_auth_methods_supported: [...SECRET_METHODS, ...ASSERTION_METHODS],
    introspection_endpoint_auth_signing_alg_values_supported: ASSERTION_ALGS,
    code_challenge_methods_supported: ['S256'],
    dpop_signing_alg_values_supported: DPOP_ALGORITHMS,
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
      'sid',
      'name',
      'given_name',
      'family_name',
      ...PROFILE_SCOPE_CLAIMS,
      'profile',
      'preferred_username',
      'address',
      'email',
      'email_verified',
      'phone_number',
      'phone_number_verified',
      'updated_at',
    ],
    prompt_values_supported: PROMPTS,
    display_values_supported: DISPLAYS,
    authorization_response_iss_parameter_supported: true,
    // Signed request objects by value (authorize/request-object.ts); by reference only PAR's own.
    request_parameter_supported: true,
    request_uri_parameter_supported: false,
    request_object_signing_alg_values_supported: REQUEST_OBJECT_ALGS,
    claims_parameter_supported: false,
    backchannel_logout_supported: true,
    backchannel_logout_session_supported: true,
  });
}

/**
 * The metadata served at both well-known addresses (OpenID Connect Discovery 1.0 and OAuth 2.0
 * Authorization Server Metadata, RFC 8414): the discovery document, with the registration
 * endpoint when Dynamic Client Registration is open, `require_signed_request_object` when the account
 * requires request objects (RFC 9101 10.5), and `client_id_metadata_document_supported` when
 * Client ID Metadata Documents are on (the MCP authorization specification reads both).
 */
export function authorizationServerMetadata(
  issuer: string,
  registration: { mode: string; metadata_documents: boolean },
  requireSignedRequestObject = false,
): Record<string, unknown> {
  return {
    ...(JSON.parse(discoveryDocument(issuer)) as Record<string, unknown>),
    // RFC 9101 10.5: every authorization request must come in a signed request object.
    ...(requireSignedRequestObject ? { require_signed_request_object: true } : {}),
    ...(registration.mode === 'off' ? {} : { registration_endpoint: `${issuer}/oauth/register` }),
    ...(registration.metadata_documents ? { client_id_metadata_document_supported: true } : {}),
  };
}
