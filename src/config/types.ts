/** Ward's whole configuration, after defaults and validation. */
export type JwtAlgorithm = 'RS256' | 'HS256';
export type ClientType = 'public' | 'confidential';

export interface ClientConfig {
  client_id: string;
  name: string;
  type: ClientType;
  /** Only for confidential clients; at least 32 characters. */
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
  /** Token grants the client may use: authorization_code, refresh_token, client_credentials. */
  grant_types: GrantType[];
  /** Management API scopes a client_credentials token of this client may carry. */
  management_scopes: ManagementScope[];
}

export type GrantType = 'authorization_code' | 'refresh_token' | 'client_credentials';
export const GRANT_TYPES: readonly GrantType[] = ['authorization_code', 'refresh_token', 'client_credentials'];
export type ManagementScope = 'read:clients' | 'manage:clients' | 'manage:keys' | 'read:settings' | 'manage:settings' | 'read:users' | 'manage:users' | 'read:audit';
export const MANAGEMENT_SCOPES: readonly ManagementScope[] = ['read:clients', 'manage:clients', 'manage:keys', 'read:settings', 'manage:settings', 'read:users', 'manage:users', 'read:audit'];

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
  rate_limits: { login: RateLimit; signup: RateLimit; token: RateLimit };
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
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /** Base64 of 32 bytes; when absent, generated once in the data dir. */
  masterKey: string | null;
  admin: { email: string | null; password: string | null };
  /** Create the demo public and confidential clients on first start. */
  demoClients: boolean;
  account: AccountSettings;
  /** The account keys the config file declares: applied over the stored settings at each start. */
  accountPatch: Record<string, unknown> | null;
  clients: ClientConfig[];
}
