import { Type } from 'typebox';
import { answer, protocolParams } from '../../protocol-schema.js';

/** GET /jwks.json: the global key set, or a client's with ?client_id (its body is pre-serialised). */
export const jwksSchema = {
  querystring: protocolParams({ client_id: 'string: the client whose keys to publish (its own or the global ones)' }),
};

/**
 * GET /.well-known/openid-configuration (OpenID Connect Discovery 1.0, RFC 8414): the provider's metadata.
 * Its body is pre-serialised (a string is sent as it is), so this answer schema describes it and costs nothing.
 */
export const discoverySchema = {
  response: {
    200: answer({
      issuer: Type.String(),
      authorization_endpoint: Type.String(),
      token_endpoint: Type.String(),
      device_authorization_endpoint: Type.String(),
      userinfo_endpoint: Type.String(),
      jwks_uri: Type.String(),
      revocation_endpoint: Type.String(),
      introspection_endpoint: Type.String(),
      end_session_endpoint: Type.String(),
      scopes_supported: Type.Array(Type.String()),
      response_types_supported: Type.Array(Type.String()),
      response_modes_supported: Type.Array(Type.String()),
      grant_types_supported: Type.Array(Type.String()),
      id_token_signing_alg_values_supported: Type.Array(Type.String()),
      code_challenge_methods_supported: Type.Array(Type.String()),
    }),
  },
};

/** GET /.well-known/oauth-authorization-server (RFC 8414): the same metadata and what registration opens. */
export const authorizationServerSchema = {
  response: {
    200: answer({
      ...discoverySchema.response[200].properties,
      registration_endpoint: Type.String({ description: 'When Dynamic Client Registration is open' }),
      client_id_metadata_document_supported: Type.Boolean({ description: 'When Client ID Metadata Documents are on' }),
    }),
  },
};
