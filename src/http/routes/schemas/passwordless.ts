import { protocolParams } from '../../protocol-schema.js';

/** Passwordless as a first factor (identity-api.md, "Passwordless as first factor"). */
const address = {
  auth_type: 'string: magic_link (with email) or sms (with phone_number)',
  email: 'string: the email address a magic link went to',
  phone_number: 'string: the phone number an SMS code went to',
  verification_code: 'string: the code, or the token of the emailed link',
};

export const verifyAuthCodeSchema = { body: protocolParams(address) };

export const passwordlessVerifyGetSchema = {
  querystring: protocolParams({ ...address, client_id: 'string: the client (ignored: the stored request rules)' }),
};

export const passwordlessConfirmSchema = {
  body: protocolParams({
    verification_code: 'string: the link token or the typed code',
    csrf: 'string: the form token',
    auth_type: 'string: magic_link or sms (with a typed code)',
    email: 'string: the address of a typed code',
    phone_number: 'string: the number of a typed code',
  }),
};

const hosted = { interaction: 'string: the sign-in in progress', csrf: 'string: the form token' };

export const hostedPasswordlessSchema = {
  body: protocolParams({
    ...hosted,
    auth_type: address.auth_type,
    email: address.email,
    phone_number: address.phone_number,
  }),
};

export const hostedPasswordlessVerifySchema = { body: protocolParams({ ...hosted, ...address }) };
