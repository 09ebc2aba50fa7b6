import type { ColumnType } from 'kysely';
/** Table shapes as Kysely sees them. Times are epoch milliseconds; booleans are 0/1 on both engines. */
export interface UsersTable {
  id: string;
  email: string | null;
  phone_number: string | null;
  password_hash: string | null;
  given_name: string | null;
  family_name: string | null;
  email_verified: number;
  phone_number_verified: number;
  role: string | null;
  disabled: number;
  created_at: number;
  updated_at: number;
}

/** Profile claims beyond the names, and custom fields (migration 014); address and custom_fields are JSON. */
export interface UserProfilesTable {
  user_id: string;
  middle_name: string | null;
  nickname: string | null;
  birthdate: string | null;
  gender: string | null;
  locale: string | null;
  picture: string | null;
  website: string | null;
  zoneinfo: string | null;
  address: string | null;
  custom_fields: string;
  updated_at: number;
  /** JSON array of ReachFive postal addresses (044). */
  addresses: string | null;
  company: string | null;
  bio: string | null;
  /** 1: a lite profile (no credentials). */
  lite_only: number | null;
  /** The full name, the profile URL and the username (048). */
  name: string | null;
  profile_url: string | null;
  username: string | null;
}

export interface ClientsTable {
  client_id: string;
  name: string;
  type: string;
  secret_sealed: string | null;
  secret_digest: string | null;
  jwt_algorithm: string;
  allowed_callback_urls: string;
  allowed_origins: string;
  sso: number;
  scope: string;
  pkce_enforced: number;
  implicit_flow: number;
  /** JSON list of the response types the client may use (migration 009). */
  response_types: string;
  /** JSON list of the exact URLs RP-Initiated Logout may return to (migration 010). */
  post_logout_redirect_uris: string;
  /** Where Back-Channel Logout posts the logout_token, or null (migration 010). */
  backchannel_logout_uri: string | null;
  backchannel_logout_session_required: number;
  key_mode: string;
  source: string;
  grant_types: string;
  management_scopes: string;
  /** 1: the client accepts custom token sign-in (migration 016). */
  custom_token_login: number;
  /** Its client_credentials access tokens issued before this time (ms) are refused (migration 016). */
  tokens_not_before: number;
  /** 0: a third-party client, which asks its users' consent (migration 020). */
  first_party: number;
  /** What its consent page shows of it, or null (migration 020). */
  logo_uri: string | null;
  client_uri: string | null;
  policy_uri: string | null;
  tos_uri: string | null;
  created_at: number;
  updated_at: number;
  /** How it authenticates at the token endpoint (migration 038); null: a secret, Basic or in the body. */
  token_endpoint_auth_method: string | null;
  /** Its public keys as a JWK Set, JSON (migration 038); null: none. */
  jwks: string | null;
  /** Where its public keys are fetched (migration 038); null: none. */
  jwks_uri: string | null;
  /** 1: the client's authorization requests must be pushed (RFC 9126, migration 038). */
  require_pushed_authorization_requests: number;
  /** The one algorithm its request objects may be signed with (migration 046); null: any Ward takes. */
  request_object_signing_alg: string | null;
  /** 1: its authorization requests come in a signed request object (RFC 9101, migration 046). */
  require_signed_request_object: number;
  /** 1: its token requests carry a DPoP proof (RFC 9449 5.2, migration 046). */
  dpop_bound_access_tokens: number;
  /** JSON: API resource identifier -> the scopes a client_credentials token may carry (migration 046). */
  client_credentials_resources: string | null;
}

export interface SigningKeysTable {
  kid: string;
  key_set: string;
  alg: string;
  status: string;
  public_jwk: string;
  private_sealed: string;
  cert_der: string;
  created_at: number;
  retired_at: number | null;
  revoked_at: number | null;
}

export interface SessionsTable {
  id_digest: string;
  user_id: string;
  auth_time: number;
  amr: string;
  created_at: number;
  last_seen_at: number;
  expires_at: number;
  revoked_at: number | null;
  /** The User-Agent the session signed in with (migration 024; null before it). */
  user_agent: string | null;
  /** The address the session signed in from (migration 041; null before it). */
  ip: string | null;
}

export interface AuthorizationCodesTable {
  code_digest: string;
  client_id: string;
  user_id: string;
  session_id: string | null;
  redirect_uri: string | null;
  scope: string;
  nonce: string | null;
  code_challenge: string | null;
  auth_time: number;
  amr: string;
  grant_id: string;
  expires_at: number;
  consumed_at: number | null;
  created_at: number;
  /** The API resource (RFC 8707) the code was asked for; null: none (migration 025). */
  resource: string | null;
  /** The action of the step-up that signed this in (migration 034); null: none. */
  step_up_action: string | null;
}

export interface OneTimeTokensTable {
  digest: string;
  kind: string;
  user_id: string;
  client_id: string;
  payload: string;
  expires_at: number;
  consumed_at: number | null;
  created_at: number;
}

export interface PasskeysTable {
  id: string;
  user_id: string;
  /** The credential ID, base64url. */
  credential_id: string;
  /** The COSE public key, base64url. */
  public_key: string;
  counter: number;
  /** JSON array of the authenticator's transports. */
  transports: string;
  backed_up: number;
  /** `singleDevice` or `multiDevice` (backup eligible). */
  device_type: string;
  friendly_name: string;
  aaguid: string | null;
  created_at: number;
  last_used_at: number | null;
  /** 1: registered as a second factor (the required enrolment page, 045); 0: a passkey. */
  second_factor: ColumnType<number, number | undefined, number>;
}

export interface GrantsTable {
  id: string;
  user_id: string | null;
  client_id: string;
  session_id: string | null;
  scope: string;
  auth_time: number | null;
  amr: string;
  created_at: number;
  expires_at: number;
  revoked_at: number | null;
  /** The API resource (RFC 8707) the grant's access tokens are for; null: none (migration 025). */
  resource: string | null;
  /** The action of the step-up that signed this grant in (migration 033); null: none. */
  step_up_action: string | null;
  /**
   * The JWK thumbprint of the DPoP key its refresh tokens are bound to (migration 039); null: none.
   * Never written on insert (GrantRow leaves it out): a grant is bound when its first refresh token is issued.
   */
  dpop_jkt: string | null;
}

/** Access tokens revoked one by one (RFC 7009); the tokens themselves are sealed, not stored. */
export interface RevokedAccessTokensTable {
  jti: string;
  expires_at: number;
}

export interface RefreshTokensTable {
  digest: string;
  grant_id: string;
  client_id: string;
  user_id: string;
  scope: string;
  created_at: number;
  consumed_at: number | null;
}

export interface RateCountersTable {
  bucket: string;
  window_start: number;
  count: number;
  expires_at: number;
}

export interface SettingsTable {
  key: string;
  value: string;
  updated_at: number;
}

export interface AuditEventsTable {
  id: string;
  at: number;
  actor_type: string;
  actor_id: string;
  action: string;
  target: string | null;
  ip: string | null;
  outcome: string;
  details: string;
}

export interface VersionsTable {
  area: string;
  version: number;
}

export interface MfaCredentialsTable {
  id: string;
  user_id: string;
  type: string;
  destination: string;
  friendly_name: string | null;
  verified_at: number | null;
  created_at: number;
}

/** The sealed secret of a TOTP factor (an `mfa_credentials` row of type `totp`) and its last accepted step. */
export interface MfaTotpSecretsTable {
  credential_id: string;
  user_id: string;
  secret_sealed: string;
  last_step: number | null;
  created_at: number;
}

/** A recovery code, as its SHA-256 only; used once. */
export interface MfaRecoveryCodesTable {
  id: string;
  user_id: string;
  code_hash: string;
  created_at: number;
  used_at: number | null;
}

/** A user's skips of a required second-factor enrolment (migration 036). */
export interface MfaEnrolmentSkipsTable {
  user_id: string;
  skips: number;
  last_skipped_at: number;
}

/** The kind of second factor a user answered with last (migration 035). */
export interface MfaLastFactorsTable {
  user_id: string;
  kind: string;
  used_at: number;
}

export interface StepUpsTable {
  digest: string;
  user_id: string;
  client_id: string;
  params: string;
  base_amr: string;
  /** The interaction the step-up continues (interactions.digest). */
  interaction_digest: string | null;
  requests: number;
  created_at: number;
  expires_at: number;
  consumed_at: number | null;
}

export interface ChallengesTable {
  id: string;
  user_id: string;
  purpose: string;
  step_up_digest: string | null;
  credential_id: string | null;
  channel: string;
  destination: string;
  code_hmac: string;
  attempts: number;
  max_attempts: number;
  created_at: number;
  expires_at: number;
  consumed_at: number | null;
  superseded_at: number | null;
}

export interface TrustedDevicesTable {
  id: string;
  user_id: string;
  digest: string;
  name: string | null;
  created_at: number;
  expires_at: number;
  revoked_at: number | null;
}

/** The id a user had in the system they were imported from (migration 018). */
export interface UserExternalIdsTable {
  external_id: string;
  user_id: string;
  created_at: number;
}

/** A user's custom identifier, normalised (migration 040). */
export interface UserCustomIdentifiersTable {
  custom_identifier: string;
  user_id: string;
  created_at: number;
}

/** A user's consent to one of the account's consent definitions (migration 042); booleans are 0/1. */
export interface UserConsentsTable {
  user_id: string;
  consent_key: string;
  granted: number;
  waiting_double_accept: number;
  consent_type: string;
  version_id: number;
  language: string;
  /** end_user, managed (an administrator) or import. */
  reporter: string;
  updated_at: number;
}

/** Every change of a user's consent (migration 043). */
export interface UserConsentHistoryTable {
  id: string;
  user_id: string;
  consent_key: string;
  granted: number;
  waiting_double_accept: number;
  consent_type: string;
  version_id: number;
  language: string;
  reporter: string;
  at: number;
}

/** A user's own deletion waiting for its grace period (migration 023). */
export interface UserImportJobsTable {
  id: string;
  /** running, done or failed. */
  status: string;
  mode: string;
  format: string;
  /** Who started it (actor type and id). */
  actor: string;
  lines: number;
  created: number;
  updated: number;
  skipped: number;
  refused: number;
  weak_hashes: number;
  lines_kept: number;
  error_code: string | null;
  error_message: string | null;
  created_at: number;
  /** Last progress written by the process running the job: a stale one means that process stopped. */
  heartbeat_at: number;
  finished_at: number | null;
}

export interface UserImportJobLinesTable {
  job_id: string;
  line: number;
  status: string;
  code: string | null;
  message: string | null;
  user_id: string | null;
  weak_hash: number;
}

export interface AccountDeletionsTable {
  user_id: string;
  requested_at: number;
  due_at: number;
}

export interface IdentitiesTable {
  id: string;
  user_id: string;
  provider: string;
  subject: string;
  email: string | null;
  created_at: number;
}

export interface SocialProvidersTable {
  name: string;
  definition: string;
  secret_sealed: string;
  source: string;
  created_at: number;
  updated_at: number;
}

/** A sign-in in progress (interaction/): the validated request, stored once, continued by id. */
export interface InteractionsTable {
  digest: string;
  client_id: string;
  /** The validated authorization request as JSON (interaction/stored-request.ts). */
  request: string;
  /** SHA-256 of the cookie that binds it to one browser; null for an API step-up. */
  browser: string | null;
  step: string;
  user_id: string | null;
  amr: string | null;
  auth_time: number | null;
  created_at: number;
  expires_at: number;
}

/** A logout_token still to be POSTed to a client's backchannel_logout_uri (migration 010). */
export interface LogoutDeliveriesTable {
  id: string;
  client_id: string;
  user_id: string;
  /** The ended session's `sid` (accounts/sessions.ts sidOf), never its digest. */
  sid: string;
  attempts: number;
  /** When the next attempt is due; a claimed row is moved past its lease so no other process takes it. */
  next_attempt_at: number;
  last_error: string | null;
  created_at: number;
}

/** Failed password sign-ins of one identifier (migration 015; accounts/sign-in-protection.ts). */
export interface SignInFailuresTable {
  /** SHA-256 (hex) of the normalized identifier, whether or not an account has it. */
  key: string;
  failures: number;
  /** When the next attempt is allowed (the delay, or the end of the lockout). */
  blocked_until: number;
  /** When the current lockout began, or null. */
  locked_at: number | null;
  last_failure_at: number;
  expires_at: number;
}

/** A code and link sent to an address (migration 013): verification, password reset, contact change. */
export interface AccountCodesTable {
  id: string;
  purpose: string;
  /** Null only for a passwordless sign-in of an address without an account yet. */
  user_id: string | null;
  channel: string;
  /** The normalized email address or E.164 number the message went to. */
  destination: string;
  /** HMAC of the code, keyed by the master key and bound to the row id. */
  code_hmac: string;
  /** SHA-256 of the link token, or null when the message carried no link (SMS). */
  link_digest: string | null;
  client_id: string | null;
  /** JSON of the flow's own values (where to return after, the new address of a change). */
  data: string;
  attempts: number;
  max_attempts: number;
  created_at: number;
  code_expires_at: number;
  link_expires_at: number;
  consumed_at: number | null;
  superseded_at: number | null;
}

/** An API resource (migration 025): an audience access tokens can be issued for (RFC 8707, RFC 9068). */
export interface ApiResourcesTable {
  id: string;
  /** The absolute URI clients name in the resource parameter; the tokens' aud. */
  identifier: string;
  name: string;
  /** JSON list of the scopes the API defines. */
  scopes: string;
  token_format: 'jwt' | 'opaque';
  /** Seconds; null: the account's access_token_ttl. */
  access_token_ttl: number | null;
  created_at: number;
  updated_at: number;
}

export interface ConsentsTable {
  user_id: string;
  client_id: string;
  /** The scopes granted, space-separated, sorted. */
  scopes: string;
  created_at: number;
  updated_at: number;
}

/** A site's webhook endpoint (migration 019): its secrets sealed with the master key. */
export interface WebhookEndpointsTable {
  id: string;
  url: string;
  /** JSON list of event types, or ["*"]. */
  events: string;
  enabled: number;
  description: string;
  secret_sealed: string;
  /** The secret before the last rotation, which still signs until previous_secret_until. */
  previous_secret_sealed: string | null;
  previous_secret_until: number | null;
  created_at: number;
  updated_at: number;
  /** Health, kept by the sender (migration 022): failed attempts in a row, and since when. */
  consecutive_failures: ColumnType<number, number | undefined, number>;
  failing_since: number | null;
  last_success_at: number | null;
  last_failure_at: number | null;
  /** Why and when Ward disabled it on its own (`failing`: failing for a day); null otherwise. */
  disabled_reason: string | null;
  disabled_at: number | null;
}

/** One event of the catalog (migration 019), written in the transaction of the audit row it comes from. */
export interface WebhookEventsTable {
  id: string;
  type: string;
  at: number;
  /** JSON of the event's `data`. */
  data: string;
}

/** One event to deliver to one endpoint (migration 019): pending, delivered or failed (kept). */
export interface WebhookDeliveriesTable {
  id: string;
  endpoint_id: string;
  event_id: string;
  /** The event's place in its endpoint's order (time in microseconds-ish, then a process counter). */
  seq: number;
  status: string;
  attempts: number;
  /** When the next attempt is due; a claimed row is moved past its lease. */
  next_attempt_at: number;
  last_error: string | null;
  created_at: number;
  finished_at: number | null;
}

/** One HTTP attempt of a delivery (migration 019). */
export interface WebhookAttemptsTable {
  id: string;
  delivery_id: string;
  at: number;
  /** The answer's HTTP status, or null when none came (timeout, connection error). */
  status: number | null;
  latency_ms: number;
  error: string | null;
  /** The first kilobyte of the answer's body. */
  response: string;
}

/** A blocking hook (migration 021): a URL Ward calls before an event and waits for. */
export interface HooksTable {
  id: string;
  url: string;
  /** before.signup or before.token. */
  event: string;
  timeout_ms: number;
  /** open (the event goes on when the hook fails) or closed (it is refused). */
  failure_policy: string;
  enabled: number;
  description: string;
  secret_sealed: string;
  created_at: number;
  updated_at: number;
}

/** A client that registered itself (RFC 7591, migration 026); its row of `clients` holds the rest. */
export interface ClientRegistrationsTable {
  client_id: string;
  /** HMAC of its registration access token (RFC 7592), never the token. */
  token_digest: string;
  /** none, client_secret_basic or client_secret_post. */
  auth_method: string;
  /** The registered metadata the clients table has no column for, as JSON. */
  metadata: string;
  created_at: number;
  updated_at: number;
}

/** A device authorization request (RFC 8628, migration 031): its codes as digests only. */
export interface DeviceAuthorizationsTable {
  id: string;
  /** SHA-256 of the device code (the device holds the code). */
  device_code_digest: string;
  /** SHA-256 of the normalised user code. */
  user_code_digest: string;
  client_id: string;
  scope: string;
  resource: string | null;
  /** pending, approved, denied or consumed. */
  status: string;
  interval_seconds: number;
  last_polled_at: number | null;
  /** Who approved or denied it, once someone did. */
  user_id: string | null;
  /** The grant (token family) an approval created. */
  grant_id: string | null;
  created_at: number;
  expires_at: number;
}

/** One call of a hook (migration 021): what it decided, or how it failed. */
export interface HookCallsTable {
  id: string;
  hook_id: string;
  event: string;
  at: number;
  /** The call's place in its hook's record (the time in ms times 1000, plus a process counter). */
  seq: number;
  /** allowed, denied, failed_open or failed_closed. */
  outcome: string;
  /** The answer's HTTP status, or null when none came (timeout, connection error). */
  status: number | null;
  latency_ms: number;
  error: string | null;
  /** The first kilobyte of the answer's body. */
  response: string;
}

export interface Database {
  device_authorizations: DeviceAuthorizationsTable;
  hooks: HooksTable;
  hook_calls: HookCallsTable;
  client_registrations: ClientRegistrationsTable;
  consents: ConsentsTable;
  api_resources: ApiResourcesTable;
  webhook_endpoints: WebhookEndpointsTable;
  webhook_events: WebhookEventsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_attempts: WebhookAttemptsTable;
  sign_in_failures: SignInFailuresTable;
  account_codes: AccountCodesTable;
  logout_deliveries: LogoutDeliveriesTable;
  interactions: InteractionsTable;
  social_providers: SocialProvidersTable;
  identities: IdentitiesTable;
  user_external_ids: UserExternalIdsTable;
  user_custom_identifiers: UserCustomIdentifiersTable;
  user_consents: UserConsentsTable;
  user_consent_history: UserConsentHistoryTable;
  account_deletions: AccountDeletionsTable;
  user_import_jobs: UserImportJobsTable;
  user_import_job_lines: UserImportJobLinesTable;
  mfa_credentials: MfaCredentialsTable;
  mfa_totp_secrets: MfaTotpSecretsTable;
  mfa_recovery_codes: MfaRecoveryCodesTable;
  mfa_enrolment_skips: MfaEnrolmentSkipsTable;
  mfa_last_factors: MfaLastFactorsTable;
  step_ups: StepUpsTable;
  challenges: ChallengesTable;
  trusted_devices: TrustedDevicesTable;
  audit_events: AuditEventsTable;
  versions: VersionsTable;
  users: UsersTable;
  user_profiles: UserProfilesTable;
  clients: ClientsTable;
  signing_keys: SigningKeysTable;
  sessions: SessionsTable;
  authorization_codes: AuthorizationCodesTable;
  one_time_tokens: OneTimeTokensTable;
  passkeys: PasskeysTable;
  grants: GrantsTable;
  revoked_access_tokens: RevokedAccessTokensTable;
  refresh_tokens: RefreshTokensTable;
  rate_counters: RateCountersTable;
  settings: SettingsTable;
}
