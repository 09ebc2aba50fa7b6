import { Type } from 'typebox';
import { answer, captchaParams, protocolParams } from '../../protocol-schema.js';

/**
 * The Core SDK's step-up API (JSON or forms). The OAuth parameters pass the checks of /oauth/authorize
 * (protocol/authorize/), the rest protocol/params.ts: the request schemas describe and do not refuse.
 */
export const stepUpSchema = {
  body: protocolParams({
    tkn: 'string: a tkn of the password login (or the SSO cookie, or a Bearer access token when allowed)',
    action:
      'string: what the step-up is for (at most 100 characters): the step_up_action claim of the tokens it leads to',
    client_id: 'string: the client',
    redirect_uri: 'string: a callback of the client',
    response_type: 'string: code',
    scope: 'string: space-separated scopes',
    code_challenge: 'string: PKCE (S256)',
    code_challenge_method: 'string: S256',
    state: 'string: returned with the answer of verify',
    nonce: 'string: put in the id_token',
  }),
  response: {
    200: answer({
      token: Type.String(),
      amr: Type.Array(Type.String()),
      factors: Type.Array(Type.String(), {
        description: 'every factor that answers the step-up: totp, email, sms, recovery_code (amr: email/sms only)',
      }),
    }),
  },
};

export const passwordlessStartSchema = {
  body: protocolParams({
    step_up: 'string: the token of /identity/v1/mfa/stepup (required)',
    auth_type: 'string: email or sms',
    ...captchaParams,
  }),
  response: { 200: answer({ challenge_id: Type.String() }) },
};

/** The authorization response as JSON: code (and state), or the implicit tokens. */
export const passwordlessVerifySchema = {
  body: protocolParams({
    challenge_id: 'string: from passwordless/start (required)',
    verification_code: 'string: the code sent (required)',
    trust_device: 'boolean (or "true"): remember this browser as a trusted device',
  }),
  response: { 200: answer({ code: Type.String(), state: Type.String() }) },
};
