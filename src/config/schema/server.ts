import type { Static, TSchema } from 'typebox';
import { type ProblemSink, type Rule, checkValue } from './check.js';
import { group, int, oneOf, text } from './kit.js';

/**
 * The server's settings: environment variables, most of them overriding a key of the config file
 * (WARD_CONFIG names the file). Those read by a parser of their own (the tuning and network lists)
 * are described here and checked there.
 */
const fromFile = <T extends TSchema>(key: string, schema: T): T => Object.assign(schema, { 'x-file': key });
const ON_OFF = ['on', 'off'] as const;

export const ServerSchema = group(
  {
    WARD_PORT: fromFile(
      'port',
      Object.assign(int(0, 65535, 'The port Ward listens on (0: any free port).', 8443), {
        'x-allowed': 'a port number 0-65535',
      }),
    ),
    WARD_HOST: fromFile(
      'host',
      text('The address Ward listens on.', { min: 1, allowed: 'a host name or address', value: 'localhost' }),
    ),
    WARD_ISSUER: fromFile(
      'issuer',
      text('The issuer URL tokens name (default: `https://localhost:<port>`, http with WARD_TLS=off).', {
        check: 'issuer',
      }),
    ),
    WARD_DATA_DIR: fromFile(
      'data_dir',
      text('Where the SQLite database and the generated master key live.', { value: './data' }),
    ),
    WARD_DATABASE_URL: fromFile(
      'database_url',
      text('PostgreSQL instead of the embedded SQLite.', {
        pattern: '^postgres(ql)?://',
        allowed: 'a postgres:// URL (leave it unset for the embedded SQLite)',
      }),
    ),
    WARD_TLS: fromFile('tls', oneOf(ON_OFF, 'on', 'Serve HTTPS (off: plain HTTP behind a TLS proxy).')),
    WARD_TLS_CERT: fromFile(
      'tls_cert',
      text('The PEM certificate file (with WARD_TLS_KEY; default: a generated one).'),
    ),
    WARD_TLS_KEY: fromFile('tls_key', text('The PEM private key file of WARD_TLS_CERT.')),
    WARD_GEOIP_DATABASE: fromFile(
      'geoip_database',
      text(
        "A local GeoIP database file (MaxMind DB format: GeoLite2/GeoIP2 or DB-IP, City or Country): the approximate place of each session in the user's list of sign-ins. Unset: no place is shown.",
        { allowed: 'the path of an .mmdb file' },
      ),
    ),
    WARD_LOG_LEVEL: fromFile(
      'log_level',
      oneOf(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], 'info', 'The least level logged.'),
    ),
    WARD_DEMO_CLIENTS: fromFile(
      'demo_clients',
      oneOf(['on', 'off', 'true', 'false'], 'on', 'Create the demo public and confidential clients on first start.'),
    ),
    WARD_TUNING: fromFile('tuning', oneOf(ON_OFF, 'on', 'The speed-ups (docs/performance.md): all on, or all off.')),
    WARD_TUNING_OFF: text('Speed-ups turned off on their own, comma-separated (config/tuning.ts).'),
    WARD_MASTER_KEY: text('The key that seals secrets at rest (default: generated once in the data dir).', {
      check: 'master_key',
    }),
    WARD_ADMIN_EMAIL: text("The first administrator's email, created at first start."),
    WARD_ADMIN_PASSWORD: text("The first administrator's password.", { min: 12 }),
    WARD_MODE: oneOf(
      ['development', 'production'],
      'development',
      'development: with no SMTP / SMS configured, messages (codes included) are written to the log.',
    ),
    WARD_SMTP_URL: text('Where emails are sent.', {
      pattern: '^smtps?://[^\\s]+$',
      allowed: 'an smtp:// or smtps:// URL, e.g. smtp://127.0.0.1:2525',
    }),
    WARD_MAIL_FROM: text("The From of Ward's emails.", { value: 'Ward <no-reply@ward.local>' }),
    WARD_TEMPLATES_DIR: text('A folder of operator templates that replace the account messages.'),
    WARD_SMS_URL: text('A Twilio-compatible API for SMS (with the three below).', {
      pattern: '^https?://[^\\s]+$',
      allowed: 'the http(s) base URL of a Twilio-compatible API',
    }),
    WARD_SMS_ACCOUNT_SID: text('The SMS API account.'),
    WARD_SMS_AUTH_TOKEN: text('The SMS API token.'),
    WARD_SMS_FROM: text('The sender number of SMS.'),
    WARD_CAPTCHA_SECRET: text(
      "The captcha provider's secret key (the account's `captcha` setting names the provider).",
      {
        min: 1,
        max: 512,
      },
    ),
    WARD_TRUSTED_PROXIES: text(
      'The proxies whose X-Forwarded-For is believed: addresses, CIDRs, or loopback / linklocal / uniquelocal (comma-separated).',
    ),
    WARD_OUTBOUND_ALLOW: text(
      'Refused ranges outbound requests may reach anyway, CIDRs or `none` (default: loopback in development).',
    ),
    WARD_METRICS_TOKEN: text(
      'When set, GET /metrics needs `Authorization: Bearer <it>`; else only loopback callers get it.',
      {
        min: 16,
      },
    ),
    WARD_SHUTDOWN_TIMEOUT: int(1, 600, 'How long in-flight requests may take to finish after SIGTERM, seconds.', 10),
    OTEL_EXPORTER_OTLP_ENDPOINT: text(
      'An OpenTelemetry collector: traces go over OTLP/HTTP (JSON) to `<it>/v1/traces`; unset, no tracing at all (docs/metrics.md).',
      {
        pattern: '^https?://[^\\s]+$',
        allowed: 'the http(s) base URL of an OTLP/HTTP collector, e.g. http://127.0.0.1:4318',
      },
    ),
    OTEL_SERVICE_NAME: text('The service name the traces carry.', { min: 1, value: 'ward' }),
    WARD_PASSWORD_STRENGTH_IDLE: int(
      1,
      86400,
      'How long the password-strength thread (zxcvbn, about 70 MB) may sit unused before it stops, seconds; the next check starts it again.',
      60,
    ),
  },
  'The server settings.',
  [],
);

type Settings = Static<typeof ServerSchema>;
/** The variables that have a default are always there once validated. */
type Defaulted =
  | 'WARD_PORT'
  | 'WARD_HOST'
  | 'WARD_DATA_DIR'
  | 'WARD_TLS'
  | 'WARD_LOG_LEVEL'
  | 'WARD_DEMO_CLIENTS'
  | 'WARD_TUNING'
  | 'WARD_MODE'
  | 'WARD_MAIL_FROM'
  | 'WARD_SHUTDOWN_TIMEOUT'
  | 'OTEL_SERVICE_NAME'
  | 'WARD_PASSWORD_STRENGTH_IDLE';
export type ServerSettings = Partial<Settings> & Pick<Settings, Defaulted>;

/** The config file's keys: those the environment overrides, and the settings groups. */
export const FILE_KEYS = [
  ...Object.values(ServerSchema.properties).flatMap((s) => ('x-file' in s ? [s['x-file'] as string] : [])),
  'account',
  'clients',
  'social_providers',
  'webhooks',
];

/** A certificate goes with its key. */
const certWithKey: Rule<ServerSettings> = (s, add) => {
  if ((s.WARD_TLS_CERT === undefined) !== (s.WARD_TLS_KEY === undefined))
    add('.WARD_TLS_CERT', 'WARD_TLS_CERT and WARD_TLS_KEY go together: set both or neither');
};

/** The SMS API needs its account, token and sender. */
const smsComplete: Rule<ServerSettings> = (s, add) => {
  if (s.WARD_SMS_URL !== undefined && (!s.WARD_SMS_ACCOUNT_SID || !s.WARD_SMS_AUTH_TOKEN || !s.WARD_SMS_FROM))
    add('.WARD_SMS_URL', 'needs WARD_SMS_ACCOUNT_SID, WARD_SMS_AUTH_TOKEN and WARD_SMS_FROM too');
};

/** A value as the schema takes it: an environment variable is text, a file's port a number, its tls a boolean. */
function coerced(schema: TSchema, value: unknown): unknown {
  const s = schema as { type?: string; enum?: string[] };
  if (s.type === 'integer' && typeof value === 'string' && /^\d+$/.test(value)) return Number(value);
  if (s.enum?.includes('on') && typeof value === 'boolean') return value ? 'on' : 'off';
  return value;
}

/**
 * The server settings from the environment, each variable overriding its config file key (an empty
 * variable is unset); the schema's defaults filled in. Null when a problem was added.
 */
export function validateServer(
  p: ProblemSink,
  env: Record<string, string | undefined>,
  file: Record<string, unknown>,
): ServerSettings | null {
  const values: Record<string, unknown> = {};
  for (const [name, schema] of Object.entries(ServerSchema.properties)) {
    const fileKey = (schema as { 'x-file'?: string })['x-file'];
    const value = env[name] !== undefined && env[name] !== '' ? env[name] : fileKey ? file[fileKey] : undefined;
    if (value !== undefined && value !== null) values[name] = coerced(schema, value);
  }
  return checkValue<ServerSettings>(p, '', ServerSchema, values, [certWithKey, smsComplete]);
}
