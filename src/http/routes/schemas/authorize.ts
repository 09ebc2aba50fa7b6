import { protocolParams } from '../../protocol-schema.js';

/**
 * GET /oauth/authorize: the authorization request. protocol/authorize/pipeline.ts validates it once
 * (its errors are a page or a redirect), so the schema describes and refuses nothing.
 */
export const authorizeSchema = {
  querystring: protocolParams({
    client_id: 'string: the client (required)',
    redirect_uri: 'string: a registered callback',
    response_type: 'string: code, token, id_token or code id_token',
    response_mode: 'string: query, fragment, form_post or web_message',
    scope: 'string: space-separated scopes',
    resource: 'string: an API resource identifier (RFC 8707): the audience of the access token',
    state: 'string: returned with the answer',
    nonce: 'string: put in the id_token',
    code_challenge: 'string: PKCE (S256)',
    code_challenge_method: 'string: S256',
    prompt: 'string: none, login or consent (consent: a third-party client only)',
    max_age: 'string: seconds',
    display: 'string: page, popup, touch or wap',
    id_token_hint: 'string: an id_token Ward issued',
    login_hint: 'string: prefills the login page',
    ui_locales: 'string: the language of the pages',
    tkn: 'string: a tkn of the password login or signup',
    request:
      "string: a signed request object (RFC 9101) holding the request's parameters, signed with the client's registered keys; only its parameters are used",
    request_uri: 'string: the urn:ietf:params:oauth:request_uri:… of a request pushed to /oauth/par (RFC 9126)',
    dpop_jkt: 'string: the JWK SHA-256 thumbprint of the DPoP key the code must be redeemed with (RFC 9449 10)',
    provider: 'string: go straight to this social provider',
    id_token:
      "string: with provider, an id_token the browser got from that OpenID Connect provider (Google One Tap, the Core SDK's loginWithIdToken); nonce is then the one whose SHA-256 it carries",
  }),
};

/** POST /oauth/authorize (OIDC Core 3.1.2.1): the same parameters as a form. */
export const authorizePostSchema = { body: authorizeSchema.querystring };

/** Every hosted form posts the interaction's handle and a CSRF token (hosted-form.ts checks them). */
const hosted = {
  interaction: 'string: the sign-in in progress (its handle)',
  csrf: 'string: the CSRF token of the page',
  js: 'string: set by the page script',
};

export const loginFormSchema = {
  body: protocolParams({ ...hosted, email: 'string: email or phone number', password: 'string: the password' }),
};

export const passkeyFormSchema = {
  body: protocolParams({ ...hosted, assertion: 'string: the WebAuthn assertion as JSON (the page script sets it)' }),
};

export const consentFormSchema = { body: protocolParams({ ...hosted, decision: 'string: allow, or anything else' }) };

export const mfaFormSchema = {
  body: protocolParams({
    ...hosted,
    step_up: 'string: the step-up of this second factor',
    auth_type:
      'string: email or sms (a code sent), totp (an authenticator app), webauthn (a security key) or recovery_code',
    action: 'string: resend, verify, or switch (to the authenticator app or the security key)',
    challenge_id: 'string: the code sent (email or sms)',
    verification_code: 'string: the code the user typed',
    assertion: 'string: webauthn: the JSON of the assertion (id, raw_id, type, response), keys snake_cased',
  }),
};

/** The pages of a required enrolment and of new recovery codes (interaction/enrolment.ts). */
export const enrolFormSchema = {
  body: protocolParams({
    ...hosted,
    action:
      'string: verify (the first code of the authenticator app), email or sms (send a code there), verify_sent, key (start a security key registration), key_verify, later, new_codes or continue',
    credential:
      'string: the JSON of the new security key or passkey credential (key_verify), in the wire format of /identity/v1/webauthn/registration',
    channel: 'string: email or sms, the address a code was sent to (verify_sent)',
    verification_code: 'string: the code the authenticator app shows, or the code sent',
  }),
};

/** The consents to accept again at sign-in (interaction/reconsent.ts); Cancel posts to the consent form. */
export const reconsentFormSchema = {
  body: protocolParams({
    ...hosted,
    decision: 'string: accept',
    'consent_<key>': "string: 1 when the consent's box is checked (absent: not granted)",
  }),
};

/** The hosted signup page and the login page shown again, for a stored interaction. */
export const signupPageSchema = {
  querystring: protocolParams({ interaction: 'string: the sign-in in progress (its handle)' }),
};

export const loginPageSchema = {
  querystring: protocolParams({
    interaction: 'string: the sign-in in progress (its handle)',
    captcha: 'string: missing, failed or unavailable (a passwordless request its captcha refused)',
  }),
};

export const signupFormSchema = {
  body: protocolParams({
    ...hosted,
    email: 'string: the email address',
    password: 'string: the password',
    given_name: 'string: the first name',
    family_name: 'string: the last name',
  }),
};
