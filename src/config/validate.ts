import { callbackUrlProblem, originProblem } from '../lib/url.js';
import { hasControlCharacter } from '../lib/text.js';
import { validateCustomFields } from './custom-fields.js';
import { validateSocialSignup } from './social-signup.js';
import { DEFAULT_ACCOUNT, DEFAULT_SCOPE } from './defaults.js';
import {
  JWT_ALGORITHMS,
  type JwtAlgorithm,
  GRANT_TYPES,
  RESPONSE_TYPES,
  type ResponseTypeSetting,
  MANAGEMENT_SCOPES,
  type AccountSettings,
  type ClientConfig,
  type GrantType,
  type ManagementScope,
  type PasskeySettings,
  type SelfServiceSettings,
  type RateLimit,
} from './types.js';

/** Collects every problem of a config, each naming its key and what is allowed. */
export class Problems {
  readonly list: string[] = [];
  add(key: string, message: string): void {
    this.list.push(`${key}: ${message}`);
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export function checkKnownKeys(
  p: Problems,
  key: string,
  obj: Record<string, unknown>,
  allowed: readonly string[],
): void {
  for (const k of Object.keys(obj)) {
    if (!allowed.includes(k)) p.add(`${key}.${k}`, `unknown key (allowed: ${allowed.join(', ')})`);
  }
}

function positiveInt(p: Problems, key: string, value: unknown, fallback: number, max = 10 * 365 * 24 * 3600): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > max) {
    p.add(key, `must be an integer from 1 to ${max}, got ${JSON.stringify(value)}`);
    return fallback;
  }
  return value;
}

function rateLimit(p: Problems, key: string, value: unknown, fallback: RateLimit): RateLimit {
  if (value === undefined) return fallback;
  if (!isObject(value)) {
    p.add(key, 'must be an object {limit, window_seconds}');
    return fallback;
  }
  checkKnownKeys(p, key, value, ['limit', 'window_seconds']);
  let limit = fallback.limit;
  if (value.limit === null) limit = null;
  else if (value.limit !== undefined)
    limit = positiveInt(p, `${key}.limit`, value.limit, fallback.limit ?? 1, 1_000_000_000);
  return {
    limit,
    window_seconds: positiveInt(p, `${key}.window_seconds`, value.window_seconds, fallback.window_seconds, 86400),
  };
}

function intIn(p: Problems, key: string, value: unknown, fallback: number, min: number, max: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    p.add(key, `must be an integer from ${min} to ${max}, got ${JSON.stringify(value)}`);
    return fallback;
  }
  return value;
}

function windowLimit(
  p: Problems,
  key: string,
  value: unknown,
  fallback: { limit: number; window_seconds: number },
  min: number,
  max: number,
) {
  if (value === undefined) return fallback;
  if (!isObject(value)) {
    p.add(key, 'must be an object {limit, window_seconds}');
    return fallback;
  }
  checkKnownKeys(p, key, value, ['limit', 'window_seconds']);
  return {
    limit: intIn(p, `${key}.limit`, value.limit, fallback.limit, min, max),
    window_seconds: intIn(p, `${key}.window_seconds`, value.window_seconds, fallback.window_seconds, 1, 86400),
  };
}

/** Why a breached-password range API URL cannot be used: https (or loopback http), no query or fragment. */
function rangeApiUrlProblem(v: unknown): string | null {
  const bad = 'must be null or an https URL (http only for loopback) without query or fragment';
  if (typeof v !== 'string' || v.length > 2048) return bad;
  const problem = callbackUrlProblem(v);
  if (problem) return problem;
  const url = new URL(v);
  if ((url.protocol !== 'https:' && url.protocol !== 'http:') || url.search || v.includes('?')) return bad;
  return null;
}

const ACCOUNT_KEYS = [...Object.keys(DEFAULT_ACCOUNT)] as const;

const DOMAIN = /^(?=.{1,253}$)[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/;

/** Whether `host` is the relying-party ID or one of its subdomains (WebAuthn's RP ID rule). */
export const hostOnRpId = (host: string, rpId: string): boolean => host === rpId || host.endsWith(`.${rpId}`);

function validatePasskeys(p: Problems, raw: unknown, base: PasskeySettings): PasskeySettings {
  if (raw === undefined) return structuredClone(base);
  const key = 'account.passkeys';
  if (!isObject(raw)) {
    p.add(
      key,
      'must be an object {enabled, rp_id, rp_name, origins, user_verification_is_mfa, recovery_replaces, ' +
        'challenge_ttl}',
    );
    return structuredClone(base);
  }
  checkKnownKeys(p, key, raw, Object.keys(DEFAULT_ACCOUNT.passkeys));
  const out = structuredClone(base);
  for (const k of ['enabled', 'user_verification_is_mfa', 'recovery_replaces'] as const) {
    if (raw[k] === undefined) continue;
    if (typeof raw[k] !== 'boolean') p.add(`${key}.${k}`, 'must be true or false');
    else out[k] = raw[k];
  }
  if (raw.rp_id !== undefined) {
    if (raw.rp_id === null) out.rp_id = null;
    else if (typeof raw.rp_id !== 'string' || !DOMAIN.test(raw.rp_id) || /^[0-9.]+$/.test(raw.rp_id))
      p.add(`${key}.rp_id`, 'must be a lower-case domain name such as example.com (no scheme, port or IP address)');
    else out.rp_id = raw.rp_id;
  }
  if (raw.rp_name !== undefined) {
    if (typeof raw.rp_name !== 'string' || !raw.rp_name || raw.rp_name.length > 100 || hasControlCharacter(raw.rp_name))
      p.add(`${key}.rp_name`, 'must be a name of 1 to 100 characters, without control characters');
    else out.rp_name = raw.rp_name;
  }
  if (raw.origins !== undefined) {
    if (!Array.isArray(raw.origins) || raw.origins.length > 20)
      p.add(`${key}.origins`, 'must be an array of at most 20 origins');
    else {
      const problems = raw.origins.map((o) => originProblem(o as string));
      for (const [i, m] of problems.entries()) if (m) p.add(`${key}.origins[${i}]`, m);
      if (problems.every((m) => m === null)) out.origins = [...new Set(raw.origins as string[])];
    }
  }
  out.challenge_ttl = intIn(p, `${key}.challenge_ttl`, raw.challenge_ttl, base.challenge_ttl, 30, 600);
  if (out.rp_id) {
    for (const o of out.origins) {
      if (!hostOnRpId(new URL(o).hostname, out.rp_id))
        p.add(`${key}.origins`, `${o} is not on the relying-party ID ${out.rp_id} or one of its subdomains`);
    }
  }
  return out;
}

function validateSelfService(p: Problems, raw: unknown, base: SelfServiceSettings): SelfServiceSettings {
  if (raw === undefined) return structuredClone(base);
  const key = 'account.self_service';
  if (!isObject(raw)) {
    p.add(key, 'must be an object {email_verification, code_ttl, link_ttl, max_attempts, requests_per_address}');
    return structuredClone(base);
  }
  checkKnownKeys(p, key, raw, Object.keys(DEFAULT_ACCOUNT.self_service));
  const out = structuredClone(base);
  if (raw.email_verification !== undefined) {
    const v = raw.email_verification;
    if (v === 'off' || v === 'send' || v === 'required') out.email_verification = v;
    else p.add(`${key}.email_verification`, `must be "off", "send" or "required", got ${JSON.stringify(v)}`);
  }
  out.code_ttl = intIn(p, `${key}.code_ttl`, raw.code_ttl, base.code_ttl, 60, 3600);
  out.link_ttl = intIn(p, `${key}.link_ttl`, raw.link_ttl, base.link_ttl, 300, 7 * 24 * 3600);
  out.max_attempts = intIn(p, `${key}.max_attempts`, raw.max_attempts, base.max_attempts, 1, 20);
  out.requests_per_address = windowLimit(
    p,
    `${key}.requests_per_address`,
    raw.requests_per_address,
    base.requests_per_address,
    0,
    1000,
  );
  return out;
}

export function validateAccount(p: Problems, raw: unknown, base: AccountSettings = DEFAULT_ACCOUNT): AccountSettings {
  if (raw === undefined) return structuredClone(base);
  if (!isObject(raw)) {
    p.add('account', 'must be an object');
    return structuredClone(base);
  }
  checkKnownKeys(p, 'account', raw, ACCOUNT_KEYS);
  const out = structuredClone(base);
  if (raw.mfa_required !== undefined) {
    const v = typeof raw.mfa_required === 'string' ? raw.mfa_required.toLowerCase() : raw.mfa_required;
    if (v === 'always' || v === 'never') out.mfa_required = v;
    else p.add('account.mfa_required', `must be "always" or "never", got ${JSON.stringify(raw.mfa_required)}`);
  }
  for (const k of [
    'access_token_ttl',
    'id_token_ttl',
    'refresh_token_ttl',
    'authorization_code_ttl',
    'tkn_ttl',
    'session_ttl',
    'session_idle_ttl',
  ] as const) {
    out[k] = positiveInt(p, `account.${k}`, raw[k], base[k]);
  }
  if (out.authorization_code_ttl > 600)
    p.add('account.authorization_code_ttl', 'must be at most 600 seconds (RFC 6749 section 4.1.2)');
  out.password_min_length = positiveInt(
    p,
    'account.password_min_length',
    raw.password_min_length,
    base.password_min_length,
    128,
  );
  out.password_min_strength = intIn(
    p,
    'account.password_min_strength',
    raw.password_min_strength,
    base.password_min_strength,
    0,
    4,
  ) as AccountSettings['password_min_strength'];
  out.password_breach_check_timeout_ms = intIn(
    p,
    'account.password_breach_check_timeout_ms',
    raw.password_breach_check_timeout_ms,
    base.password_breach_check_timeout_ms,
    100,
    10000,
  );
  if (raw.password_breach_check_url !== undefined) {
    const v = raw.password_breach_check_url;
    const problem = v === null ? null : rangeApiUrlProblem(v);
    if (problem) p.add('account.password_breach_check_url', problem);
    else out.password_breach_check_url = v as string | null;
  }
  const bounds = {
    sign_in_delay_after: [1, 100],
    sign_in_delay_seconds: [1, 3600],
    sign_in_lock_after: [1, 100],
    sign_in_lock_seconds: [60, 86400],
    sign_in_failure_memory_seconds: [60, 30 * 86400],
  } as const;
  for (const [k, [min, max]] of Object.entries(bounds) as Array<[keyof typeof bounds, readonly [number, number]]>)
    out[k] = intIn(p, `account.${k}`, raw[k], base[k], min, max);
  if (out.sign_in_lock_after < out.sign_in_delay_after)
    p.add('account.sign_in_lock_after', 'must be at least sign_in_delay_after');
  out.verification_code_length = intIn(
    p,
    'account.verification_code_length',
    raw.verification_code_length,
    base.verification_code_length,
    4,
    10,
  );
  out.verification_code_ttl = intIn(
    p,
    'account.verification_code_ttl',
    raw.verification_code_ttl,
    base.verification_code_ttl,
    30,
    600,
  );
  out.verification_max_attempts = intIn(
    p,
    'account.verification_max_attempts',
    raw.verification_max_attempts,
    base.verification_max_attempts,
    1,
    20,
  );
  out.verification_requests_per_step_up = intIn(
    p,
    'account.verification_requests_per_step_up',
    raw.verification_requests_per_step_up,
    base.verification_requests_per_step_up,
    0,
    100,
  );
  out.verification_requests_per_user = windowLimit(
    p,
    'account.verification_requests_per_user',
    raw.verification_requests_per_user,
    base.verification_requests_per_user,
    0,
    10_000,
  );
  out.verification_failures_per_user = windowLimit(
    p,
    'account.verification_failures_per_user',
    raw.verification_failures_per_user,
    base.verification_failures_per_user,
    1,
    100,
  );
  out.step_up_ttl = intIn(p, 'account.step_up_ttl', raw.step_up_ttl, base.step_up_ttl, 30, 1800);
  out.trusted_device_ttl = positiveInt(
    p,
    'account.trusted_device_ttl',
    raw.trusted_device_ttl,
    base.trusted_device_ttl,
    365 * 24 * 3600,
  );
  for (const k of ['step_up_bearer_allowed', 'password_refuse_user_info', 'password_refuse_common'] as const) {
    if (raw[k] === undefined) continue;
    if (typeof raw[k] !== 'boolean') p.add(`account.${k}`, 'must be true or false');
    else out[k] = raw[k];
  }
  out.passkeys = validatePasskeys(p, raw.passkeys, base.passkeys);
  out.self_service = validateSelfService(p, raw.self_service, base.self_service);
  if (raw.passwordless !== undefined) {
    const key = 'account.passwordless';
    if (!isObject(raw.passwordless)) p.add(key, 'must be an object {magic_link, sms, signup}');
    else {
      checkKnownKeys(p, key, raw.passwordless, ['magic_link', 'sms', 'signup']);
      for (const k of ['magic_link', 'sms', 'signup'] as const) {
        const v = raw.passwordless[k];
        if (v === undefined) continue;
        if (typeof v !== 'boolean') p.add(`${key}.${k}`, 'must be true or false');
        else out.passwordless[k] = v;
      }
    }
  }
  out.custom_fields = validateCustomFields(p, raw.custom_fields, base.custom_fields);
  out.social_signup = validateSocialSignup(p, raw.social_signup, base.social_signup);
  if (raw.rate_limits !== undefined) {
    if (!isObject(raw.rate_limits))
      p.add('account.rate_limits', 'must be an object {login, signup, token, verification}');
    else {
      checkKnownKeys(p, 'account.rate_limits', raw.rate_limits, ['login', 'signup', 'token', 'verification']);
      for (const k of ['login', 'signup', 'token', 'verification'] as const) {
        out.rate_limits[k] = rateLimit(p, `account.rate_limits.${k}`, raw.rate_limits[k], base.rate_limits[k]);
      }
    }
  }
  return out;
}

const CLIENT_KEYS = [
  'client_id',
  'name',
  'type',
  'client_secret',
  'jwt_algorithm',
  'allowed_callback_urls',
  'allowed_origins',
  'sso',
  'scope',
  'pkce_enforced',
  'implicit_flow',
  'response_types',
  'post_logout_redirect_uris',
  'backchannel_logout_uri',
  'backchannel_logout_session_required',
  'grant_types',
  'management_scopes',
  'custom_token_login',
] as const;

function stringList(p: Problems, key: string, value: unknown, check: (v: string) => string | null): string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) {
    p.add(key, 'must be an array of strings');
    return [];
  }
  value.forEach((v, i) => {
    const problem = typeof v === 'string' ? check(v) : 'must be a string';
    if (problem) p.add(`${key}[${i}]`, `${JSON.stringify(v)} ${problem}`);
  });
  return value.filter((v): v is string => typeof v === 'string');
}

/**
 * A Back-Channel Logout URI: an absolute https (or loopback http) URL without a fragment, on the
 * scheme, host and port of one of the client's callback URLs (BCL 1.0 section 2.2). Null when absent.
 */
function backchannelLogoutUri(p: Problems, key: string, value: unknown, callbacks: string[]): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') {
    p.add(key, 'must be a URL or null');
    return null;
  }
  const problem = callbackUrlProblem(value);
  if (problem) {
    p.add(key, `${JSON.stringify(value)} ${problem}`);
    return null;
  }
  const url = new URL(value);
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    p.add(key, 'must use https (http only for loopback)');
    return null;
  }
  const origins = new Set(callbacks.map((c) => (URL.canParse(c) ? new URL(c).origin : null)));
  if (!origins.has(url.origin)) {
    p.add(key, 'must have the scheme, host and port of one of the allowed_callback_urls');
    return null;
  }
  return value;
}

/** Validates one client definition (config file or management API). */
export function validateClient(p: Problems, key: string, raw: unknown): ClientConfig | null {
  if (!isObject(raw)) {
    p.add(key, 'must be an object');
    return null;
  }
  checkKnownKeys(p, key, raw, CLIENT_KEYS);
  const before = p.list.length;
  const id = raw.client_id;
  if (typeof id !== 'string' || !/^[A-Za-z0-9._~-]{1,128}$/.test(id)) {
    p.add(`${key}.client_id`, 'must be 1-128 characters of A-Z a-z 0-9 . _ ~ -');
  }
  const type = raw.type ?? 'public';
  if (type !== 'public' && type !== 'confidential' && type !== 'resource_server')
    p.add(`${key}.type`, `must be "public", "confidential" or "resource_server", got ${JSON.stringify(raw.type)}`);
  const server = type === 'resource_server';
  const alg = raw.jwt_algorithm ?? 'RS256';
  if (!JWT_ALGORITHMS.includes(alg as JwtAlgorithm))
    p.add(
      `${key}.jwt_algorithm`,
      `must be one of ${JWT_ALGORITHMS.join(', ')}, got ${JSON.stringify(raw.jwt_algorithm)}`,
    );
  const secret = raw.client_secret;
  if (type === 'public' && secret !== undefined) p.add(`${key}.client_secret`, 'a public client has no secret');
  if (type === 'confidential' || server) {
    if (typeof secret !== 'string')
      p.add(`${key}.client_secret`, `a ${type} client needs a client_secret of at least 32 characters`);
    else if (Buffer.byteLength(secret) < 32)
      p.add(`${key}.client_secret`, 'must be at least 32 bytes (OpenID Connect Core 16.19)');
  }
  if (alg === 'HS256' && type === 'public') {
    p.add(`${key}.jwt_algorithm`, 'HS256 needs a client secret: a public client must use RS256, ES256 or EdDSA');
  }
  if (
    raw.name !== undefined &&
    (typeof raw.name !== 'string' || raw.name.length > 200 || hasControlCharacter(raw.name))
  )
    p.add(`${key}.name`, 'must be a string of at most 200 characters, without control characters');
  for (const b of [
    'sso',
    'pkce_enforced',
    'implicit_flow',
    'backchannel_logout_session_required',
    'custom_token_login',
  ] as const) {
    if (raw[b] !== undefined && typeof raw[b] !== 'boolean') p.add(`${key}.${b}`, 'must be true or false');
  }
  if (type === 'public' && raw.pkce_enforced === false)
    p.add(`${key}.pkce_enforced`, 'a public client always needs PKCE (RFC 9700 section 2.1.1)');
  if (type === 'public' && raw.implicit_flow === true)
    p.add(`${key}.implicit_flow`, 'a public client cannot use the implicit flow');
  if (
    raw.scope !== undefined &&
    (typeof raw.scope !== 'string' || !/^[\x21\x23-\x5b\x5d-\x7e]+( [\x21\x23-\x5b\x5d-\x7e]+)*$/.test(raw.scope))
  ) {
    p.add(`${key}.scope`, 'must be a space-separated list of scope names');
  }
  const grants =
    raw.grant_types === undefined
      ? server
        ? []
        : ['authorization_code', 'refresh_token']
      : stringList(p, `${key}.grant_types`, raw.grant_types, (g) =>
          GRANT_TYPES.includes(g as GrantType) ? null : `is not one of ${GRANT_TYPES.join(', ')}`,
        );
  if (type === 'public' && grants.includes('client_credentials'))
    p.add(`${key}.grant_types`, 'a public client cannot use client_credentials');
  const responseTypes =
    raw.response_types === undefined
      ? server
        ? []
        : ['code']
      : stringList(p, `${key}.response_types`, raw.response_types, (t) =>
          RESPONSE_TYPES.includes(t as ResponseTypeSetting) ? null : `is not one of ${RESPONSE_TYPES.join(', ')}`,
        );
  const mgmt = stringList(p, `${key}.management_scopes`, raw.management_scopes, (s) =>
    MANAGEMENT_SCOPES.includes(s as ManagementScope) ? null : `is not one of ${MANAGEMENT_SCOPES.join(', ')}`,
  );
  const callbacks = stringList(p, `${key}.allowed_callback_urls`, raw.allowed_callback_urls, callbackUrlProblem);
  const origins = stringList(p, `${key}.allowed_origins`, raw.allowed_origins, originProblem);
  const postLogout = stringList(
    p,
    `${key}.post_logout_redirect_uris`,
    raw.post_logout_redirect_uris,
    callbackUrlProblem,
  );
  const backchannel = backchannelLogoutUri(p, `${key}.backchannel_logout_uri`, raw.backchannel_logout_uri, callbacks);
  // A custom token signs a user in without their credentials: never to a client whose user tokens
  // reach the management API.
  if (raw.custom_token_login === true && mgmt.length)
    p.add(`${key}.custom_token_login`, 'a client with management_scopes cannot accept custom token sign-in');
  if (server) {
    // A resource server only introspects tokens: it signs no one in and is issued no token.
    const only = 'a resource server may only introspect tokens: leave this empty';
    if (grants.length) p.add(`${key}.grant_types`, only);
    if (responseTypes.length) p.add(`${key}.response_types`, only);
    if (callbacks.length) p.add(`${key}.allowed_callback_urls`, only);
    if (origins.length) p.add(`${key}.allowed_origins`, only);
    if (mgmt.length) p.add(`${key}.management_scopes`, only);
    if (raw.implicit_flow === true) p.add(`${key}.implicit_flow`, only);
    if (postLogout.length) p.add(`${key}.post_logout_redirect_uris`, only);
    if (raw.custom_token_login === true) p.add(`${key}.custom_token_login`, only);
  }
  if (p.list.length > before) return null;
  return {
    client_id: id as string,
    name: (raw.name as string | undefined) ?? (id as string),
    type: type as ClientConfig['type'],
    client_secret: secret as string | undefined,
    jwt_algorithm: alg as ClientConfig['jwt_algorithm'],
    allowed_callback_urls: callbacks,
    allowed_origins: origins,
    sso: (raw.sso as boolean | undefined) ?? false,
    scope: (raw.scope as string | undefined) ?? DEFAULT_SCOPE,
    pkce_enforced: type === 'public' ? true : ((raw.pkce_enforced as boolean | undefined) ?? false),
    implicit_flow: (raw.implicit_flow as boolean | undefined) ?? false,
    response_types: [...new Set(responseTypes)] as ResponseTypeSetting[],
    post_logout_redirect_uris: [...new Set(postLogout)],
    backchannel_logout_uri: backchannel,
    backchannel_logout_session_required: (raw.backchannel_logout_session_required as boolean | undefined) ?? false,
    grant_types: [...new Set(grants)] as GrantType[],
    management_scopes: [...new Set(mgmt)] as ManagementScope[],
    custom_token_login: raw.custom_token_login === true,
  };
}
