import { createPrivateKey } from 'node:crypto';
import { type Static, Type } from 'typebox';
import { type ProblemSink, type Rule, checkValue } from './check.js';
import { flag, group, list, oneOf, text } from './kit.js';
import { PRESETS, PRESET_NAMES } from './social-presets.js';

/** A provider's name: also the management API's path parameter. */
export const PROVIDER_NAME_PATTERN = '^[a-z0-9][a-z0-9_-]{0,39}$';

const endpoint = (description: string) => Type.Optional(text(description, { max: 2048, check: 'endpoint' }));
const optional = Type.Optional;

const fields = {
  name: text('The name in /oauth/authorize?provider=<name> and the callback path (default: the preset).', {
    pattern: PROVIDER_NAME_PATTERN,
    allowed: '1-40 characters of a-z 0-9 _ -',
  }),
  type: oneOf(
    ['oidc', 'oauth2'],
    undefined,
    '`oidc` (discovery from the issuer) or `oauth2` (endpoints given); a preset gives it.',
  ),
  client_id: text('The client id Ward has at the provider.', { min: 1, max: 512 }),
  client_secret: text('Its secret (with a team key: the .p8 PEM). Never shown by the API.', { min: 1, max: 2048 }),
  scopes: list(
    text('A scope.', { max: 100 }),
    20,
    'Scopes asked of the provider (default for oidc: openid email profile).',
    { value: null },
  ),
  issuer: endpoint('oidc: the issuer; discovery is read from <issuer>/.well-known/openid-configuration at first use.'),
  authorization_url: endpoint('oauth2 (or an oidc provider without discovery): the authorization endpoint.'),
  token_url: endpoint('oauth2: the token endpoint.'),
  userinfo_url: endpoint('oauth2: the profile endpoint.'),
  claims: optional(
    Type.Record(Type.String(), text('A claim name.', { max: 100 }), {
      maxProperties: 10,
      description: 'oauth2: profile claim names, e.g. {"sub": "id", "email": "email"}.',
    }),
  ),
  response_mode: optional(
    oneOf(
      ['query', 'form_post'],
      undefined,
      'How the provider answers: `query` (a redirect, the default) or `form_post` (Apple).',
    ),
  ),
  team_id: optional(
    text('Apple: the team id (with key_id, client_secret holds the team key).', {
      pattern: '^[A-Za-z0-9]{1,64}$',
      allowed: '1-64 letters and digits (as Apple shows it)',
    }),
  ),
  key_id: optional(
    text("Apple: the id of the team's Sign in with Apple key.", {
      pattern: '^[A-Za-z0-9]{1,64}$',
      allowed: '1-64 letters and digits (as Apple shows it)',
    }),
  ),
  token_endpoint_auth_method: optional(
    oneOf(
      ['client_secret_basic', 'client_secret_post'],
      undefined,
      'How the token request carries the secret: HTTP Basic (the default) or the form body (Apple, Facebook).',
    ),
  ),
  pkce: optional(flag(undefined, 'PKCE (S256) on the authorization and token requests; on unless false.')),
  appsecret_proof: optional(flag(undefined, 'Facebook: `appsecret_proof` on the profile request.')),
  label: text('The label of the login button (default: the name).', { max: 100 }),
};

/** An upstream identity provider for social login, as Ward keeps it. */
export const SocialProviderSchema = group(fields, 'A social login provider.', [
  'name',
  'type',
  'client_id',
  'client_secret',
]);
export type SocialProviderConfig = Static<typeof SocialProviderSchema>;

/** What the config file and the management API accept: a provider, or a preset and what it lacks. */
export const SocialProviderInput = group(
  {
    ...fields,
    preset: oneOf(
      PRESET_NAMES,
      undefined,
      "google, microsoft, apple or facebook: their endpoints and claims; any key overrides the preset's.",
    ),
  },
  'A social login provider, or a preset.',
  ['name', 'type', 'client_id', 'client_secret'],
);

/** The team's Sign in with Apple key: a PKCS#8 PEM of a P-256 private key (the .p8 file). */
function isTeamKey(pem: string): boolean {
  try {
    const key = createPrivateKey(pem);
    return key.asymmetricKeyType === 'ec' && key.asymmetricKeyDetails?.namedCurve === 'prime256v1';
  } catch {
    return false;
  }
}

type Input = SocialProviderConfig & { preset?: string };
const usesTeamKey = (e: Input) => e.preset === 'apple' || e.team_id !== undefined || e.key_id !== undefined;

/** Each type needs its endpoints: an issuer for oidc, the three URLs for oauth2. */
const endpointsByType: Rule<Input> = (e, add) => {
  if (e.type === 'oidc' && e.issuer === undefined) add('.issuer', 'is required for an oidc provider');
  if (e.type === 'oauth2')
    for (const k of ['authorization_url', 'token_url', 'userinfo_url'] as const)
      if (e[k] === undefined) add(`.${k}`, 'is required for an oauth2 provider');
};

/** With a team key (Apple), the team id and key id are needed and the secret is the key itself. */
const teamKey: Rule<Input> = (e, add) => {
  if (!usesTeamKey(e)) return;
  for (const k of ['team_id', 'key_id'] as const)
    if (e[k] === undefined) add(`.${k}`, 'is required with a team key: 1-64 letters and digits (as Apple shows it)');
  if (typeof e.client_secret === 'string' && e.client_secret !== '' && !isTeamKey(e.client_secret))
    add(
      '.client_secret',
      'must be the team key (.p8 file: a PKCS#8 PEM P-256 private key) when team_id and key_id are given',
    );
};

/** The provider as kept: only the options that differ from the defaults. */
function kept(e: Input): SocialProviderConfig {
  const {
    preset: _preset,
    response_mode,
    team_id,
    key_id,
    token_endpoint_auth_method: auth,
    pkce,
    appsecret_proof,
    ...rest
  } = e;
  return {
    ...rest,
    scopes: e.scopes ?? (e.type === 'oidc' ? ['openid', 'email', 'profile'] : []),
    ...(response_mode === 'form_post' ? { response_mode } : {}),
    ...(usesTeamKey(e) ? { team_id, key_id } : {}),
    ...(auth ? { token_endpoint_auth_method: auth } : {}),
    ...(pkce === false ? { pkce } : {}),
    ...(appsecret_proof === true ? { appsecret_proof } : {}),
    label: e.label ?? e.name,
  } as SocialProviderConfig;
}

/** Validates the `social_providers` list (config file, or one entry of the management API). */
export function validateSocialProviders(p: ProblemSink, raw: unknown): SocialProviderConfig[] {
  if (raw === undefined) return [];
  if (!Array.isArray(raw)) {
    p.add('social_providers', 'must be an array');
    return [];
  }
  const out: SocialProviderConfig[] = [];
  raw.forEach((entry, i) => {
    const key = `social_providers[${i}]`;
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
      p.add(key, 'must be an object');
      return;
    }
    const e = entry as Record<string, unknown>;
    const preset = e.preset === undefined ? {} : PRESETS[String(e.preset) as (typeof PRESET_NAMES)[number]];
    if (!preset) {
      p.add(`${key}.preset`, `must be one of ${PRESET_NAMES.join(', ')}`);
      return;
    }
    const merged = { ...structuredClone(preset), ...e, name: e.name ?? e.preset };
    const def = checkValue<Input>(p, key, SocialProviderInput, merged, [endpointsByType, teamKey]);
    if (!def) return;
    if (out.some((x) => x.name === def.name)) p.add(`${key}.name`, `duplicate provider ${def.name}`);
    else out.push(kept(def));
  });
  return out;
}
