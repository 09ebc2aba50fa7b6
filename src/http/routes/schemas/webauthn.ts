import { Type } from 'typebox';
import { anyObject } from '../../schema-types.js';
import { answer, protocolParams } from '../../protocol-schema.js';

/**
 * The Core SDK's passkey API, /identity/v1/webauthn/* (JSON, keys snake_cased by the SDK). The
 * ceremonies' own checks (passkeys/wire.ts, @simplewebauthn/server) give the exact errors: the request
 * schemas describe and do not refuse. WebAuthn options pass whole (any object, nothing dropped).
 */
const webauthnOptions = anyObject({ additionalProperties: true, description: 'WebAuthn options, keys snake_cased' });
const creationAnswer = answer({ friendly_name: Type.String(), options: answer({ public_key: webauthnOptions }) });
const tknAnswer = { 200: answer({ tkn: Type.String() }) };
const assertion = {
  id: 'string: the credential id (base64url)',
  raw_id: 'string: the same, raw',
  type: 'string: public-key',
  response: 'object: authenticator_data, client_data_json, signature, user_handle',
};
const attestation = {
  id: 'string: the credential id (base64url)',
  raw_id: 'string: the same, raw',
  type: 'string: public-key',
  response: 'object: attestation_object, client_data_json, transports',
};

export const signupOptionsSchema = {
  body: protocolParams({
    client_id: 'string: the client (required)',
    origin: 'string: the page origin (one of the account passkey origins)',
    friendly_name: 'string: a name for the passkey',
    profile: 'object: email or phone_number, given_name, family_name',
    scope: 'string: space-separated scopes',
  }),
  response: { 200: creationAnswer },
};

export const signupSchema = {
  body: protocolParams({
    public_key_credential: 'object: the attestation (id, raw_id, type, response)',
    webauthn_id: 'string: options.public_key.user.id, echoed',
  }),
  response: tknAnswer,
};

export const authenticationOptionsSchema = {
  body: protocolParams({
    client_id: 'string: the client (required)',
    origin: 'string: the page origin',
    scope: 'string: space-separated scopes',
    email: 'string: whose passkeys (absent: a discoverable credential)',
    phone_number: 'string: whose passkeys, instead of an email',
  }),
  response: { 200: answer({ public_key: webauthnOptions }) },
};

export const authenticationSchema = { body: protocolParams(assertion), response: tknAnswer };

export const registrationOptionsSchema = {
  body: protocolParams({
    origin: 'string: the page origin',
    friendly_name: 'string: a name for the passkey',
  }),
  response: { 200: creationAnswer },
};

export const registrationSchema = { body: protocolParams(attestation) };

export const devicesSchema = {
  response: {
    200: Type.Array(
      answer({
        id: Type.String(),
        friendly_name: Type.String(),
        created_at: Type.String({ format: 'date-time' }),
        last_used_at: Type.String({ format: 'date-time' }),
        aaguid: Type.String(),
      }),
    ),
  },
};

export const deviceParamsSchema = { params: protocolParams({ id: 'string: the passkey id' }) };

const recovery = {
  client_id: 'string: the client (required)',
  email: 'string: the address the recovery code went to (or phone_number)',
  phone_number: 'string: the number the recovery code went to',
  verification_code: 'string: the recovery code, or the token of the emailed link',
  friendly_name: 'string: a name for the new passkey',
};

/** After account recovery: creation options for the user the code names. */
export const resetOptionsSchema = {
  body: protocolParams({ ...recovery, origin: 'string: the page origin of the ceremony' }),
};

/** After account recovery: the new passkey (it replaces the old ones when the account says so). */
export const resetSchema = {
  body: protocolParams({ ...recovery, public_key_credential: 'object: the attestation, in the SDK wire format' }),
};
