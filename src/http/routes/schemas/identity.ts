import { Type } from 'typebox';
import { answer, captchaParams, protocolParams } from '../../protocol-schema.js';

/**
 * The Core SDK's identity API. It sends JSON or forms; the parameter rules (one value each, strings,
 * the client, the scope) are protocol/params.ts's, so the request schemas describe and do not refuse.
 */
const clientAndScope = {
  client_id: 'string: the client (required)',
  scope: 'string: space-separated scopes',
};

export const signupSchema = {
  body: protocolParams({
    ...clientAndScope,
    data: 'object: email or phone_number, password, given_name, family_name, ...',
    ...captchaParams,
    redirect_url: "string: where the verification email's link goes once confirmed (a callback URL)",
    return_to_after_email_confirmation: "string: the same, when Ward's own page is shown (a callback URL)",
  }),
  response: { 200: answer({ id: Type.String(), tkn: Type.String() }) },
};

export const passwordLoginSchema = {
  body: protocolParams({
    ...clientAndScope,
    email: 'string: the email address (or username)',
    username: 'string: the email address, when email is not given',
    phone_number: 'string: the phone number, instead of an email address',
    password: 'string: the password',
    ...captchaParams,
  }),
  response: { 200: answer({ tkn: Type.String(), mfa_required: Type.Boolean() }) },
};

/** The Core SDK's getPasswordStrength. */
export const passwordStrengthSchema = {
  body: protocolParams({ client_id: 'string: the client (required)', password: 'string: the password to score' }),
  response: { 200: answer({ score: Type.Integer({ minimum: 0, maximum: 4 }) }) },
};

export const ssoDataSchema = {
  querystring: protocolParams({ client_id: 'string: the client (required)' }),
  response: {
    200: answer({
      is_authenticated: Type.Boolean(),
      name: Type.String(),
      email: Type.String(),
      phone_number: Type.String(),
      last_login_type: Type.String({ description: 'password, the social provider, or the first amr value' }),
      has_password: Type.Boolean(),
      social_providers: Type.Array(Type.String()),
    }),
  },
};

/** The client's remote settings, as the Core SDK reads them. */
export const remoteConfigSchema = {
  querystring: protocolParams({ client_id: 'string: the client (required)', lang: 'string: a language tag' }),
  response: {
    200: answer({
      sso: Type.Boolean(),
      sms: Type.Boolean(),
      web_authn: Type.Boolean(),
      language: Type.String(),
      pkce_enforced: Type.Boolean(),
      is_public: Type.Boolean(),
      is_implicit_flow_forbidden: Type.Boolean(),
      scope: Type.String(),
      social_providers: Type.Array(Type.String()),
      password_policy: answer({
        min_length: Type.Integer(),
        min_strength: Type.Integer(),
        uppercase_characters: Type.Optional(Type.Integer()),
        lowercase_characters: Type.Optional(Type.Integer()),
        digit_characters: Type.Optional(Type.Integer()),
        special_characters: Type.Optional(Type.Integer()),
        allow_update_with_access_token_only: Type.Boolean(),
      }),
      custom_fields: Type.Array(
        answer({
          name: Type.String(),
          path: Type.String(),
          data_type: Type.String({
            description: 'the Core SDK type: string, number, integer, checkbox, date, select, ...',
          }),
          required: Type.Boolean(),
          writable: Type.String({ description: 'user or admin: who may write it' }),
        }),
      ),
      consents: Type.Array(
        answer({
          key: Type.String(),
          title: Type.String({ description: 'in the requested language (lang), else the first one given' }),
          description: Type.String(),
          consent_type: Type.String({ description: 'opt-in, opt-out or double-opt-in' }),
          status: Type.String({ description: 'active (archived ones are not listed)' }),
          required: Type.Boolean({ description: 'Ward: must be granted at signup' }),
          version_id: Type.Integer({ description: 'Ward: the current version, to send back in consent_version' }),
          language: Type.String({ description: 'Ward: the language of title and description' }),
        }),
      ),
      resource_base_url: Type.String(),
      mfa_sms_enabled: Type.Boolean(),
      mfa_email_enabled: Type.Boolean(),
      rba_enabled: Type.Boolean(),
      login_type_allowed: answer({
        email: Type.Boolean(),
        phone_number: Type.Boolean(),
        custom_identifier: Type.Boolean(),
      }),
      google_client_id: Type.String({
        description: "the google provider's client id, for Google One Tap (absent without a google provider)",
      }),
    }),
  },
};

/** DELETE /identity/v1/sessions/others: with a user's access token, no body. */
export const otherSessionsSchema = {
  response: { 200: answer({ ended_sessions: Type.Integer(), revoked_grants: Type.Integer() }) },
};
