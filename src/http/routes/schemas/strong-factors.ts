import { Type } from 'typebox';
import { anyObject, stringEnum } from '../../schema-types.js';
import { answer, protocolParams } from '../../protocol-schema.js';

/** Authenticator apps (TOTP) and recovery codes (docs/mfa.md), with a Bearer access token. */
export const totpStatusSchema = {
  response: {
    200: answer({
      status: stringEnum(['none', 'pending', 'enabled']),
      created_at: Type.String({ format: 'date-time' }),
      recovery_codes_left: Type.Integer(),
    }),
  },
};

/** A new secret, shown this once: as base32 text, as the otpauth:// URI and as that URI's QR code (SVG). */
export const totpEnrolSchema = {
  response: {
    200: answer({ secret: Type.String(), otpauth_uri: Type.String(), qr_svg: Type.String() }),
  },
};

export const totpVerifySchema = {
  body: protocolParams({ verification_code: 'string: the code the authenticator app shows (required)' }),
  response: {
    200: answer({ status: stringEnum(['enabled']), recovery_codes: Type.Array(Type.String()) }),
  },
};

export const totpRemoveSchema = { response: { 204: Type.Unsafe<void>({ description: 'removed: no body' }) } };

export const recoveryCodesStatusSchema = { response: { 200: answer({ remaining: Type.Integer() }) } };

/** A new set of ten codes, shown this once; the previous set stops working. */
export const recoveryCodesSchema = { response: { 200: answer({ recovery_codes: Type.Array(Type.String()) }) } };

/** The step-up of /identity/v1/mfa/stepup answered by an authenticator app or a recovery code. */
export const stepUpVerifySchema = {
  body: protocolParams({
    step_up: 'string: the token of /identity/v1/mfa/stepup (required)',
    auth_type: 'string: totp, recovery_code or webauthn (required)',
    verification_code: "string: the app's code, or a recovery code (totp, recovery_code)",
    credential:
      'object: webauthn: the assertion (id, raw_id, type, response: authenticator_data, client_data_json, signature, user_handle), base64url, keys snake_cased',
    trust_device: 'boolean (or "true"): remember this browser as a trusted device',
  }),
  response: {
    200: answer({
      code: Type.String(),
      state: Type.String(),
      recovery_codes_left: Type.Integer({
        description: 'Present when a recovery code answered: the unused codes left',
      }),
      recovery_codes_renew: Type.Boolean({
        description:
          'true when that was the last recovery code: make a new set (POST /identity/v1/mfa/recovery-codes with the new token)',
      }),
    }),
  },
};

/**
 * WebAuthn request options for the step-up's user to answer it with a security key or passkey (keys
 * snake_cased, as /identity/v1/webauthn/authentication-options answers them).
 */
export const stepUpKeyOptionsSchema = {
  body: protocolParams({
    step_up: 'string: the token of /identity/v1/mfa/stepup (required)',
    origin: 'string: the page origin (one of the account passkey origins)',
  }),
  response: {
    200: answer({
      public_key: anyObject({ additionalProperties: true, description: 'WebAuthn options, keys snake_cased' }),
    }),
  },
};
