import { Type } from 'typebox';
import { answer, protocolParams } from '../../protocol-schema.js';
import { clientAuth } from './token.js';

/** POST /oauth/device_authorization (RFC 8628 3.1): a form or JSON; protocol/device/ checks it. */
export const deviceAuthorizationSchema = {
  body: protocolParams({
    ...clientAuth,
    scope: 'string: space-separated scopes',
    resource: 'string: the API resource the access token is for (RFC 8707)',
  }),
  response: {
    200: answer({
      device_code: Type.String(),
      user_code: Type.String(),
      verification_uri: Type.String(),
      verification_uri_complete: Type.String(),
      expires_in: Type.Number(),
      interval: Type.Number(),
    }),
  },
};

/** GET /device: the page where the user types the code (prefilled from verification_uri_complete). */
export const devicePageSchema = {
  querystring: protocolParams({ user_code: 'string: the user code, prefilled (verification_uri_complete)' }),
};

/** POST /device: the code the user typed, with the page's CSRF token. */
export const deviceFormSchema = {
  body: protocolParams({
    user_code: 'string: the user code the device shows (case, spaces and dashes do not matter)',
    csrf: 'string: the CSRF token of the page',
  }),
};
