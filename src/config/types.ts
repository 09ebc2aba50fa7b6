import type { Cidr } from '../lib/outbound/ranges.js';
import type { AccountSettings } from './schema/account.js';
import type { ClientConfig, ClientType } from './schema/client.js';
import type { SocialProviderConfig } from './schema/social-provider.js';
import type { WebhookConfig } from './schema/webhook.js';
import type { Tuning } from './tuning.js';

// The settings groups are described once, in config/schema/: their types are derived from there.
export type {
  AccountSettings,
  CaptchaSettings,
  ConsentDefinitionSetting,
  CustomFieldSetting,
  CustomFieldType,
  PasskeySettings,
  PasswordlessSettings,
  RateLimit,
  SelfServiceSettings,
  SocialSignupSettings,
} from './schema/account.js';
export { CUSTOM_FIELD_TYPES } from './schema/account-features.js';
export type {
  ClientConfig,
  ClientJwks,
  ClientType,
  TokenEndpointAuthMethod,
  RequestObjectAlg,
  GrantType,
  JwtAlgorithm,
  ManagementScope,
  ResponseTypeSetting,
} from './schema/client.js';
export {
  GRANT_TYPES,
  JWT_ALGORITHMS,
  MANAGEMENT_SCOPES,
  RESPONSE_TYPES,
  REQUEST_OBJECT_ALGS,
  TOKEN_ENDPOINT_AUTH_METHODS,
} from './schema/client.js';
export type { SocialProviderConfig } from './schema/social-provider.js';
export type { WebhookConfig } from './schema/webhook.js';

/** Whether a client of this type authenticates with a secret. */
export const hasSecret = (type: ClientType): boolean => type !== 'public';

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

/** Ward's whole configuration, after defaults and validation. */
export interface WardConfig {
  port: number;
  host: string;
  issuer: string;
  dataDir: string;
  databaseUrl: string | null;
  tls: boolean;
  tlsCert: string | null;
  /** A local GeoIP database (.mmdb) for the approximate place of sessions (self-service/places.ts); null: none. */
  geoipDatabase: string | null;
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
  /** The captcha provider's secret (WARD_CAPTCHA_SECRET; never stored, never logged). */
  captchaSecret: string | null;
  /** When set, GET /metrics needs `Authorization: Bearer <it>`; when not, only loopback callers get it. */
  metricsToken: string | null;
  /** OTEL_EXPORTER_OTLP_ENDPOINT: where traces go over OTLP/HTTP; null: no tracing at all. */
  otlpEndpoint: string | null;
  /** OTEL_SERVICE_NAME: the traces' service name. */
  otelServiceName: string;
  /** Graceful shutdown: how long in-flight requests may take to finish after SIGTERM. */
  shutdownTimeoutSeconds: number;
  /** How long the password-strength thread may sit unused before it stops (WARD_PASSWORD_STRENGTH_IDLE). */
  passwordStrengthIdleSeconds: number;
  /** Which speed-ups are on (WARD_TUNING, WARD_TUNING_OFF; config/tuning.ts). */
  tuning: Tuning;
  account: AccountSettings;
  /** The account keys the config file declares: applied over the stored settings at each start. */
  accountPatch: Record<string, unknown> | null;
  clients: ClientConfig[];
  social_providers: SocialProviderConfig[];
  /** The config file's webhook endpoints, each with its secret read from its `secret_env`. */
  webhooks: WebhookConfig[];
}
