import { protocolParams } from '../../protocol-schema.js';

/** GET /jwks.json: the global key set, or a client's with ?client_id (its body is pre-serialised). */
export const jwksSchema = {
  querystring: protocolParams({ client_id: 'string: the client whose keys to publish (its own or the global ones)' }),
};
