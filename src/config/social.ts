import { createPrivateKey } from 'node:crypto';
import type { SocialProviderConfig } from './types.js';
import { type Problems, checkKnownKeys } from './validate.js';

/**
 * Presets: only endpoints and claim mapping; nothing is fetched at start. Each key of a preset can be
 * overridden in the entry (the tests point `issuer` at a local simulator); the defaults are the real ones.
 * - microsoft: the multi-tenant `common` issuer (`organizations`, `consumers` or a tenant id by overriding
 *   `issuer`); its discovery names the issuer template `.../{tenantid}/v2.0`, checked against each
 *   id_token's `tid` (src/social/issuer-rule.ts).
 * - apple: the answer is posted (`form_post`); `client_secret` is the team's .p8 key, from which Ward
 *   mints the ES256 client secret JWT with `team_id` and `key_id` (src/social/apple-secret.ts).
 * - facebook: plain OAuth 2.0 (Facebook Login for the web is not OpenID Connect): the secret goes in
 *   the token request's body, no PKCE, the profile read from the Graph API's /me with its fields named
 *   and `appsecret_proof`. It says nothing of the email being verified, so it is not taken as verified.
 */
const PRESETS: Record<string, Partial<SocialProviderConfig>> = {
  google: {
    type: 'oidc',
    issuer: 'https://accounts.google.com',
    scopes: ['openid', 'email', 'profile'],
    label: 'Google',
  },
  microsoft: {
    type: 'oidc',
    issuer: 'https://login.microsoftonline.com/common/v2.0',
    scopes: ['openid', 'email', 'profile'],
    label: 'Microsoft',
  },
  apple: {
    type: 'oidc',
    issuer: 'https://appleid.apple.com',
    scopes: ['openid', 'email', 'name'],
    response_mode: 'form_post',
    label: 'Apple',
  },
  facebook: {
    type: 'oauth2',
    scopes: ['email', 'public_profile'],
    authorization_url: 'https://www.facebook.com/v19.0/dialog/oauth',
    token_url: 'https://graph.facebook.com/v19.0/oauth/access_token',
    userinfo_url: 'https://graph.facebook.com/v19.0/me?fields=id,first_name,last_name,email',
    claims: { sub: 'id', email: 'email', given_name: 'first_name', family_name: 'last_name' },
    token_endpoint_auth_method: 'client_secret_post',
    pkce: false,
    appsecret_proof: true,
    label: 'Facebook',
  },
};

const KEYS = [
  'name',
  'preset',
  'type',
  'client_id',
  'client_secret',
  'scopes',
  'issuer',
  'authorization_url',
  'token_url',
  'userinfo_url',
  'claims',
  'response_mode',
  'team_id',
  'key_id',
  'token_endpoint_auth_method',
  'pkce',
  'appsecret_proof',
  'label',
] as const;

/** The team's Sign in with Apple key: a PKCS#8 PEM of a P-256 private key (the .p8 file). */
function teamKeyProblem(pem: string): string | null {
  try {
    const key = createPrivateKey(pem);
    if (key.asymmetricKeyType === 'ec' && key.asymmetricKeyDetails?.namedCurve === 'prime256v1') return null;
  } catch {
    // reported below
  }
  return 'must be the team key (.p8 file: a PKCS#8 PEM P-256 private key) when team_id and key_id are given';
}

/** An endpoint must be https, or http on a loopback address (a provider run for tests or locally). */
function endpointProblem(v: unknown): string | null {
  if (typeof v !== 'string') return 'must be a URL';
  try {
    const u = new URL(v);
    if (u.protocol === 'https:' || (u.protocol === 'http:' && ['127.0.0.1', 'localhost', '[::1]'].includes(u.hostname)))
      return null;
    return 'must be https (http only on loopback)';
  } catch {
    return 'must be an absolute URL';
  }
}

export function validateSocialProviders(p: Problems, raw: unknown): SocialProviderConfig[] {
  if (raw === undefined) return [];
  if (!Array.isArray(raw)) {
    p.add('social_providers', 'must be an array');
    return [];
  }
  const out: SocialProviderConfig[] = [];
  raw.forEach((entry, i) => {
    const key = `social_providers[${i}]`;
    if (typeof entry !== 'object' || entry === null) {
      p.add(key, 'must be an object');
      return;
    }
    const e = entry as Record<string, unknown>;
    checkKnownKeys(p, key, e, KEYS);
    const preset = e.preset === undefined ? {} : PRESETS[String(e.preset)];
    if (!preset) {
      p.add(`${key}.preset`, `must be one of ${Object.keys(PRESETS).join(', ')}`);
      return;
    }
    const merged = { ...preset, ...e } as Record<string, unknown>;
    const name = merged.name ?? e.preset;
    if (typeof name !== 'string' || !/^[a-z0-9][a-z0-9_-]{0,39}$/.test(name)) {
      p.add(`${key}.name`, 'must be 1-40 characters of a-z 0-9 _ -');
      return;
    }
    if (out.some((x) => x.name === name)) {
      p.add(`${key}.name`, `duplicate provider ${name}`);
      return;
    }
    if (merged.type !== 'oidc' && merged.type !== 'oauth2') {
      p.add(`${key}.type`, 'must be "oidc" or "oauth2" (or give a preset)');
      return;
    }
    for (const k of ['client_id', 'client_secret'] as const)
      if (typeof merged[k] !== 'string' || merged[k] === '') p.add(`${key}.${k}`, 'is required');
    if (merged.type === 'oidc' && merged.issuer === undefined)
      p.add(`${key}.issuer`, 'is required for an oidc provider');
    if (merged.type === 'oauth2')
      for (const k of ['authorization_url', 'token_url', 'userinfo_url'] as const)
        if (merged[k] === undefined) p.add(`${key}.${k}`, 'is required for an oauth2 provider');
    for (const k of ['issuer', 'authorization_url', 'token_url', 'userinfo_url'] as const) {
      if (merged[k] !== undefined) {
        const problem = endpointProblem(merged[k]);
        if (problem) p.add(`${key}.${k}`, problem);
      }
    }
    const scopes = merged.scopes ?? (merged.type === 'oidc' ? ['openid', 'email', 'profile'] : []);
    if (!Array.isArray(scopes) || !scopes.every((s) => typeof s === 'string'))
      p.add(`${key}.scopes`, 'must be an array of strings');
    if (merged.claims !== undefined && (typeof merged.claims !== 'object' || merged.claims === null))
      p.add(`${key}.claims`, 'must be an object');
    if (merged.response_mode !== undefined && merged.response_mode !== 'query' && merged.response_mode !== 'form_post')
      p.add(`${key}.response_mode`, 'must be "query" or "form_post"');
    const auth = merged.token_endpoint_auth_method;
    if (auth !== undefined && auth !== 'client_secret_basic' && auth !== 'client_secret_post')
      p.add(`${key}.token_endpoint_auth_method`, 'must be "client_secret_basic" or "client_secret_post"');
    for (const k of ['pkce', 'appsecret_proof'] as const)
      if (merged[k] !== undefined && typeof merged[k] !== 'boolean') p.add(`${key}.${k}`, 'must be true or false');
    const teamKey = e.preset === 'apple' || merged.team_id !== undefined || merged.key_id !== undefined;
    if (teamKey) {
      for (const k of ['team_id', 'key_id'] as const)
        if (typeof merged[k] !== 'string' || !/^[A-Za-z0-9]{1,64}$/.test(merged[k] as string))
          p.add(`${key}.${k}`, 'is required with a team key: 1-64 letters and digits (as Apple shows it)');
      if (typeof merged.client_secret === 'string' && merged.client_secret !== '') {
        const problem = teamKeyProblem(merged.client_secret);
        if (problem) p.add(`${key}.client_secret`, problem);
      }
    }
    out.push({
      name,
      type: merged.type,
      client_id: merged.client_id as string,
      client_secret: merged.client_secret as string,
      scopes: scopes as string[],
      issuer: merged.issuer as string | undefined,
      authorization_url: merged.authorization_url as string | undefined,
      token_url: merged.token_url as string | undefined,
      userinfo_url: merged.userinfo_url as string | undefined,
      claims: merged.claims as Record<string, string> | undefined,
      ...(merged.response_mode === 'form_post' ? { response_mode: 'form_post' as const } : {}),
      ...(teamKey ? { team_id: merged.team_id as string, key_id: merged.key_id as string } : {}),
      ...(auth === 'client_secret_basic' || auth === 'client_secret_post' ? { token_endpoint_auth_method: auth } : {}),
      ...(merged.pkce === false ? { pkce: false } : {}),
      ...(merged.appsecret_proof === true ? { appsecret_proof: true } : {}),
      label: typeof merged.label === 'string' ? merged.label : name,
    });
  });
  return out;
}
