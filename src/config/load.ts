import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { DEFAULT_ACCOUNT, DEFAULT_PORT } from './defaults.js';
import type { ClientConfig, WardConfig } from './types.js';
import { parseOutboundAllow, parseTrustedProxies } from './network.js';
import { validateSocialProviders } from './social.js';
import { parseTuning } from './tuning.js';
import { Problems, checkKnownKeys, validateAccount, validateClient } from './validate.js';

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n  - ${problems.join('\n  - ')}`);
  }
}

type Env = Record<string, string | undefined>;

const FILE_KEYS = [
  'port',
  'host',
  'issuer',
  'data_dir',
  'database_url',
  'tls',
  'tls_cert',
  'tls_key',
  'log_level',
  'demo_clients',
  'tuning',
  'account',
  'clients',
  'social_providers',
] as const;
const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

function readFile(path: string, p: Problems): Record<string, unknown> {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    p.add('WARD_CONFIG', `cannot read ${path}: ${(e as Error).message}`);
    return {};
  }
  try {
    const parsed = JSON.parse(text) as unknown;
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      p.add('WARD_CONFIG', `${path} must hold a JSON object`);
      return {};
    }
    return parsed as Record<string, unknown>;
  } catch (e) {
    p.add('WARD_CONFIG', `${path} is not valid JSON: ${(e as Error).message}`);
    return {};
  }
}

/**
 * Builds the configuration from environment variables (each overriding the config file) and the
 * JSON file named by WARD_CONFIG. The only place that reads the environment is `fromProcess()`.
 */
export function loadConfig(env: Env, overrides: Partial<WardConfig> = {}): WardConfig {
  const p = new Problems();
  const file = env.WARD_CONFIG ? readFile(resolve(env.WARD_CONFIG), p) : {};
  checkKnownKeys(p, 'config', file, FILE_KEYS);
  const pick = (envName: string, fileKey: string): unknown =>
    env[envName] !== undefined && env[envName] !== '' ? env[envName] : file[fileKey];

  const portRaw = pick('WARD_PORT', 'port') ?? DEFAULT_PORT;
  const port = typeof portRaw === 'string' && /^\d+$/.test(portRaw) ? Number(portRaw) : portRaw;
  if (typeof port !== 'number' || !Number.isInteger(port) || port < 0 || port > 65535)
    p.add('WARD_PORT', `must be a port number 0-65535, got ${JSON.stringify(portRaw)}`);

  const host = pick('WARD_HOST', 'host') ?? 'localhost';
  if (typeof host !== 'string' || host.length === 0) p.add('WARD_HOST', 'must be a host name or address');

  const tlsRaw = pick('WARD_TLS', 'tls') ?? 'on';
  const tls = tlsRaw === 'on' || tlsRaw === true ? true : tlsRaw === 'off' || tlsRaw === false ? false : null;
  if (tls === null) p.add('WARD_TLS', `must be "on" or "off", got ${JSON.stringify(tlsRaw)}`);

  const tlsCert = (pick('WARD_TLS_CERT', 'tls_cert') as string | undefined) ?? null;
  const tlsKey = (pick('WARD_TLS_KEY', 'tls_key') as string | undefined) ?? null;
  if ((tlsCert === null) !== (tlsKey === null))
    p.add('WARD_TLS_CERT', 'WARD_TLS_CERT and WARD_TLS_KEY go together: set both or neither');

  const scheme = tls === false ? 'http' : 'https';
  const defaultIssuer = `${scheme}://localhost${port === 443 || port === 0 ? '' : `:${String(port)}`}`;
  const issuer = (pick('WARD_ISSUER', 'issuer') as string | undefined) ?? defaultIssuer;
  try {
    const u = new URL(issuer);
    if (u.protocol !== 'https:' && u.protocol !== 'http:') p.add('WARD_ISSUER', 'must be an https URL');
    if (u.search || u.hash) p.add('WARD_ISSUER', 'must have no query or fragment (OpenID Connect Discovery 3)');
    if (issuer.endsWith('/')) p.add('WARD_ISSUER', 'must not end with a slash');
  } catch {
    p.add('WARD_ISSUER', `must be an absolute URL, got ${JSON.stringify(issuer)}`);
  }

  const databaseUrl = (pick('WARD_DATABASE_URL', 'database_url') as string | undefined) ?? null;
  if (databaseUrl !== null && !/^postgres(ql)?:\/\//.test(databaseUrl))
    p.add('WARD_DATABASE_URL', 'must be a postgres:// URL (leave it unset for the embedded SQLite)');

  const logLevel = (pick('WARD_LOG_LEVEL', 'log_level') as string | undefined) ?? 'info';
  if (!LOG_LEVELS.includes(logLevel as never)) p.add('WARD_LOG_LEVEL', `must be one of ${LOG_LEVELS.join(', ')}`);

  const masterKey = env.WARD_MASTER_KEY ?? null;
  if (masterKey !== null && Buffer.from(masterKey, 'base64').length !== 32)
    p.add('WARD_MASTER_KEY', 'must be the base64 of exactly 32 bytes');

  const adminPassword = env.WARD_ADMIN_PASSWORD ?? null;
  if (adminPassword !== null && adminPassword.length < 12)
    p.add('WARD_ADMIN_PASSWORD', 'must be at least 12 characters');

  const demo = pick('WARD_DEMO_CLIENTS', 'demo_clients') ?? true;

  const mode = (env.WARD_MODE ?? 'development') as string;
  if (mode !== 'development' && mode !== 'production')
    p.add('WARD_MODE', `must be "development" or "production", got ${JSON.stringify(mode)}`);
  const smtpUrl = env.WARD_SMTP_URL ?? null;
  if (smtpUrl !== null && !/^smtps?:\/\/[^\s]+$/.test(smtpUrl))
    p.add('WARD_SMTP_URL', 'must be an smtp:// or smtps:// URL, e.g. smtp://127.0.0.1:2525');
  const smsUrl = env.WARD_SMS_URL ?? null;
  if (smsUrl !== null && !/^https?:\/\/[^\s]+$/.test(smsUrl))
    p.add('WARD_SMS_URL', 'must be the http(s) base URL of a Twilio-compatible API');
  const smsAccountSid = env.WARD_SMS_ACCOUNT_SID ?? null;
  const smsAuthToken = env.WARD_SMS_AUTH_TOKEN ?? null;
  const smsFrom = env.WARD_SMS_FROM ?? null;
  if (smsUrl !== null && (!smsAccountSid || !smsAuthToken || !smsFrom))
    p.add('WARD_SMS_URL', 'needs WARD_SMS_ACCOUNT_SID, WARD_SMS_AUTH_TOKEN and WARD_SMS_FROM too');

  const trustedProxies = parseTrustedProxies(env.WARD_TRUSTED_PROXIES, (m) => p.add('WARD_TRUSTED_PROXIES', m));
  const outboundAllow = parseOutboundAllow(env.WARD_OUTBOUND_ALLOW, mode, (m) => p.add('WARD_OUTBOUND_ALLOW', m));

  const metricsToken = env.WARD_METRICS_TOKEN ?? null;
  if (metricsToken !== null && metricsToken.length < 16) p.add('WARD_METRICS_TOKEN', 'must be at least 16 characters');
  const shutdown = Number(env.WARD_SHUTDOWN_TIMEOUT ?? 10);
  if (!Number.isInteger(shutdown) || shutdown < 1 || shutdown > 600)
    p.add('WARD_SHUTDOWN_TIMEOUT', 'must be a whole number of seconds from 1 to 600');

  const tuning = parseTuning(pick('WARD_TUNING', 'tuning'), env.WARD_TUNING_OFF, (k, m) => p.add(k, m));

  const account = validateAccount(p, file.account, DEFAULT_ACCOUNT);
  const clients: ClientConfig[] = [];
  if (file.clients !== undefined) {
    if (!Array.isArray(file.clients)) p.add('clients', 'must be an array of client objects');
    else {
      const seen = new Set<string>();
      file.clients.forEach((raw, i) => {
        const c = validateClient(p, `clients[${i}]`, raw);
        if (c && seen.has(c.client_id)) p.add(`clients[${i}].client_id`, `duplicate client_id ${c.client_id}`);
        if (c) {
          seen.add(c.client_id);
          clients.push(c);
        }
      });
    }
  }

  const socialProviders = validateSocialProviders(p, file.social_providers);
  if (p.list.length) throw new ConfigError(p.list);
  return {
    port: port as number,
    host: host as string,
    issuer,
    dataDir: resolve((pick('WARD_DATA_DIR', 'data_dir') as string | undefined) ?? './data'),
    databaseUrl,
    tls: tls as boolean,
    tlsCert,
    tlsKey,
    trustedProxies,
    outboundAllow,
    logLevel: logLevel as WardConfig['logLevel'],
    masterKey,
    admin: { email: env.WARD_ADMIN_EMAIL ?? null, password: adminPassword },
    demoClients: demo === true || demo === 'on' || demo === 'true',
    delivery: {
      mode: mode as 'development' | 'production',
      smtpUrl,
      mailFrom: env.WARD_MAIL_FROM ?? 'Ward <no-reply@ward.local>',
      templatesDir: env.WARD_TEMPLATES_DIR || null,
      smsUrl,
      smsAccountSid,
      smsAuthToken,
      smsFrom,
    },
    metricsToken,
    shutdownTimeoutSeconds: shutdown,
    tuning,
    account,
    accountPatch: (file.account as Record<string, unknown> | undefined) ?? null,
    clients,
    social_providers: socialProviders,
    ...overrides,
  };
}

/** The one reader of process.env in the code base. */
export function configFromProcess(): WardConfig {
  return loadConfig(process.env);
}
