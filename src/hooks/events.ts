// The pre-events a blocking hook may be registered for, and the registered claim names a hook may
// never add to a token.

/** The events Ward calls hooks for and waits on. */
export const HOOK_EVENTS = ['before.signup', 'before.login', 'before.token'] as const;
export type HookEvent = (typeof HOOK_EVENTS)[number];

export const isHookEvent = (v: unknown): v is HookEvent => (HOOK_EVENTS as readonly unknown[]).includes(v);

/**
 * Claim names a hook may not set: the JWT registered claims (RFC 7519), those of OpenID Connect
 * (Core 1.0: the ID token's and the standard claims), the other names of the IANA "JSON Web Token
 * Claims" registry Ward or a relying party may read (RFC 7800 cnf, RFC 8693 act/may_act/scope/
 * client_id, RFC 9068, SET events...), and Ward's own (auth_type, custom_fields).
 */
export const REGISTERED_CLAIMS: ReadonlySet<string> = new Set([
  // RFC 7519
  'iss',
  'sub',
  'aud',
  'exp',
  'nbf',
  'iat',
  'jti',
  // OpenID Connect Core: the ID token
  'azp',
  'nonce',
  'auth_time',
  'at_hash',
  'c_hash',
  's_hash',
  'acr',
  'amr',
  'sid',
  'sub_jwk',
  // OpenID Connect Core: the standard claims
  'name',
  'given_name',
  'family_name',
  'middle_name',
  'nickname',
  'preferred_username',
  'profile',
  'picture',
  'website',
  'email',
  'email_verified',
  'gender',
  'birthdate',
  'zoneinfo',
  'locale',
  'phone_number',
  'phone_number_verified',
  'address',
  'updated_at',
  '_claim_names',
  '_claim_sources',
  // The IANA registry's other names
  'cnf',
  'act',
  'may_act',
  'scope',
  'client_id',
  'events',
  'toe',
  'txn',
  'rph',
  'vot',
  'vtm',
  'attest',
  'origid',
  'orig',
  'dest',
  'mky',
  'jcard',
  'at_use_nbr',
  'div',
  'opt',
  'vc',
  'vp',
  'sph',
  'ace_profile',
  'cnonce',
  'exi',
  'roles',
  'groups',
  'entitlements',
  'token_introspection',
  'ueid',
  'sueids',
  'oemid',
  'hwmodel',
  'hwversion',
  'secboot',
  'dbgstat',
  'location',
  'eat_profile',
  'submods',
  'acr_values',
  'authorization_details',
  'htm',
  'htu',
  'ath',
  'typ',
  'kid',
  'alg',
  'crit',
  // Ward's own (gid: the grant of a JWT access token)
  'auth_type',
  'custom_fields',
  'step_up_action',
  'gid',
]);
