import { Type } from 'typebox';
import { answer, protocolParams } from '../../protocol-schema.js';
import { clientAuth } from './token.js';

/** POST /oauth/par (RFC 9126 2.1): a form; the authorization request's parameters and the client's credentials. */
export const parSchema = {
  body: protocolParams({
    ...clientAuth,
    response_type: 'string: as at /oauth/authorize',
    redirect_uri: 'string: as at /oauth/authorize',
    scope: 'string: as at /oauth/authorize',
    state: 'string: as at /oauth/authorize',
    code_challenge: 'string: as at /oauth/authorize (PKCE)',
    code_challenge_method: 'string: S256',
    nonce: 'string: as at /oauth/authorize',
    resource: 'string: as at /oauth/authorize',
    request: 'string: a signed request object (RFC 9101) holding the parameters instead',
    dpop_jkt: 'string: as at /oauth/authorize (or send a DPoP proof: the code is bound to its key)',
  }),
  response: {
    201: answer({
      request_uri: Type.String({
        description: 'urn:ietf:params:oauth:request_uri:…, for /oauth/authorize with client_id',
      }),
      expires_in: Type.Integer({ description: 'Seconds the request_uri may be used in (once)' }),
    }),
  },
};
