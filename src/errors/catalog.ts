/**
 * Every error Ward can answer, one entry each: HTTP status, OAuth `error` code, `error_message_key`
 * (the Core SDK and UIs read these keys: never change one), the English text (the default
 * `error_description`) and the French user message. Entries with `redirectable` are errors of
 * /oauth/authorize: true may be redirected to the client's validated redirect_uri, false is only
 * ever shown as a page (the client or the redirect_uri itself is in doubt).
 *
 * A key may serve several entries (a 413 and a malformed body are both `error.invalidRequest`);
 * an entry is one cause. Errors of the authorization request keep `error.invalidRequest`, the key
 * a JSON caller of the same checks (the step-up endpoint) has always received.
 */
export interface CatalogEntry {
  readonly status: number;
  readonly error: string;
  readonly key: string;
  readonly en: string;
  readonly fr: string;
  readonly redirectable?: boolean;
}

const entry = (
  status: number,
  error: string,
  key: string,
  en: string,
  fr: string,
  redirectable?: boolean,
): CatalogEntry =>
  redirectable === undefined ? { status, error, key, en, fr } : { status, error, key, en, fr, redirectable };

const INVALID = 'error.invalidRequest';
const AUTHORIZE_FR = "La demande d'autorisation est invalide.";

export const CATALOG = {
  // Transport: what the request looks like, before any route reads it.
  invalidRequest: entry(400, 'invalid_request', INVALID, 'The request is invalid', 'La requête est invalide.'),
  malformedRequest: entry(400, 'invalid_request', INVALID, 'The request is malformed', 'La requête est mal formée.'),
  malformedUrl: entry(
    400,
    'invalid_request',
    INVALID,
    'The request URL is malformed',
    "L'URL de la requête est mal formée.",
  ),
  unstorableText: entry(
    400,
    'invalid_request',
    INVALID,
    'The request contains characters that cannot be stored (such as NUL)',
    'La requête contient des caractères qui ne peuvent pas être enregistrés (comme NUL).',
  ),
  payloadTooLarge: entry(
    413,
    'payload_too_large',
    INVALID,
    'The request body is too large',
    'Le corps de la requête est trop grand.',
  ),
  unsupportedMediaType: entry(
    415,
    'unsupported_media_type',
    'error.unsupportedMediaType',
    'Unsupported Content-Type: send application/json or application/x-www-form-urlencoded',
    'Type de contenu non pris en charge : envoyez application/json ou application/x-www-form-urlencoded.',
  ),
  requestHeadersTooLarge: entry(
    431,
    'invalid_request',
    'error.requestHeadersTooLarge',
    'The request headers are too large',
    'Les en-têtes de la requête sont trop grands.',
  ),
  requestTimeout: entry(
    408,
    'invalid_request',
    'error.requestTimeout',
    'The request took too long to arrive',
    'La requête a mis trop de temps à arriver.',
  ),
  methodNotAllowed: entry(405, 'invalid_request', 'error.methodNotAllowed', 'Use POST', 'Utilisez POST.'),
  notFound: entry(404, 'not_found', 'error.notFound', 'Not found', 'Introuvable.'),
  missingParameter: entry(
    400,
    'invalid_request',
    'error.missingParameter',
    'A required parameter is missing',
    'Un paramètre obligatoire manque.',
  ),
  invalidParameter: entry(
    400,
    'invalid_request',
    'error.invalidParameter',
    'A parameter is invalid',
    "Un paramètre n'est pas valide.",
  ),

  // The server's side.
  unexpected: entry(
    500,
    'server_error',
    'error.unexpected',
    'An unexpected error occurred',
    "Une erreur inattendue s'est produite.",
  ),
  databaseUnavailable: entry(
    503,
    'server_error',
    'error.serviceUnavailable',
    'The service is temporarily unavailable; try again in a moment',
    'Le service est momentanément indisponible ; réessayez dans un instant.',
  ),
  shuttingDown: entry(
    503,
    'temporarily_unavailable',
    'error.serviceUnavailable',
    'The server is shutting down; send the request again',
    "Le serveur s'arrête ; renvoyez la requête.",
  ),
  rateLimited: entry(
    429,
    'rate_limit_reached',
    'error.rateLimitReached',
    'Too many requests, retry later',
    'Trop de requêtes, réessayez plus tard.',
  ),
  deliveryFailed: entry(
    503,
    'server_error',
    'error.delivery.failed',
    'The message could not be sent; try again later',
    "Le message n'a pas pu être envoyé ; réessayez plus tard.",
  ),

  // Clients and tokens (RFC 6749 5.2, RFC 6750 3.1).
  invalidClient: entry(
    401,
    'invalid_client',
    'error.invalidClient',
    'Client authentication failed',
    "L'authentification du client a échoué.",
  ),
  unknownClient: entry(400, 'invalid_client', 'error.client.notFound', 'Unknown client_id', 'Application inconnue.'),
  unknownClientKeys: entry(
    404,
    'invalid_client',
    'error.client.notFound',
    'Unknown client_id',
    'Application inconnue.',
  ),
  unauthorizedClient: entry(
    400,
    'unauthorized_client',
    'error.unauthorizedClient',
    'This client may not do this',
    "Cette application n'y est pas autorisée.",
  ),
  invalidScope: entry(
    400,
    'invalid_scope',
    'error.invalidScope',
    'The scope is invalid',
    "La portée demandée n'est pas valide.",
  ),
  invalidGrant: entry(
    400,
    'invalid_grant',
    'error.invalidGrant',
    'The grant is invalid',
    "L'autorisation n'est pas valide.",
  ),
  invalidCodeVerifier: entry(
    400,
    'invalid_grant',
    'error.invalidCodeVerifier',
    'PKCE verification failed',
    'La vérification PKCE a échoué.',
  ),
  unsupportedGrantType: entry(
    400,
    'unsupported_grant_type',
    'error.unsupportedGrantType',
    'This grant_type is not supported',
    "Ce type d'autorisation n'est pas pris en charge.",
  ),
  invalidToken: entry(
    401,
    'invalid_token',
    'error.invalidToken',
    'The access token is missing, invalid, expired or revoked',
    "Le jeton d'accès est absent, invalide, expiré ou révoqué.",
  ),
  forbidden: entry(403, 'access_denied', 'error.forbidden', 'Forbidden', 'Accès refusé.'),

  // Logout (OpenID Connect RP-Initiated Logout 1.0): never redirected, the target is in doubt.
  logoutHintInvalid: entry(
    400,
    'invalid_request',
    INVALID,
    'The id_token_hint is not an ID token Ward issued to this client',
    "L'id_token_hint n'est pas un jeton d'identité émis par Ward pour cette application.",
  ),
  logoutClientMismatch: entry(
    400,
    'invalid_request',
    INVALID,
    'The client_id is not the audience of the id_token_hint',
    "Le client_id n'est pas le destinataire de l'id_token_hint.",
  ),
  logoutRedirectWithoutClient: entry(
    400,
    'invalid_request',
    INVALID,
    'A post_logout_redirect_uri needs a client_id or an id_token_hint',
    'Une post_logout_redirect_uri demande un client_id ou un id_token_hint.',
  ),
  logoutRedirectUnregistered: entry(
    400,
    'invalid_request',
    INVALID,
    'The post_logout_redirect_uri is not registered for this client',
    "La post_logout_redirect_uri n'est pas enregistrée pour cette application.",
  ),
  logoutConfirmationInvalid: entry(
    403,
    'access_denied',
    'error.forbidden',
    'The sign-out confirmation is not valid for this session',
    "La confirmation de déconnexion n'est pas valable pour cette session.",
  ),

  // Accounts, sign-in and second factors.
  mfaRequired: entry(
    400,
    'mfa_required',
    'error.mfa.required',
    'This account requires a second factor: sign in through the authorization endpoint',
    'Ce compte exige un second facteur : connectez-vous par la page de connexion.',
  ),
  resourceServerOnly: entry(
    400,
    'unauthorized_client',
    'error.unauthorizedClient',
    'A resource server may only introspect tokens',
    'Un serveur de ressources peut seulement inspecter des jetons.',
  ),
  invalidEmailOrPassword: entry(
    400,
    'invalid_grant',
    'error.invalidEmailOrPassword',
    'Invalid email or password',
    'Adresse e-mail ou mot de passe incorrect.',
  ),
  signInDelayed: entry(
    429,
    'rate_limit_reached',
    'error.signIn.delayed',
    'Too many failed sign-in attempts for this account; wait before trying again',
    'Trop de tentatives de connexion échouées pour ce compte ; patientez avant de réessayer.',
  ),
  accountLocked: entry(
    429,
    'rate_limit_reached',
    'error.account.locked',
    'Password sign-in to this account is paused after too many failed attempts; try again later or reset the password',
    'La connexion par mot de passe à ce compte est suspendue après trop de tentatives échouées ; réessayez plus ' +
      'tard ou réinitialisez le mot de passe.',
  ),
  invalidOldPassword: entry(
    400,
    'invalid_grant',
    'error.invalidOldPassword',
    'The current password is wrong',
    'Le mot de passe actuel est incorrect.',
  ),
  emailNotVerified: entry(
    400,
    'invalid_grant',
    'error.emailNotVerified',
    'Confirm your email address before signing in: open the link we sent you',
    'Confirmez votre adresse e-mail avant de vous connecter : ouvrez le lien que nous vous avons envoyé.',
  ),
  passwordlessDisabled: entry(
    400,
    'invalid_request',
    'error.passwordless.disabled',
    'This passwordless sign-in method is not enabled',
    "Cette méthode de connexion sans mot de passe n'est pas activée.",
  ),
  passwordTooShort: entry(
    400,
    'invalid_request',
    'error.password.tooShort',
    'The password is too short or too long',
    'Le mot de passe est trop court ou trop long.',
  ),
  passwordTooWeak: entry(
    400,
    'invalid_request',
    'error.password.tooWeak',
    'The password does not meet the password policy',
    'Le mot de passe ne respecte pas la politique de mots de passe.',
  ),
  emailInUse: entry(
    409,
    'email_conflict',
    'error.email.alreadyInUse',
    'An account already exists with this identifier',
    'Un compte existe déjà avec cet identifiant.',
  ),
  phoneNumberInUse: entry(
    409,
    'email_conflict',
    'error.phoneNumber.alreadyInUse',
    'An account already exists with this identifier',
    'Un compte existe déjà avec cet identifiant.',
  ),
  invalidVerificationCode: entry(
    400,
    'invalid_grant',
    'error.invalidVerificationCode',
    'The verification code is wrong, expired or already used',
    'Le code de vérification est faux, expiré ou déjà utilisé.',
  ),
  invalidStepUp: entry(
    400,
    'invalid_grant',
    'error.mfa.invalidStepUp',
    'The step_up token is invalid, expired or already used',
    "La vérification en deux étapes n'est plus valide ; recommencez.",
  ),
  noSecondFactor: entry(
    400,
    'invalid_request',
    'error.mfa.noCredential',
    'This user has no verified second factor to step up with',
    "Ce compte n'a pas de second facteur vérifié.",
  ),
  noEmailAddress: entry(
    400,
    'invalid_request',
    'error.mfa.noEmail',
    'This account has no email address',
    "Ce compte n'a pas d'adresse e-mail.",
  ),
  codesDisabled: entry(
    403,
    'access_denied',
    'error.mfa.codesDisabled',
    'Verification codes are disabled by the account settings',
    'Les codes de vérification sont désactivés.',
  ),
  stepUpRequired: entry(
    403,
    'access_denied',
    'error.mfa.stepUpRequired',
    'This change needs a step-up: an access token from a verified second factor, less than 5 minutes old',
    'Cette modification demande une vérification en deux étapes de moins de 5 minutes.',
  ),
  crossSiteSignIn: entry(
    403,
    'access_denied',
    'error.crossSiteRequest',
    'A browser may call this sign-in API only with a JSON body, from an allowed origin of the client',
    "Un navigateur ne peut appeler cette connexion qu'en JSON, depuis une origine autorisée de l'application.",
  ),
  stepUpOrigin: entry(
    403,
    'access_denied',
    'error.stepUp.origin',
    'The session cookie is accepted only from an allowed origin of the client',
    "Le cookie de session n'est accepté que depuis une origine autorisée de l'application.",
  ),
  sessionOrigin: entry(
    403,
    'access_denied',
    'error.session.origin',
    'The session is told only to an allowed origin of the client named (client_id)',
    "La session n'est communiquée qu'aux origines autorisées de l'application indiquée.",
  ),

  // Passkeys (WebAuthn).
  passkeysDisabled: entry(
    403,
    'access_denied',
    'error.webauthn.disabled',
    'Passkeys are not enabled for this account',
    "Les clés d'accès ne sont pas activées pour ce compte.",
  ),
  passkeyOrigin: entry(
    400,
    'invalid_request',
    'error.webauthn.origin',
    'This origin may not use passkeys here',
    "Cette origine ne peut pas utiliser de clé d'accès ici.",
  ),
  passkeyChallenge: entry(
    400,
    'invalid_grant',
    'error.webauthn.invalidChallenge',
    'The passkey challenge is unknown, expired or already used',
    "La demande de clé d'accès est inconnue, expirée ou déjà utilisée ; recommencez.",
  ),
  passkeyNotVerified: entry(
    400,
    'invalid_grant',
    'error.webauthn.verificationFailed',
    'The passkey could not be verified',
    "La clé d'accès n'a pas pu être vérifiée.",
  ),
  passkeyInUse: entry(
    409,
    'conflict',
    'error.webauthn.alreadyRegistered',
    'This passkey is already registered',
    "Cette clé d'accès est déjà enregistrée.",
  ),
  lastSignInMethod: entry(
    409,
    'conflict',
    'error.webauthn.lastSignInMethod',
    'This is the last way to sign in to this account: add a password or another passkey first',
    "C'est le dernier moyen de se connecter à ce compte : ajoutez d'abord un mot de passe ou une autre clé d'accès.",
  ),

  // Profiles and linked identities (update-profile, signup data, unlink).
  profileInvalid: entry(
    400,
    'invalid_request',
    'error.invalidParameter',
    'Some profile fields are unknown, invalid or missing',
    'Certains champs du profil sont inconnus, invalides ou manquants.',
  ),
  signupTokenInvalid: entry(
    404,
    'not_found',
    'error.signupToken.invalid',
    'The signup token is unknown, expired, already used or for another client',
    "Ce jeton d'inscription est inconnu, expiré, déjà utilisé ou destiné à une autre application.",
  ),
  identityNotFound: entry(
    404,
    'not_found',
    'error.identity.notFound',
    'No such linked account for this user',
    "Ce compte lié n'existe pas pour cet utilisateur.",
  ),
  lastIdentity: entry(
    409,
    'conflict',
    'error.identity.lastSignInMethod',
    'This linked account is the last way to sign in: set a password or link another account first',
    "Ce compte lié est le dernier moyen de se connecter : définissez d'abord un mot de passe ou liez un autre compte.",
  ),

  // Management API.
  managementForbidden: entry(
    403,
    'access_denied',
    'error.management.forbidden',
    'This operation needs a permission this caller does not have',
    "Cette opération demande une permission que vous n'avez pas.",
  ),
  managementExceedsCaller: entry(
    403,
    'access_denied',
    'error.management.exceedsCaller',
    'This would give or change permissions this caller does not hold',
    "Cette opération donnerait ou modifierait des permissions que vous n'avez pas.",
  ),
  systemClient: entry(
    403,
    'access_denied',
    'error.client.system',
    'This client is part of Ward: it cannot be changed, deleted or given a new secret through the API',
    "Cette application fait partie de Ward : elle ne peut être ni modifiée, ni supprimée, ni changer de secret par l'API.",
  ),
  customTokenNotAllowed: entry(
    400,
    'invalid_request',
    'error.customToken.clientNotAllowed',
    'This client does not accept custom token sign-in (custom_token_login)',
    "Cette application n'accepte pas la connexion par jeton personnalisé.",
  ),
  clientInvalid: entry(
    400,
    'invalid_request',
    'error.client.invalid',
    'The client is invalid',
    "L'application n'est pas valide.",
  ),
  clientExists: entry(
    409,
    'invalid_request',
    'error.client.exists',
    'This client already exists',
    'Cette application existe déjà.',
  ),
  clientHasOwnKeys: entry(
    409,
    'invalid_request',
    'error.client.hasOwnKeys',
    'Sync this client with the global key pair before changing its JWT algorithm',
    "Réalignez cette application sur la paire de clés globale avant de changer d'algorithme JWT.",
  ),
  clientIsPublic: entry(
    409,
    'invalid_request',
    'error.client.public',
    'A public client has no secret',
    "Une application publique n'a pas de secret.",
  ),
  clientNotRs256: entry(
    409,
    'invalid_request',
    'error.client.notRs256',
    'This client signs with HS256: choose RS256, ES256 or EdDSA as its JWT algorithm first',
    "Cette application signe en HS256 : choisissez d'abord RS256, ES256 ou EdDSA.",
  ),
  keyAlreadyRevoked: entry(
    409,
    'invalid_request',
    'error.key.alreadyRevoked',
    'This key is already revoked',
    'Cette clé est déjà révoquée.',
  ),
  ownRole: entry(
    409,
    'invalid_request',
    'error.user.ownRole',
    'An administrator cannot remove their own role',
    'Un administrateur ne peut pas retirer son propre rôle.',
  ),
  ownAccountDeletion: entry(
    409,
    'invalid_request',
    'error.user.ownAccountDeletion',
    'An administrator cannot delete their own account from the management API',
    "Un administrateur ne peut pas supprimer son propre compte depuis l'API de gestion.",
  ),
  lastAdministrator: entry(
    409,
    'invalid_request',
    'error.user.lastAdministrator',
    'The last administrator cannot be deleted',
    'Le dernier administrateur ne peut pas être supprimé.',
  ),
  settingsInvalid: entry(
    400,
    'invalid_request',
    'error.settings.invalid',
    'The settings are invalid',
    'Les réglages ne sont pas valides.',
  ),
  socialProviderInvalid: entry(
    400,
    'invalid_request',
    'error.socialProvider.invalid',
    'The social provider is invalid',
    "Le fournisseur d'identité n'est pas valide.",
  ),
  socialProviderExists: entry(
    409,
    'invalid_request',
    'error.socialProvider.exists',
    'This social provider already exists',
    "Ce fournisseur d'identité existe déjà.",
  ),

  // /oauth/authorize (RFC 6749 4.1.2.1, OIDC Core 3.1.2.6). Never redirected: the client or its target is in doubt.
  authorizeNotRedirectable: entry(
    400,
    'invalid_request',
    INVALID,
    'The client or its redirect_uri is in doubt',
    AUTHORIZE_FR,
    false,
  ),
  authorizeUnknownClient: entry(400, 'invalid_client', INVALID, 'Unknown client_id', 'Application inconnue.', false),
  authorizeResourceServer: entry(
    400,
    'unauthorized_client',
    INVALID,
    'A resource server may only introspect tokens: it cannot sign users in',
    'Un serveur de ressources peut seulement inspecter des jetons : il ne connecte personne.',
    false,
  ),
  authorizeNoMessengerCallback: entry(
    400,
    'unauthorized_client',
    INVALID,
    'This client has not registered the Messenger callback',
    "Cette application n'a pas enregistré l'adresse de retour Messenger.",
    false,
  ),
  // Redirected to the validated redirect_uri.
  authorizeInvalidRequest: entry(
    400,
    'invalid_request',
    INVALID,
    'The authorization request is invalid',
    AUTHORIZE_FR,
    true,
  ),
  authorizeInvalidScope: entry(
    400,
    'invalid_scope',
    INVALID,
    'The scope is invalid',
    "La portée demandée n'est pas valide.",
    true,
  ),
  authorizeUnauthorizedClient: entry(
    400,
    'unauthorized_client',
    INVALID,
    'This client may not use this response_type',
    "Cette application n'y est pas autorisée.",
    true,
  ),
  authorizeUnsupportedResponseType: entry(
    400,
    'unsupported_response_type',
    INVALID,
    'response_type must be code, token or messenger_code',
    "Ce type de réponse n'est pas pris en charge.",
    true,
  ),
  authorizeRequestNotSupported: entry(
    400,
    'request_not_supported',
    INVALID,
    'The request parameter (a request object) is not supported',
    "Le paramètre request n'est pas pris en charge.",
    true,
  ),
  authorizeRequestUriNotSupported: entry(
    400,
    'request_uri_not_supported',
    INVALID,
    'The request_uri parameter is not supported',
    "Le paramètre request_uri n'est pas pris en charge.",
    true,
  ),
  authorizeConsentRequired: entry(
    400,
    'consent_required',
    INVALID,
    'prompt=consent is not supported (no such screen)',
    "Ce serveur n'a pas d'écran de consentement.",
    true,
  ),
  authorizeAccountSelectionRequired: entry(
    400,
    'account_selection_required',
    INVALID,
    'prompt=select_account is not supported (no such screen)',
    "Ce serveur n'a pas d'écran de choix de compte.",
    true,
  ),
  authorizeAccessDenied: entry(
    400,
    'access_denied',
    'error.authorize.accessDenied',
    'The access was denied',
    "L'accès a été refusé.",
    true,
  ),
  authorizeLoginRequired: entry(
    400,
    'login_required',
    'error.authorize.loginRequired',
    'The user is not signed in',
    "Vous n'êtes pas connecté.",
    true,
  ),
  authorizeInteractionRequired: entry(
    400,
    'interaction_required',
    'error.authorize.interactionRequired',
    'The user must confirm',
    'Une confirmation est nécessaire.',
    true,
  ),
  authorizeServerError: entry(
    400,
    'server_error',
    'error.authorize.serverError',
    'The identity provider cannot be reached',
    "Le fournisseur d'identité est injoignable.",
    true,
  ),
} as const satisfies Record<string, CatalogEntry>;

export type ErrorName = keyof typeof CATALOG;
