import { Type } from 'typebox';
import { answer, protocolParams } from '../../protocol-schema.js';

/** GET /identity/v1/account-data: with a user's access token, everything kept about them (JSON). */
export const accountDataApiSchema = {
  response: {
    200: answer({
      format: Type.String({ description: 'ward.user-export.v1' }),
      exported_at: Type.String({ format: 'date-time' }),
      user: Type.Object({}, { additionalProperties: true }),
    }),
  },
};

/** POST /identity/v1/delete-account/code: a code to a user without a password, to confirm the deletion. */
export const deleteAccountCodeSchema = {
  body: protocolParams({ locale: 'string: the language of the message (optional)' }),
};

/** POST /identity/v1/delete-account: the user's own deletion of their account. */
export const deleteAccountSchema = {
  body: protocolParams({
    password: 'string: the current password (when the account has one)',
    verification_code: 'string: the code sent by /identity/v1/delete-account/code (when it has none)',
    confirm: 'boolean: true, the explicit confirmation',
    locale: 'string: the language of the notice (optional)',
  }),
  response: {
    200: answer({
      status: Type.String({ description: 'deleted (erased now) or scheduled (erased at due_at)' }),
      due_at: Type.String({ format: 'date-time' }),
    }),
  },
};
