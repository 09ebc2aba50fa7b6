import { Type } from 'typebox';
import { nullable, stringEnum } from '../../schema-types.js';
import { answer, protocolParams } from '../../protocol-schema.js';

/** The second factors of the caller (a Bearer access token), as the Core SDK reads them. */
const credential = answer({
  type: stringEnum(['email', 'sms']),
  email: Type.String(),
  phone_number: Type.String(),
  created_at: Type.String({ format: 'date-time' }),
  friendly_name: Type.String(),
});

export const listCredentialsSchema = { response: { 200: answer({ credentials: Type.Array(credential) }) } };

const registration = answer({ status: stringEnum(['enabled', 'email_sent', 'sms_sent']), credential });

const action = 'string: what the registration is for (at most 100 characters): named in its audit event';

export const registerEmailSchema = { body: protocolParams({ action }), response: { 200: registration } };

export const registerPhoneSchema = {
  body: protocolParams({
    phone_number: 'string: in international format, such as +33612345678 (required)',
    action,
  }),
  response: { 200: registration },
};

export const verifyCredentialSchema = {
  body: protocolParams({ verification_code: 'string: the code sent (required)' }),
};

/** DELETE /identity/v1/mfa/credentials/emails: no parameter; 204 without a body. */
export const removeEmailSchema = { response: { 204: Type.Unsafe<void>({ description: 'removed: no body' }) } };

export const removePhoneSchema = {
  body: protocolParams({ phone_number: 'string: the number to remove (required)' }),
};

export const listTrustedDevicesSchema = {
  response: {
    200: answer({
      trusted_devices: Type.Array(
        answer({
          id: Type.String(),
          user_id: Type.String(),
          created_at: Type.String({ format: 'date-time' }),
          expires_at: Type.String({ format: 'date-time' }),
          metadata: answer({ device_name: nullable(Type.String()) }),
        }),
      ),
    }),
  },
};

export const trustedDeviceParams = {
  params: Type.Object({ id: Type.String({ description: 'the trusted device (at most 64 characters are read)' }) }),
};
