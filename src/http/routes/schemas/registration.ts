import { Type } from 'typebox';
import { answer, protocolParams } from '../../protocol-schema.js';

const METADATA = {
  redirect_uris:
    'array of URLs: where the browser may come back (the same rules as an administrator’s client); required',
  token_endpoint_auth_method:
    'string: none (a public client), client_secret_basic (the default), client_secret_post, client_secret_jwt or private_key_jwt',
  jwks: 'object: private_key_jwt: the public keys (a JWK Set), or',
  jwks_uri: 'string: private_key_jwt: where the JWK Set is fetched (https)',
  require_pushed_authorization_requests: 'boolean: its authorization requests must be pushed (RFC 9126)',
  request_object_signing_alg:
    'string: RS256, PS256, ES256 or EdDSA, the one algorithm of its request objects (RFC 9101; needs jwks or jwks_uri)',
  require_signed_request_object: 'boolean: its authorization requests come in a signed request object (RFC 9101)',
  dpop_bound_access_tokens: 'boolean: its token requests carry a DPoP proof (RFC 9449 5.2)',
  grant_types: 'array: authorization_code (required), refresh_token',
  response_types: 'array: code',
  client_name: 'string: the name users see on the consent page',
  client_uri: 'string: the app’s home page',
  logo_uri: 'string: the app’s logo',
  policy_uri: 'string: the app’s privacy policy',
  tos_uri: 'string: the app’s terms of service',
  scope: 'string: space-separated scopes the client will ask',
  contacts: 'array of strings: people responsible for the client',
  software_id: 'string',
  software_version: 'string',
  id_token_signed_response_alg: 'string: RS256 (default), ES256, EdDSA, or HS256 for a client with a secret',
  post_logout_redirect_uris: 'array of URLs: where RP-Initiated Logout may come back',
};

/** A registration as RFC 7591 section 3.2.1 and RFC 7592 answer it. */
const registrationAnswer = answer({
  client_id: Type.String(),
  client_secret: Type.String({
    description: 'Only for client_secret_basic / client_secret_post / client_secret_jwt',
  }),
  client_secret_expires_at: Type.Integer({ description: '0: never' }),
  client_id_issued_at: Type.Integer(),
  registration_access_token: Type.String({ description: 'Only in the answer that created the client' }),
  registration_client_uri: Type.String(),
  redirect_uris: Type.Array(Type.String()),
  token_endpoint_auth_method: Type.String(),
  grant_types: Type.Array(Type.String()),
  response_types: Type.Array(Type.String()),
  client_name: Type.String(),
});

const clientParam = protocolParams({ client_id: 'string: the registered client' });

/** POST /oauth/register (RFC 7591): a client registers itself. */
export const registerSchema = {
  body: protocolParams(METADATA),
  response: { 201: registrationAnswer },
};

/** GET /oauth/register/:client_id (RFC 7592 section 2.1), with the registration access token. */
export const readRegistrationSchema = { params: clientParam, response: { 200: registrationAnswer } };

/** PUT /oauth/register/:client_id (RFC 7592 section 2.2): the metadata sent replaces the registered. */
export const updateRegistrationSchema = {
  params: clientParam,
  body: protocolParams({ client_id: 'string: the client being updated (required)', ...METADATA }),
  response: { 200: registrationAnswer },
};

/** DELETE /oauth/register/:client_id (RFC 7592 section 2.3). */
export const deleteRegistrationSchema = { params: clientParam };
