import { Type } from 'typebox';
import { answer, protocolParams } from '../../protocol-schema.js';

/**
 * The profile completion of a first social sign-in (signup-completion.ts): the Core SDK's
 * getSignupData, Ward's "Complete your profile" page and its form (which the app's own page may post).
 */
export const signupDataSchema = {
  querystring: protocolParams({
    client_id: 'string: the client of the sign-in (required; the SDK sends its clientId)',
    token: 'string: the signup token Ward gave (required)',
  }),
  response: {
    200: answer({
      sub: Type.String({ description: 'the id the user will have' }),
      name: Type.String(),
      given_name: Type.String(),
      family_name: Type.String(),
      email: Type.String({ description: 'as the provider gave it' }),
      email_verified: Type.Boolean({ description: 'whether the provider verified it' }),
    }),
  },
};

export const completePageSchema = {
  querystring: protocolParams({
    signup_token: 'string: the signup token of the sign-in in this browser',
    resume: "string: the one-time handle of a completion the app's page posted",
  }),
};

export const completeFormSchema = {
  body: protocolParams({
    signup_token: 'string: the signup token (required)',
    csrf: "string: the CSRF token of Ward's page (absent when the app's own page posts)",
    email: 'string: an email address, when the account requires one the provider did not verify',
    given_name: "string: replaces the provider's given name",
    family_name: "string: replaces the provider's family name",
    'custom_fields.<name>': 'string: a custom field, written as text (numbers, true/false, YYYY-MM-DD)',
    'consents.<key>': "string: true (granted) or false, a consent of the account's; a required one must be true",
  }),
};
