// The rules a client definition must meet beyond its schema (schema/client.ts), its defaults by
// type, and the validation of one definition (the config file, the management API, registration).
import { type ProblemSink, type Rule, checkValue, mergeOver } from './check.js';
import { type ClientConfig, ClientSchema } from './client.js';
import { defaultsOf } from './kit.js';

const CLIENT_DEFAULTS = defaultsOf<Omit<ClientConfig, 'client_id' | 'name'>>(ClientSchema);

/** Secrets: none for a public client; at least 32 octets for the others (OpenID Connect Core 16.19). */
const secretByType: Rule<ClientConfig> = (c, add) => {
  const secret: unknown = c.client_secret;
  if (c.type === 'public' && secret !== undefined) add('.client_secret', 'a public client has no secret');
  if (c.type === 'confidential' || c.type === 'resource_server') {
    if (typeof secret !== 'string')
      add('.client_secret', `a ${c.type} client needs a client_secret of at least 32 characters`);
    else if (Buffer.byteLength(secret) < 32)
      add('.client_secret', 'must be at least 32 bytes (OpenID Connect Core 16.19)');
  }
};

/** A public client holds no secret: no HS256, no client_credentials, no implicit flow, always PKCE. */
const publicLimits: Rule<ClientConfig> = (c, add) => {
  if (c.type !== 'public') return;
  if (c.jwt_algorithm === 'HS256')
    add('.jwt_algorithm', 'HS256 needs a client secret: a public client must use RS256, ES256 or EdDSA');
  if (c.pkce_enforced === false) add('.pkce_enforced', 'a public client always needs PKCE (RFC 9700 section 2.1.1)');
  if (c.implicit_flow === true) add('.implicit_flow', 'a public client cannot use the implicit flow');
  if (Array.isArray(c.grant_types) && c.grant_types.includes('client_credentials'))
    add('.grant_types', 'a public client cannot use client_credentials');
};

/** A custom token signs a user in without credentials: never to a client whose tokens reach the management API. */
const customTokenWithoutManagement: Rule<ClientConfig> = (c, add) => {
  if (c.custom_token_login === true && Array.isArray(c.management_scopes) && c.management_scopes.length)
    add('.custom_token_login', 'a client with management_scopes cannot accept custom token sign-in');
};

/** A resource server only introspects tokens: it signs no one in and is issued no token. */
const resourceServerOnlyIntrospects: Rule<ClientConfig> = (c, add) => {
  if (c.type !== 'resource_server') return;
  const only = 'a resource server may only introspect tokens: leave this empty';
  for (const k of [
    'grant_types',
    'response_types',
    'allowed_callback_urls',
    'allowed_origins',
    'management_scopes',
    'post_logout_redirect_uris',
  ] as const)
    if (Array.isArray(c[k]) && c[k].length) add(`.${k}`, only);
  if (c.implicit_flow === true) add('.implicit_flow', only);
  if (c.custom_token_login === true) add('.custom_token_login', only);
};

/** Back-Channel Logout 1.0 section 2.2: the URI is on the scheme, host and port of a callback URL. */
const backchannelOnCallbackOrigin: Rule<ClientConfig> = (c, add) => {
  const uri: unknown = c.backchannel_logout_uri;
  if (typeof uri !== 'string' || !URL.canParse(uri) || !Array.isArray(c.allowed_callback_urls)) return;
  const origins = new Set(c.allowed_callback_urls.map((u) => (URL.canParse(u) ? new URL(u).origin : null)));
  if (!origins.has(new URL(uri).origin))
    add('.backchannel_logout_uri', 'must have the scheme, host and port of one of the allowed_callback_urls');
};

/** JWK members that only a private or symmetric key has: never in a client's registered keys. */
const PRIVATE_JWK_MEMBERS = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'k'];

/** The method fits the type; private_key_jwt has its keys (jwks or jwks_uri, one of them), public keys only. */
const authMethodKeys: Rule<ClientConfig> = (c, add) => {
  const method: unknown = c.token_endpoint_auth_method;
  if (c.type === 'public' && method !== null && method !== undefined && method !== 'none')
    add('.token_endpoint_auth_method', 'a public client has no credentials: none (or null)');
  if (c.type !== 'public' && method === 'none')
    add('.token_endpoint_auth_method', `a ${c.type} client authenticates: not none`);
  const hasJwks = c.jwks !== null && c.jwks !== undefined;
  const hasUri = c.jwks_uri !== null && c.jwks_uri !== undefined;
  if (method === 'private_key_jwt' && hasJwks === hasUri)
    add('.jwks', 'private_key_jwt needs exactly one of jwks and jwks_uri');
  if (method !== 'private_key_jwt' && (hasJwks || hasUri))
    add(hasJwks ? '.jwks' : '.jwks_uri', 'only a private_key_jwt client has registered keys');
  const keys: unknown = (c.jwks as { keys?: unknown } | null | undefined)?.keys;
  if (!Array.isArray(keys)) return;
  keys.forEach((k: Record<string, unknown>, i) => {
    if (typeof k.kty !== 'string' || !['RSA', 'EC', 'OKP'].includes(k.kty))
      add(`.jwks.keys[${i}]`, 'must be a public RSA, EC or OKP key (kty)');
    else if (PRIVATE_JWK_MEMBERS.some((m) => m in k)) add(`.jwks.keys[${i}]`, 'must be a public key (no private part)');
  });
};

/** Request objects are verified with the client's registered keys; API resources need client_credentials. */
const requestObjectsAndResources: Rule<ClientConfig> = (c, add) => {
  const keyed = (c.jwks !== null && c.jwks !== undefined) || (c.jwks_uri !== null && c.jwks_uri !== undefined);
  if (c.require_signed_request_object === true && !keyed)
    add('.require_signed_request_object', 'needs the keys its request objects are signed with (jwks or jwks_uri)');
  if (typeof c.request_object_signing_alg === 'string' && !keyed)
    add('.request_object_signing_alg', 'needs the keys its request objects are signed with (jwks or jwks_uri)');
  const resources = c.client_credentials_resources;
  if (resources && typeof resources === 'object' && Object.keys(resources).length) {
    if (!Array.isArray(c.grant_types) || !c.grant_types.includes('client_credentials'))
      add('.client_credentials_resources', 'needs the client_credentials grant');
  }
};

/** The defaults that depend on the client's type (a resource server asks for nothing, a public client needs PKCE). */
function defaultsFor(raw: Record<string, unknown>): Record<string, unknown> {
  const base: Record<string, unknown> = { ...structuredClone(CLIENT_DEFAULTS) };
  if (typeof raw.client_id === 'string') base.name = raw.client_id;
  if (raw.type === 'resource_server') Object.assign(base, { grant_types: [], response_types: [] });
  if ((raw.type ?? 'public') === 'public') base.pkce_enforced = true;
  return base;
}

/** Validates one client definition (config file or management API); null when refused. */
export function validateClient(p: ProblemSink, key: string, raw: unknown): ClientConfig | null {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    p.add(key, 'must be an object');
    return null;
  }
  const def = raw as Record<string, unknown>;
  const c = checkValue<ClientConfig>(p, key, ClientSchema, mergeOver(defaultsFor(def), def), [
    secretByType,
    publicLimits,
    customTokenWithoutManagement,
    resourceServerOnlyIntrospects,
    backchannelOnCallbackOrigin,
    authMethodKeys,
    requestObjectsAndResources,
  ]);
  if (!c) return null;
  const unique = <T>(xs: T[]): T[] => [...new Set(xs)];
  return {
    ...c,
    response_types: unique(c.response_types),
    post_logout_redirect_uris: unique(c.post_logout_redirect_uris),
    grant_types: unique(c.grant_types),
    management_scopes: unique(c.management_scopes),
  };
}
