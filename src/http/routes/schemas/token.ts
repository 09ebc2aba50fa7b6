import { Type } from 'typebox';
import { stringEnum } from '../../schema-types.js';
import { answer, protocolParams } from '../../protocol-schema.js';

/** The client's credentials in the body (client_secret_post, a client assertion); Basic goes in the header. */
export const clientAuth = {
  client_id: 'string: the client (or in the Authorization header, Basic)',
  client_secret: 'string: client_secret_post (or in the Authorization header, Basic)',
  client_assertion_type:
    'string: urn:ietf:params:oauth:client-assertion-type:jwt-bearer, with client_assertion (RFC 7523)',
  client_assertion: 'string: a JWT signed by the client (private_key_jwt) or with its secret (client_secret_jwt)',
};

/** POST /oauth/token (RFC 6749 3.2): a form or JSON; each grant's rules are in protocol/token/. */
export const tokenSchema = {
  body: protocolParams({
    grant_type:
      'string: authorization_code, refresh_token, password, client_credentials or urn:ietf:params:oauth:grant-type:device_code',
    ...clientAuth,
    code: 'string: authorization_code',
    redirect_uri: 'string: authorization_code, as in the authorization request',
    code_verifier: 'string: authorization_code with PKCE (RFC 7636)',
    refresh_token: 'string: refresh_token',
    device_code: 'string: urn:ietf:params:oauth:grant-type:device_code (RFC 8628)',
    username: 'string: password',
    password: 'string: password',
    scope: 'string: space-separated scopes',
    resource: 'string: the API resource the access token is for (RFC 8707); only the one of the authorization',
  }),
  response: {
    200: answer({
      access_token: Type.String(),
      token_type: stringEnum(['Bearer', 'DPoP']),
      expires_in: Type.Number(),
      scope: Type.String(),
      id_token: Type.String(),
      refresh_token: Type.String(),
    }),
  },
};

/** POST /oauth/revoke (RFC 7009): 200 with {} for any token, known or not. */
export const revokeSchema = {
  body: protocolParams({
    token: 'string: the access or refresh token',
    token_type_hint: 'string: access_token or refresh_token (a hint only)',
    ...clientAuth,
  }),
  response: { 200: Type.Object({}, { additionalProperties: true }) },
};

/** POST /oauth/introspect (RFC 7662): for an authenticated confidential client or resource server. */
export const introspectSchema = {
  body: protocolParams({
    token: 'string: the token to look at',
    token_type_hint: 'string: access_token or refresh_token (a hint only)',
    ...clientAuth,
  }),
  response: {
    200: answer({
      active: Type.Boolean(),
      scope: Type.String(),
      client_id: Type.String(),
      token_type: stringEnum(['Bearer', 'DPoP']),
      cnf: Type.Object(
        { jkt: Type.String({ description: 'the JWK thumbprint of the DPoP key (RFC 9449 6.2)' }) },
        { additionalProperties: false },
      ),
      exp: Type.Number(),
      iat: Type.Number(),
      iss: Type.String(),
      aud: Type.String(),
      jti: Type.String(),
      sub: Type.String(),
      username: Type.String(),
      auth_time: Type.Number(),
      step_up_action: Type.String({ description: 'the action of the step-up the grant was signed in with' }),
    }),
  },
};
