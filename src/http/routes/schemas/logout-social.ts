import { Type } from 'typebox';
import { protocolParams } from '../../protocol-schema.js';

/**
 * GET/POST /identity/v1/logout: RP-Initiated Logout (the OpenID Connect parameters) or the Core SDK's
 * logout (redirect_to, state). Its rules are logout/end-session.ts's: the schema describes, refuses
 * nothing. The answers are redirects, pages or 204.
 */
const logoutParams = protocolParams({
  id_token_hint: 'string: an id_token Ward issued to the client',
  client_id: 'string: the client',
  post_logout_redirect_uri: 'string: a registered post_logout_redirect_uri',
  state: 'string: returned to the post_logout_redirect_uri (or redirect_to)',
  ui_locales: 'string: the language of the confirmation page',
  redirect_to: "string: the Core SDK's destination after logout",
  confirm: 'string: the confirmation page answer',
  confirmation: 'string: the confirmation token of the page',
});
export const logoutQuerySchema = { querystring: logoutParams };
export const logoutBodySchema = { body: logoutParams };

/** The login page's "Continue with ..." buttons (a page or a redirect answers). */
export const socialStartSchema = {
  querystring: protocolParams({
    interaction: 'string: the sign-in in progress (its handle)',
    provider: 'string: the provider name',
  }),
};

const providerParam = Type.Object({ name: Type.String({ description: 'the provider name' }) });

/** The provider's answer, by GET or (form_post) POST: the upstream OAuth parameters, as the provider sends them. */
const callbackParams = protocolParams({
  code: "string: the provider's authorization code",
  state: 'string: the state Ward sent',
  error: "string: the provider's refusal",
  id_token: "string: Apple's form_post",
  user: "string: Apple's first sign-in (JSON)",
  resume: 'string: the one-time handle of a parked form_post answer',
});
export const socialCallbackGetSchema = { params: providerParam, querystring: callbackParams };
export const socialCallbackPostSchema = { params: providerParam, body: callbackParams };

/** The hosted page that links a social identity to an account with a password. */
export const socialLinkSchema = {
  body: protocolParams({
    csrf: 'string: the CSRF token of the page',
    link_token: 'string: the pending link',
    password: "string: the account's password",
    js: 'string: set by the page script',
  }),
};
