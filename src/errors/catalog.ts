/**
 * Every error Ward can answer, one entry each: HTTP status, OAuth `error` code and `error_message_key`
 * (the Core SDK and UIs read these keys: never change one). Its user message, in every language, is
 * under the same name in src/texts/<lang>/errors.ts; the English one is the default
 * `error_description`. Entries with `redirectable` are errors of /oauth/authorize: true may be
 * redirected to the client's validated redirect_uri, false is only ever shown as a page (the client
 * or the redirect_uri itself is in doubt).
 *
 * A key may serve several entries (a 413 and a malformed body are both `error.invalidRequest`);
 * an entry is one cause. Errors of the authorization request keep `error.invalidRequest`, the key
 * a JSON caller of the same checks (the step-up endpoint) has always received.
 */
export interface CatalogEntry {
  readonly status: number;
  readonly error: string;
  readonly key: string;
  readonly redirectable?: boolean;
}

const entry = (status: number, error: string, key: string, redirectable?: boolean): CatalogEntry =>
  redirectable === undefined ? { status, error, key } : { status, error, key, redirectable };

const INVALID = 'error.invalidRequest';

export const CATALOG = {
  // Transport: what the request looks like, before any route reads it.
  invalidRequest: entry(400, 'invalid_request', INVALID),
  malformedRequest: entry(400, 'invalid_request', INVALID),
  malformedUrl: entry(400, 'invalid_request', INVALID),
  unstorableText: entry(400, 'invalid_request', INVALID),
  payloadTooLarge: entry(413, 'payload_too_large', INVALID),
  unsupportedMediaType: entry(415, 'unsupported_media_type', 'error.unsupportedMediaType'),
  requestHeadersTooLarge: entry(431, 'invalid_request', 'error.requestHeadersTooLarge'),
  requestTimeout: entry(408, 'invalid_request', 'error.requestTimeout'),
  methodNotAllowed: entry(405, 'invalid_request', 'error.methodNotAllowed'),
  notFound: entry(404, 'not_found', 'error.notFound'),
  missingParameter: entry(400, 'invalid_request', 'error.missingParameter'),
  invalidParameter: entry(400, 'invalid_request', 'error.invalidParameter'),

  // The server's side.
  unexpected: entry(500, 'server_error', 'error.unexpected'),
  databaseUnavailable: entry(503, 'server_error', 'error.serviceUnavailable'),
  shuttingDown: entry(503, 'temporarily_unavailable', 'error.serviceUnavailable'),
  rateLimited: entry(429, 'rate_limit_reached', 'error.rateLimitReached'),
  deliveryFailed: entry(503, 'server_error', 'error.delivery.failed'),

  // Clients and tokens (RFC 6749 5.2, RFC 6750 3.1).
  invalidClient: entry(401, 'invalid_client', 'error.invalidClient'),
  unknownClient: entry(400, 'invalid_client', 'error.client.notFound'),
  unknownClientKeys: entry(404, 'invalid_client', 'error.client.notFound'),
  unauthorizedClient: entry(400, 'unauthorized_client', 'error.unauthorizedClient'),
  invalidScope: entry(400, 'invalid_scope', 'error.invalidScope'),
  invalidGrant: entry(400, 'invalid_grant', 'error.invalidGrant'),
  invalidCodeVerifier: entry(400, 'invalid_grant', 'error.invalidCodeVerifier'),
  unsupportedGrantType: entry(400, 'unsupported_grant_type', 'error.unsupportedGrantType'),
  invalidToken: entry(401, 'invalid_token', 'error.invalidToken'),
  forbidden: entry(403, 'access_denied', 'error.forbidden'),
  // DPoP (RFC 9449 5, 7.1, 8, 9): a proof refused, or a server nonce to use, at the token endpoint and
  // at a resource (Ward's own APIs: 401 with a DPoP challenge).
  dpopInvalidProof: entry(400, 'invalid_dpop_proof', 'error.dpop.invalidProof'),
  dpopUseNonce: entry(400, 'use_dpop_nonce', 'error.dpop.useNonce'),
  dpopInvalidProofAtResource: entry(401, 'invalid_dpop_proof', 'error.dpop.invalidProof'),
  dpopUseNonceAtResource: entry(401, 'use_dpop_nonce', 'error.dpop.useNonce'),

  // Client registration (RFC 7591 section 3.2.2, RFC 7592).
  invalidRedirectUri: entry(400, 'invalid_redirect_uri', 'error.registration.invalidRedirectUri'),
  invalidClientMetadata: entry(400, 'invalid_client_metadata', 'error.registration.invalidClientMetadata'),
  invalidSoftwareStatement: entry(400, 'invalid_software_statement', 'error.registration.invalidSoftwareStatement'),
  registrationClosed: entry(403, 'access_denied', 'error.registration.closed'),

  // Logout (OpenID Connect RP-Initiated Logout 1.0): never redirected, the target is in doubt.
  logoutHintInvalid: entry(400, 'invalid_request', INVALID),
  logoutClientMismatch: entry(400, 'invalid_request', INVALID),
  logoutRedirectWithoutClient: entry(400, 'invalid_request', INVALID),
  logoutRedirectUnregistered: entry(400, 'invalid_request', INVALID),
  logoutConfirmationInvalid: entry(403, 'access_denied', 'error.forbidden'),

  // Accounts, sign-in and second factors.
  mfaRequired: entry(400, 'mfa_required', 'error.mfa.required'),
  mfaEnrollmentRequired: entry(400, 'interaction_required', 'error.mfa.enrollmentRequired'),
  resourceServerOnly: entry(400, 'unauthorized_client', 'error.unauthorizedClient'),
  // RFC 8707 2: the resource parameter names no API resource of this server (or is not an absolute URI).
  invalidTarget: entry(400, 'invalid_target', 'error.invalidTarget'),
  // The Device Authorization Grant's polling answers (RFC 8628 3.5).
  authorizationPending: entry(400, 'authorization_pending', 'error.device.authorizationPending'),
  slowDown: entry(400, 'slow_down', 'error.device.slowDown'),
  expiredToken: entry(400, 'expired_token', 'error.device.expiredToken'),
  deviceAccessDenied: entry(400, 'access_denied', 'error.device.accessDenied'),
  invalidEmailOrPassword: entry(400, 'invalid_grant', 'error.invalidEmailOrPassword'),
  signInDelayed: entry(429, 'rate_limit_reached', 'error.signIn.delayed'),
  accountLocked: entry(429, 'rate_limit_reached', 'error.account.locked'),
  invalidOldPassword: entry(400, 'invalid_grant', 'error.invalidOldPassword'),
  emailNotVerified: entry(400, 'invalid_grant', 'error.emailNotVerified'),
  passwordlessDisabled: entry(400, 'invalid_request', 'error.passwordless.disabled'),
  captchaMissing: entry(400, 'invalid_request', 'error.captcha.missing'),
  captchaFailed: entry(400, 'invalid_request', 'error.captcha.failed'),
  captchaUnavailable: entry(503, 'temporarily_unavailable', 'error.captcha.unavailable'),
  // A blocking hook (hooks/): its refusal (the hook's own message key and text replace these), or
  // a hook whose failure policy is closed that timed out, failed or answered badly.
  hookDenied: entry(403, 'access_denied', 'error.hook.denied'),
  hookUnavailable: entry(403, 'access_denied', 'error.hook.unavailable'),
  passwordTooShort: entry(400, 'invalid_request', 'error.password.tooShort'),
  passwordTooWeak: entry(400, 'invalid_request', 'error.password.tooWeak'),
  emailInUse: entry(409, 'email_conflict', 'error.email.alreadyInUse'),
  phoneNumberInUse: entry(409, 'email_conflict', 'error.phoneNumber.alreadyInUse'),
  customIdentifierInUse: entry(409, 'email_conflict', 'error.customIdentifier.alreadyInUse'),
  signInIdentifierNotAllowed: entry(400, 'invalid_request', 'error.signIn.identifierNotAllowed'),
  invalidVerificationCode: entry(400, 'invalid_grant', 'error.invalidVerificationCode'),
  invalidStepUp: entry(400, 'invalid_grant', 'error.mfa.invalidStepUp'),
  noSecondFactor: entry(400, 'invalid_request', 'error.mfa.noCredential'),
  noEmailAddress: entry(400, 'invalid_request', 'error.mfa.noEmail'),
  codesDisabled: entry(403, 'access_denied', 'error.mfa.codesDisabled'),
  stepUpRequired: entry(403, 'access_denied', 'error.mfa.stepUpRequired'),
  crossSiteSignIn: entry(403, 'access_denied', 'error.crossSiteRequest'),
  stepUpOrigin: entry(403, 'access_denied', 'error.stepUp.origin'),
  sessionOrigin: entry(403, 'access_denied', 'error.session.origin'),

  // Passkeys (WebAuthn).
  passkeysDisabled: entry(403, 'access_denied', 'error.webauthn.disabled'),
  passkeyOrigin: entry(400, 'invalid_request', 'error.webauthn.origin'),
  passkeyChallenge: entry(400, 'invalid_grant', 'error.webauthn.invalidChallenge'),
  passkeyNotVerified: entry(400, 'invalid_grant', 'error.webauthn.verificationFailed'),
  passkeyInUse: entry(409, 'conflict', 'error.webauthn.alreadyRegistered'),
  lastSignInMethod: entry(409, 'conflict', 'error.webauthn.lastSignInMethod'),

  // Profiles and linked identities (update-profile, signup data, unlink).
  profileInvalid: entry(400, 'invalid_request', 'error.invalidParameter'),
  // Users' consents to the account's consent definitions (accounts/user-consents.ts).
  consentUnknown: entry(400, 'invalid_request', 'error.consent.unknown'),
  consentArchived: entry(400, 'invalid_request', 'error.consent.archived'),
  consentInvalid: entry(400, 'invalid_request', 'error.consent.invalid'),
  consentRequired: entry(400, 'invalid_request', 'error.consent.required'),
  consentConfirmationInvalid: entry(400, 'invalid_grant', 'error.consent.confirmationInvalid'),
  signupTokenInvalid: entry(404, 'not_found', 'error.signupToken.invalid'),
  identityNotFound: entry(404, 'not_found', 'error.identity.notFound'),
  lastIdentity: entry(409, 'conflict', 'error.identity.lastSignInMethod'),

  // Management API.
  managementForbidden: entry(403, 'access_denied', 'error.management.forbidden'),
  managementExceedsCaller: entry(403, 'access_denied', 'error.management.exceedsCaller'),
  systemClient: entry(403, 'access_denied', 'error.client.system'),
  webhookManagedByConfig: entry(409, 'conflict', 'error.webhook.managedByConfig'),
  customTokenNotAllowed: entry(400, 'invalid_request', 'error.customToken.clientNotAllowed'),
  clientInvalid: entry(400, 'invalid_request', 'error.client.invalid'),
  clientExists: entry(409, 'invalid_request', 'error.client.exists'),
  resourceExists: entry(409, 'invalid_request', 'error.resource.exists'),
  clientHasOwnKeys: entry(409, 'invalid_request', 'error.client.hasOwnKeys'),
  clientIsPublic: entry(409, 'invalid_request', 'error.client.public'),
  clientNotRs256: entry(409, 'invalid_request', 'error.client.notRs256'),
  keyAlreadyRevoked: entry(409, 'invalid_request', 'error.key.alreadyRevoked'),
  ownRole: entry(409, 'invalid_request', 'error.user.ownRole'),
  ownAccountDeletion: entry(409, 'invalid_request', 'error.user.ownAccountDeletion'),
  lastAdministrator: entry(409, 'invalid_request', 'error.user.lastAdministrator'),
  accountDeletionDisabled: entry(403, 'access_denied', 'error.account.deletionDisabled'),
  deletionNotConfirmed: entry(400, 'invalid_request', 'error.account.deletionNotConfirmed'),
  settingsInvalid: entry(400, 'invalid_request', 'error.settings.invalid'),
  socialProviderInvalid: entry(400, 'invalid_request', 'error.socialProvider.invalid'),
  socialProviderExists: entry(409, 'invalid_request', 'error.socialProvider.exists'),

  // /oauth/authorize (RFC 6749 4.1.2.1, OIDC Core 3.1.2.6). Never redirected: the client or its target is in doubt.
  authorizeNotRedirectable: entry(400, 'invalid_request', INVALID, false),
  authorizeUnknownClient: entry(400, 'invalid_client', INVALID, false),
  authorizeResourceServer: entry(400, 'unauthorized_client', INVALID, false),
  authorizeNoMessengerCallback: entry(400, 'unauthorized_client', INVALID, false),
  // Redirected to the validated redirect_uri.
  authorizeInvalidRequest: entry(400, 'invalid_request', INVALID, true),
  authorizeInvalidScope: entry(400, 'invalid_scope', INVALID, true),
  authorizeInvalidTarget: entry(400, 'invalid_target', INVALID, true),
  authorizeUnauthorizedClient: entry(400, 'unauthorized_client', INVALID, true),
  authorizeUnsupportedResponseType: entry(400, 'unsupported_response_type', INVALID, true),
  authorizeRequestNotSupported: entry(400, 'request_not_supported', INVALID, true),
  authorizeRequestUriNotSupported: entry(400, 'request_uri_not_supported', INVALID, true),
  /** A request object (RFC 9101) that does not verify, or whose claims are refused. */
  authorizeInvalidRequestObject: entry(400, 'invalid_request_object', INVALID, true),
  /** A pushed request's request_uri (RFC 9126) that is unknown, used, expired or another client's: an error page. */
  authorizeInvalidRequestUri: entry(400, 'invalid_request_uri', INVALID, false),
  authorizeConsentRequired: entry(400, 'consent_required', INVALID, true),
  authorizeAccountSelectionRequired: entry(400, 'account_selection_required', INVALID, true),
  authorizeAccessDenied: entry(400, 'access_denied', 'error.authorize.accessDenied', true),
  authorizeLoginRequired: entry(400, 'login_required', 'error.authorize.loginRequired', true),
  authorizeInteractionRequired: entry(400, 'interaction_required', 'error.authorize.interactionRequired', true),
  /** Consents to accept again (interaction/reconsent.ts) where no page can be shown. */
  authorizeReconsentRequired: entry(400, 'interaction_required', 'error.authorize.reconsentRequired', true),
  authorizeServerError: entry(400, 'server_error', 'error.authorize.serverError', true),
} as const satisfies Record<string, CatalogEntry>;

export type ErrorName = keyof typeof CATALOG;
