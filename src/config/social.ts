import type { SocialProviderConfig } from './types.js';
import { Problems, checkKnownKeys } from './validate.js';

/** Presets: only endpoints and claim mapping; nothing is fetched at start. */
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
    label: 'Apple',
    authorization_url: 'https://appleid.apple.com/auth/authorize',
    token_url: 'https://appleid.apple.com/auth/token',
  },
  facebook: {
    type: 'oauth2',
    scopes: ['email', 'public_profile'],
    label: 'Facebook',
    authorization_url: 'https://www.facebook.com/v19.0/dialog/oauth',
    token_url: 'https://graph.facebook.com/v19.0/oauth/access_token',
    userinfo_url: 'https://graph.facebook.com/me?fields=id,email,first_name,last_name',
    claims: { sub: 'id', email: 'email', given_name: 'first_name', family_name: 'last_name' },
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
  'label',
] as const;

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
    if (typeof entry !== 'object' || entry === null) return p.add(key, 'must be an object');
    const e = entry as Record<string, unknown>;
    checkKnownKeys(p, key, e, KEYS);
    const preset = e.preset === undefined ? {} : PRESETS[String(e.preset)];
    if (!preset) return p.add(`${key}.preset`, `must be one of ${Object.keys(PRESETS).join(', ')}`);
    const merged = { ...preset, ...e } as Record<string, unknown>;
    const name = merged.name ?? e.preset;
    if (typeof name !== 'string' || !/^[a-z0-9][a-z0-9_-]{0,39}$/.test(name))
      return p.add(`${key}.name`, 'must be 1-40 characters of a-z 0-9 _ -');
    if (out.some((x) => x.name === name)) return p.add(`${key}.name`, `duplicate provider ${name}`);
    if (merged.type !== 'oidc' && merged.type !== 'oauth2')
      return p.add(`${key}.type`, 'must be "oidc" or "oauth2" (or give a preset)');
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
      label: typeof merged.label === 'string' ? merged.label : name,
    });
  });
  return out;
}
