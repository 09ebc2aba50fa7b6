import { protocolParams } from '../../protocol-schema.js';

export const customTokenLoginSchema = {
  querystring: protocolParams({
    token: 'string: the single-use token the management API minted (POST /api/v1/custom-tokens)',
    client_id: 'string: the client the token was minted for (required)',
    response_type: 'string: as at /oauth/authorize',
    redirect_uri: 'string: as at /oauth/authorize',
    scope: 'string: as at /oauth/authorize',
    state: 'string: as at /oauth/authorize',
    nonce: 'string: as at /oauth/authorize',
    code_challenge: 'string: as at /oauth/authorize',
    code_challenge_method: 'string: as at /oauth/authorize',
  }),
};
