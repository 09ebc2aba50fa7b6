import type { Cidr } from '../lib/outbound/ranges.js';
import type { Tuning } from './tuning.js';

/** Ward's whole configuration, after defaults and validation. */
export type JwtAlgorithm = 'RS256' | 'HS256' | 'ES256' | 'EdDSA';
export const JWT_ALGORITHMS: readonly JwtAlgorithm[] = ['RS256', 'HS256', 'ES256', 'EdDSA'];
/**
 * `public` (SPA, native app: no secret), `confidential` (a server with a secret), `resource_server` (an
 * API with a secret that may only introspect tokens: no authorization request, no token grant).
 */
export type ClientType = 'public' | 'confidential' | 'resource_server';
/** Whether a client of this type authenticates with a secret. */
export const hasSecret = (type: ClientType): boolean => type !== 'public';

export interface ClientConfig {
  client_id: string;
  name: string;
  type: ClientType;
  /** Only for confidential clients and resource servers; at least 32 characters. */
  client_secret?: string;
  jwt_algorithm: JwtAlgorithm;
  allowed_callback_urls: string[];
  allowed_origins: string[];
  sso: boolean;
  /** Space-separated default scope the Core SDK adds (remote settings `scope`). */
  scope: string;
  /** Confidential clients may opt out of PKCE; public clients always need S256. */
  pkce_enforced: boolean;
  /** `response_type=token` (implicit); never for public clients. */
  implicit_flow: boolean;
  /**
   * Response types the client may ask for at /oauth/authorize: `code` (the default), and OpenID
   * Connect's `id_token` and `code id_token` (off by default). `token` is governed by implicit_flow.
   */
  response_types: ResponseTypeSetting[];
  /**
   * Where RP-Initiated Logout may send the browser back (`post_logout_redirect_uri`), each compared
   * exactly, like callbacks.
   */
  post_logout_redirect_uris: string[];
  /** Back-Channel Logout: where Ward POSTs a logout_token when a session the client had ends; null: none. */
  backchannel_logout_uri: string | null;
  /** The client needs `sid` in its logout tokens (always sent by Ward; declared for discovery-minded clients). */
  backchannel_logout_session_required: boolean;
  /**
   * Token grants the client may use: authorization_code, refresh_token, client_credentials, and the
   * password grant (opt-in, for the Core SDK's loginWithCredentials and Cordova mode). None for a resource server.
   */
  grant_types: GrantType[];
  /** Management API scopes a client_credentials token of this client may carry. */
  management_scopes: ManagementScope[];
  /**
   * Whether the client accepts custom token sign-in (`GET /identity/v1/custom-token/login`, tokens
   * minted by `POST /api/v1/custom-tokens`); off by default, never with management scopes.
   */
  custom_token_login: boolean;
}

export type ResponseTypeSetting = 'code' | 'id_token' | 'code id_token';
export const RESPONSE_TYPES: readonly ResponseTypeSetting[] = ['code', 'id_token', 'code id_token'];
export type GrantType = 'authorization_code' | 'refresh_token' | 'client_credentials' | 'password';
export const GRANT_TYPES: readonly GrantType[] = [
  'authorization_code',
  'refresh_token',
  'client_credentials',
  'password',
];
export type ManagementScope =
  | 'read:clients'
  | 'manage:clients'
  | 'manage:keys'
  | 'read:settings'
  | 'manage:settings'
  | 'read:users'
  | 'manage:users'
  | 'read:audit'
  | 'manage:roles';
export const MANAGEMENT_SCOPES: readonly ManagementScope[] = [
  'read:clients',
  'manage:clients',
  'manage:keys',
  'read:settings',
  'manage:settings',
  'read:users',
  'manage:users',
  'read:audit',
  'manage:roles',
];

export interface RateLimit {
  /** Requests allowed per window and per client IP; null = no limit. */
  limit: number | null;
  window_seconds: number;
}

export interface AccountSettings {
  mfa_required: 'always' | 'never';
  access_token_ttl: number;
  id_token_ttl: number;
  refresh_token_ttl: number;
  authorization_code_ttl: number;
  tkn_ttl: number;
  session_ttl: number;
  session_idle_ttl: number;
  password_min_length: number;
  /** The least zxcvbn score (0 to 4) a new password must reach; 0: no strength rule. */
  password_min_strength: 0 | 1 | 2 | 3 | 4;
  /** Refuse a password that contains the user's email address (or its local part) or name. */
  password_refuse_user_info: boolean;
  /** Refuse the most common passwords (zxcvbn's list), whatever their score. */
  password_refuse_common: boolean;
  /**
   * The k-anonymity range API of a breached-password corpus, the 5-character hash prefix appended
   * (e.g. `https://api.pwnedpasswords.com/range/`); null: no breach check (the default).
   */
  password_breach_check_url: string | null;
  /** How long the breach check may take; past it the password is accepted (the check never blocks). */
  password_breach_check_timeout_ms: number;
  rate_limits: { login: RateLimit; signup: RateLimit; token: RateLimit; verification: RateLimit };
  /**
   * Per-account protection (NIST SP 800-63B 5.2.2, accounts/sign-in-protection.ts): failed password
   * sign-ins of one identifier, after which each further attempt waits (sign_in_delay_seconds, doubled
   * at each failure) ...
   */
  sign_in_delay_after: number;
  /** The first wait, seconds; it doubles at each further failure, up to sign_in_lock_seconds. */
  sign_in_delay_seconds: number;
  /** ... and after which the identifier's password sign-ins stop for sign_in_lock_seconds (a notice is sent). */
  sign_in_lock_after: number;
  sign_in_lock_seconds: number;
  /** Failures are forgotten this long after the last one (a success forgets them at once). */
  sign_in_failure_memory_seconds: number;
  /** Digits of a verification code (4 to 10). */
  verification_code_length: number;
  /** Lifetime of a verification code, seconds (at most 600). */
  verification_code_ttl: number;
  /** Wrong codes after which a challenge is dead, even for the right code. */
  verification_max_attempts: number;
  /** Codes one step_up token may request (0: none). */
  verification_requests_per_step_up: number;
  /** Codes one user may request per window, all step_up tokens together (limit 0: none). */
  verification_requests_per_user: { limit: number; window_seconds: number };
  /** Wrong codes one user may submit per window across challenges before verify refuses (NIST: at most 100). */
  verification_failures_per_user: { limit: number; window_seconds: number };
  /** Lifetime of a step_up token, seconds. */
  step_up_ttl: number;
  /** Accept a Bearer access token at /identity/v1/mfa/stepup (a last resort). */
  step_up_bearer_allowed: boolean;
  /** Lifetime of a trusted device, seconds. */
  trusted_device_ttl: number;
  /** Passkeys (WebAuthn) under /identity/v1/webauthn. */
  passkeys: PasskeySettings;
  /** Account self-service: email and phone verification, password reset, changes of email and phone. */
  self_service: SelfServiceSettings;
  /** Passwordless first factors (magic link, SMS code) through /identity/v1/passwordless. */
  passwordless: PasswordlessSettings;
  /** The account's custom profile fields (signup, update-profile, the management API). */
  custom_fields: CustomFieldSetting[];
  /** What a first social sign-in must give before Ward creates the user, and where it is completed. */
  social_signup: SocialSignupSettings;
}

/**
 * A new social identity that lacks what the account requires (a verified email when `email_required`,
 * any required custom field) is not created at once: the user completes the profile first, on Ward's
 * page or on the app's own (`completion_url`), with a single-use signup token.
 */
export interface SocialSignupSettings {
  /** A new social user must have an email: one the provider verified, else one typed on the completion page. */
  email_required: boolean;
  /**
   * The app's own completion page (https, or http on loopback), which gets `signup_token=`; used for a
   * sign-in whose client lists it among its allowed_callback_urls, else Ward's page. Null: Ward's page.
   */
  completion_url: string | null;
}

/** Which passwordless first factors the account allows, and whether they create accounts. */
export interface PasswordlessSettings {
  /** A link (and a code) by email. */
  magic_link: boolean;
  /** A code by SMS. */
  sms: boolean;
  /** A first passwordless sign-in of an unknown address creates the account (the address then verified). */
  signup: boolean;
}

/** Codes and links Ward sends to an address for account self-service. */
export interface SelfServiceSettings {
  /** At signup: send nothing, send a verification email, or also refuse sign-in until it is verified. */
  email_verification: 'off' | 'send' | 'required';
  /** Lifetime of a code the user types, seconds (default 15 minutes). */
  code_ttl: number;
  /** Lifetime of a link, seconds (default 1 hour). */
  link_ttl: number;
  /** Wrong codes after which a code is dead, even the right one. */
  max_attempts: number;
  /** Messages per address and purpose per window (verification, reset, change): limit 0 sends none. */
  requests_per_address: { limit: number; window_seconds: number };
}

export const CUSTOM_FIELD_TYPES = ['string', 'number', 'integer', 'boolean', 'date', 'list', 'email', 'phone'] as const;
export type CustomFieldType = (typeof CUSTOM_FIELD_TYPES)[number];

/** One custom field: its name (the key under custom_fields), type, whether required, who may write it. */
export interface CustomFieldSetting {
  name: string;
  data_type: CustomFieldType;
  /** Required at signup (and never cleared by an update); only a field the user may write. */
  required: boolean;
  /** `user`: the user and administrators write it; `admin`: only administrators (the user reads it). */
  writable: 'user' | 'admin';
  /** The allowed values of a `list` field (one of them is stored); absent for the other types. */
  values?: string[];
}

/** The account's passkey (WebAuthn) settings. */
export interface PasskeySettings {
  enabled: boolean;
  /** The relying-party ID passkeys are bound to (a domain); null: the issuer's host. */
  rp_id: string | null;
  /** The relying party's name the browser shows. */
  rp_name: string;
  /** The origins a ceremony may come from (each on rp_id or a subdomain); empty: the issuer's origin. */
  origins: string[];
  /** A passkey sign-in with user verification counts as multi-factor (amr `mfa`). */
  user_verification_is_mfa: boolean;
  /** After account recovery, the new passkey replaces the user's old ones (else it is added to them). */
  recovery_replaces: boolean;
  /** Lifetime of a ceremony's challenge, seconds (30 to 600). */
  challenge_ttl: number;
}

/** How verification codes leave Ward: SMTP for email, a Twilio-compatible HTTP API for SMS. */
export interface DeliveryConfig {
  /** development: with no SMTP / SMS configured, messages (codes included) are written to the log. */
  mode: 'development' | 'production';
  smtpUrl: string | null;
  mailFrom: string;
  smsUrl: string | null;
  smsAccountSid: string | null;
  smsAuthToken: string | null;
  smsFrom: string | null;
  /** A folder of operator templates that replace the account messages (WARD_TEMPLATES_DIR). */
  templatesDir?: string | null;
}

/** An upstream identity provider for social login. */
export interface SocialProviderConfig {
  /** The name used in /oauth/authorize?provider=<name> and the callback path. */
  name: string;
  type: 'oidc' | 'oauth2';
  client_id: string;
  client_secret: string;
  scopes: string[];
  /** oidc: the issuer; discovery is read from <issuer>/.well-known/openid-configuration at first use. */
  issuer?: string;
  /** oauth2 (or an oidc preset without discovery): the endpoints. */
  authorization_url?: string;
  token_url?: string;
  userinfo_url?: string;
  /** oauth2: profile claim names, e.g. {"sub": "id", "email": "email"}. */
  claims?: Record<string, string>;
  /** How the provider returns its answer: `query` (a redirect, the default) or `form_post` (Apple). */
  response_mode?: 'query' | 'form_post';
  /**
   * Apple: the team id and the key id of the team's Sign in with Apple key. With them `client_secret`
   * holds that key (the .p8 PKCS#8 PEM), and Ward sends the provider an ES256 JWT minted from it.
   */
  team_id?: string;
  key_id?: string;
  /**
   * How the token request carries the client secret: `client_secret_basic` (HTTP Basic, the default;
   * with a team key, `client_secret_post`) or `client_secret_post` (client_id and client_secret in the
   * form body: Apple, Facebook).
   */
  token_endpoint_auth_method?: 'client_secret_basic' | 'client_secret_post';
  /** PKCE (S256) on the authorization and token requests; on unless false (Facebook's web flow has none). */
  pkce?: boolean;
  /** Facebook: `appsecret_proof` (hex HMAC-SHA256 of the access token keyed by the secret) on the profile request. */
  appsecret_proof?: boolean;
  /** The label of the login button. */
  label: string;
}

export interface WardConfig {
  port: number;
  host: string;
  issuer: string;
  dataDir: string;
  databaseUrl: string | null;
  tls: boolean;
  tlsCert: string | null;
  tlsKey: string | null;
  /**
   * The proxies whose X-Forwarded-For is believed (WARD_TRUSTED_PROXIES: addresses, CIDRs, or
   * proxy-addr's `loopback` / `linklocal` / `uniquelocal`): the client address is the right-most one of
   * the chain that is not one of them. Empty: the header is ignored, the client is the connecting address.
   */
  trustedProxies: string[];
  /** Refused ranges outbound requests may reach anyway (WARD_OUTBOUND_ALLOW; lib/outbound/). */
  outboundAllow: Cidr[];
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /** Base64 of 32 bytes; when absent, generated once in the data dir. */
  masterKey: string | null;
  admin: { email: string | null; password: string | null };
  /** Create the demo public and confidential clients on first start. */
  demoClients: boolean;
  delivery: DeliveryConfig;
  /** When set, GET /metrics needs `Authorization: Bearer <it>`; when not, only loopback callers get it. */
  metricsToken: string | null;
  /** Graceful shutdown: how long in-flight requests may take to finish after SIGTERM. */
  shutdownTimeoutSeconds: number;
  /** Which speed-ups are on (WARD_TUNING, WARD_TUNING_OFF; config/tuning.ts). */
  tuning: Tuning;
  account: AccountSettings;
  /** The account keys the config file declares: applied over the stored settings at each start. */
  accountPatch: Record<string, unknown> | null;
  clients: ClientConfig[];
  social_providers: SocialProviderConfig[];
}
