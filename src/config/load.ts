import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { DEFAULT_ACCOUNT } from './defaults.js';
import type { ClientConfig, WardConfig } from './types.js';
import { parseOutboundAllow, parseTrustedProxies } from './network.js';
import { FILE_KEYS, validateServer } from './schema/server.js';
import { validateSocialProviders } from './social.js';
import { validateWebhooks } from './schema/webhook.js';
import { parseTuning } from './tuning.js';
import { Problems, checkKnownKeys, validateAccount, validateClient } from './validate.js';

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n  - ${problems.join('\n  - ')}`);
  }
}

type Env = Record<string, string | undefined>;

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

function clientsOf(p: Problems, raw: unknown): ClientConfig[] {
  if (raw === undefined) return [];
  if (!Array.isArray(raw)) {
    p.add('clients', 'must be an array of client objects');
    return [];
  }
  const clients: ClientConfig[] = [];
  raw.forEach((entry, i) => {
    const c = validateClient(p, `clients[${i}]`, entry);
    if (c && clients.some((x) => x.client_id === c.client_id))
      p.add(`clients[${i}].client_id`, `duplicate client_id ${c.client_id}`);
    else if (c) clients.push(c);
  });
  return clients;
}

/**
 * Builds the configuration from environment variables (each overriding the config file) and the
 * JSON file named by WARD_CONFIG, each part checked against its schema (config/schema/). The only
 * place that reads the environment is `fromProcess()`.
 */
export function loadConfig(env: Env, overrides: Partial<WardConfig> = {}): WardConfig {
  const p = new Problems();
  const file = env.WARD_CONFIG ? readFile(resolve(env.WARD_CONFIG), p) : {};
  checkKnownKeys(p, 'config', file, FILE_KEYS);
  const s = validateServer(p, env, file);
  const mode = s?.WARD_MODE ?? 'development';
  const trustedProxies = parseTrustedProxies(s?.WARD_TRUSTED_PROXIES, (m) => p.add('WARD_TRUSTED_PROXIES', m));
  const outboundAllow = parseOutboundAllow(s?.WARD_OUTBOUND_ALLOW, mode, (m) => p.add('WARD_OUTBOUND_ALLOW', m));
  const tuning = parseTuning(s?.WARD_TUNING, s?.WARD_TUNING_OFF, (k, m) => p.add(k, m));
  // Development mode lets webhooks reach a receiver on the developer's machine (unless the file says no).
  const accountPatch =
    mode === 'production'
      ? ((file.account as Record<string, unknown> | undefined) ?? null)
      : { allow_private_webhook_targets: true, ...((file.account as Record<string, unknown> | undefined) ?? {}) };
  const account = validateAccount(p, accountPatch ?? undefined, DEFAULT_ACCOUNT);
  const clients = clientsOf(p, file.clients);
  const socialProviders = validateSocialProviders(p, file.social_providers);
  const webhooks = validateWebhooks(p, file.webhooks, env);
  if (p.list.length || !s) throw new ConfigError(p.list);
  const port = s.WARD_PORT;
  const tls = s.WARD_TLS === 'on';
  const defaultIssuer = `${tls ? 'https' : 'http'}://localhost${port === 443 || port === 0 ? '' : `:${String(port)}`}`;
  return {
    port,
    host: s.WARD_HOST,
    issuer: s.WARD_ISSUER ?? defaultIssuer,
    dataDir: resolve(s.WARD_DATA_DIR),
    databaseUrl: s.WARD_DATABASE_URL ?? null,
    tls,
    tlsCert: s.WARD_TLS_CERT ?? null,
    geoipDatabase: s.WARD_GEOIP_DATABASE ?? null,
    tlsKey: s.WARD_TLS_KEY ?? null,
    trustedProxies,
    outboundAllow,
    logLevel: s.WARD_LOG_LEVEL,
    masterKey: s.WARD_MASTER_KEY ?? null,
    admin: { email: s.WARD_ADMIN_EMAIL ?? null, password: s.WARD_ADMIN_PASSWORD ?? null },
    demoClients: s.WARD_DEMO_CLIENTS === 'on' || s.WARD_DEMO_CLIENTS === 'true',
    delivery: {
      mode,
      smtpUrl: s.WARD_SMTP_URL ?? null,
      mailFrom: s.WARD_MAIL_FROM,
      templatesDir: s.WARD_TEMPLATES_DIR ?? null,
      smsUrl: s.WARD_SMS_URL ?? null,
      smsAccountSid: s.WARD_SMS_ACCOUNT_SID ?? null,
      smsAuthToken: s.WARD_SMS_AUTH_TOKEN ?? null,
      smsFrom: s.WARD_SMS_FROM ?? null,
    },
    captchaSecret: s.WARD_CAPTCHA_SECRET ?? null,
    metricsToken: s.WARD_METRICS_TOKEN ?? null,
    otlpEndpoint: s.OTEL_EXPORTER_OTLP_ENDPOINT ?? null,
    otelServiceName: s.OTEL_SERVICE_NAME,
    shutdownTimeoutSeconds: s.WARD_SHUTDOWN_TIMEOUT,
    passwordStrengthIdleSeconds: s.WARD_PASSWORD_STRENGTH_IDLE,
    tuning,
    account,
    accountPatch,
    clients,
    social_providers: socialProviders,
    webhooks,
    ...overrides,
  };
}

/** The one reader of process.env in the code base. */
export function configFromProcess(): WardConfig {
  return loadConfig(process.env);
}
