import { Type } from 'typebox';
import { answer, protocolParams } from '../../protocol-schema.js';

/** GET /identity/v1/consents: with a user's access token, the third-party clients they consented to. */
export const listConsentsSchema = {
  response: {
    200: answer({
      consents: Type.Array(
        answer({
          client_id: Type.String(),
          client_name: Type.String(),
          scopes: Type.Array(Type.String()),
          created_at: Type.String({ format: 'date-time' }),
          updated_at: Type.String({ format: 'date-time' }),
        }),
      ),
    }),
  },
};

/** DELETE /identity/v1/consents/:client_id: withdraws the consent, ends the client's tokens of the user. */
export const revokeConsentSchema = {
  params: protocolParams({ client_id: 'string: the client the consent was given to' }),
};
