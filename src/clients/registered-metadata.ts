// The client metadata of RFC 7591 section 2 as Ward's client definitions: what a self-registering
// client (Dynamic Client Registration) or a Client ID Metadata Document may ask, checked by the same
// validation as an administrator's client (config/schema/client.ts), and shown back in RFC 7591's
// names. A registered client is always third-party (its users see the consent page) and always uses
// PKCE; it may be public (`none`), hold a secret (`client_secret_basic` / `client_secret_post`, either
// accepted), sign its client assertions with the secret (`client_secret_jwt`) or with its own key
// (`private_key_jwt`, with `jwks` or `jwks_uri`: RFC 7523, protocol/token/client-assertion.ts). A client
// registered for an assertion method may use no other; a private_key_jwt client is never shown a secret.
// A keyed client may also ask for signed request objects (request_object_signing_alg,
// require_signed_request_object: RFC 9101), and any client for DPoP at the token endpoint
// (dpop_bound_access_tokens: RFC 9449 5.2).
import { type ClientConfig, REQUEST_OBJECT_ALGS } from '../config/types.js';
import { Problems, validateClient } from '../config/validate.js';
import { WardError } from '../errors/ward-error.js';
import type { ClientRecord } from '../storage/sql/clients.js';

export const AUTH_METHODS = [
  'none',
  'client_secret_basic',
  'client_secret_post',
  'client_secret_jwt',
  'private_key_jwt',
] as const;
export type AuthMethod = (typeof AUTH_METHODS)[number];

/** The grants a registered client may use: none that skips the user or hands Ward a password. */
const GRANTS = ['authorization_code', 'refresh_token', 'urn:ietf:params:oauth:grant-type:device_code'] as const;
/** ID token algorithms a registered client may name (HS256 needs a secret). */
const ALGORITHMS = ['RS256', 'ES256', 'EdDSA', 'HS256'] as const;
/** Free-text metadata kept as registered and shown back (RFC 7591 section 2). */
const KEPT = ['contacts', 'software_id', 'software_version'] as const;

/** RFC 7591's names for the fields of Ward's client definition, for the error descriptions. */
const RFC_NAMES: Record<string, string> = {
  allowed_callback_urls: 'redirect_uris',
  name: 'client_name',
  jwt_algorithm: 'id_token_signed_response_alg',
};

/** A JWK Set given as metadata, or undefined; its keys are checked as an administrator's are. */
function optionalJwks(m: Record<string, unknown>): unknown {
  const v = m.jwks;
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'object' || Array.isArray(v)) throw invalidMetadata('jwks must be a JWK Set (an object with keys)');
  return v;
}

/** Boolean metadata of RFC 9101 10.5 and RFC 9449 5.2. */
const FLAGS = ['require_signed_request_object', 'dpop_bound_access_tokens'] as const;

export const invalidMetadata = (description: string) => new WardError('invalidClientMetadata', { description });

const isStringList = (v: unknown): v is string[] => Array.isArray(v) && v.every((x) => typeof x === 'string');

function optionalText(m: Record<string, unknown>, key: string): string | undefined {
  const v = m[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string') throw invalidMetadata(`${key} must be a string`);
  return v;
}

function subsetOf<T extends string>(
  m: Record<string, unknown>,
  key: string,
  allowed: readonly T[],
  fallback: T[],
): T[] {
  const v = m[key];
  if (v === undefined || v === null) return fallback;
  if (!isStringList(v)) throw invalidMetadata(`${key} must be an array of strings`);
  const refused = v.filter((x) => !(allowed as readonly string[]).includes(x));
  if (refused.length) throw invalidMetadata(`${key}: ${refused.join(', ')} not allowed (only ${allowed.join(', ')})`);
  return [...new Set(v)] as T[];
}

export interface ParsedMetadata {
  authMethod: AuthMethod;
  /** Ward's definition, without client_id and client_secret (the caller adds them). */
  definition: Omit<ClientConfig, 'client_id' | 'client_secret'>;
  /** What the clients table has no column for (contacts, software_id, software_version). */
  kept: Record<string, unknown>;
}

/**
 * Reads RFC 7591 metadata into a client definition and validates it as an administrator's client is
 * validated. Refusals: invalid_redirect_uri for the redirect URIs, invalid_client_metadata otherwise.
 * `defaultAuth` is RFC 7591's default (client_secret_basic) or a metadata document's (none);
 * `clientId` names the client (and is its name when it gives none); it must be a valid client id.
 */
export function parseMetadata(raw: unknown, defaultAuth: AuthMethod, clientId: string): ParsedMetadata {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    throw invalidMetadata('the client metadata must be a JSON object');
  const m = raw as Record<string, unknown>;
  if (m.software_statement !== undefined)
    throw new WardError('invalidSoftwareStatement', { description: 'software statements are not accepted' });
  const auth = m.token_endpoint_auth_method ?? defaultAuth;
  if (typeof auth !== 'string' || !(AUTH_METHODS as readonly string[]).includes(auth))
    throw invalidMetadata(`token_endpoint_auth_method must be one of ${AUTH_METHODS.join(', ')}`);
  const authMethod = auth as AuthMethod;
  const redirects = m.redirect_uris;
  if (!isStringList(redirects) || redirects.length === 0)
    throw new WardError('invalidRedirectUri', { description: 'redirect_uris must be a non-empty array of URLs' });
  const grants = subsetOf(m, 'grant_types', GRANTS, ['authorization_code']);
  if (!grants.includes('authorization_code'))
    throw invalidMetadata('grant_types must include authorization_code (the only grant a registered client starts)');
  subsetOf(m, 'response_types', ['code'], ['code']);
  const alg = optionalText(m, 'id_token_signed_response_alg') ?? 'RS256';
  if (!(ALGORITHMS as readonly string[]).includes(alg))
    throw invalidMetadata(`id_token_signed_response_alg must be one of ${ALGORITHMS.join(', ')}`);
  const postLogout = m.post_logout_redirect_uris ?? [];
  if (!isStringList(postLogout)) throw invalidMetadata('post_logout_redirect_uris must be an array of URLs');
  const kept: Record<string, unknown> = {};
  for (const k of KEPT) {
    const v = m[k];
    if (v === undefined || v === null) continue;
    if (
      k === 'contacts'
        ? !isStringList(v) || v.length > 20 || v.some((x) => x.length > 320)
        : typeof v !== 'string' || v.length > 200
    )
      throw invalidMetadata(`${k} is malformed`);
    kept[k] = v;
  }
  const assertion = authMethod === 'client_secret_jwt' || authMethod === 'private_key_jwt';
  const jwks = optionalJwks(m);
  const jwksUri = optionalText(m, 'jwks_uri');
  if (authMethod === 'private_key_jwt' && !jwks === !jwksUri)
    throw invalidMetadata('private_key_jwt needs exactly one of jwks and jwks_uri');
  if (authMethod !== 'private_key_jwt' && (jwks || jwksUri))
    throw invalidMetadata('jwks and jwks_uri are taken only with token_endpoint_auth_method private_key_jwt');
  if (authMethod === 'private_key_jwt' && alg === 'HS256')
    throw invalidMetadata(
      'id_token_signed_response_alg HS256 needs a client secret; a private_key_jwt client has none',
    );
  const requirePar = m.require_pushed_authorization_requests ?? false;
  if (typeof requirePar !== 'boolean') throw invalidMetadata('require_pushed_authorization_requests must be a boolean');
  const flags = {} as Record<(typeof FLAGS)[number], boolean>;
  for (const k of FLAGS) {
    const v = m[k] ?? false;
    if (typeof v !== 'boolean') throw invalidMetadata(`${k} must be a boolean`);
    flags[k] = v;
  }
  const requestAlg = optionalText(m, 'request_object_signing_alg') ?? null;
  if (requestAlg !== null && !(REQUEST_OBJECT_ALGS as readonly string[]).includes(requestAlg))
    throw invalidMetadata(`request_object_signing_alg must be one of ${REQUEST_OBJECT_ALGS.join(', ')}`);
  const candidate = {
    client_id: clientId,
    name: optionalText(m, 'client_name') ?? undefined,
    type: authMethod === 'none' ? 'public' : 'confidential',
    // A placeholder of the right length for the validation only: the caller sets the real one.
    ...(authMethod === 'none' ? {} : { client_secret: 'x'.repeat(43) }),
    jwt_algorithm: alg,
    allowed_callback_urls: redirects,
    post_logout_redirect_uris: postLogout,
    grant_types: grants,
    response_types: ['code'],
    pkce_enforced: true,
    first_party: false,
    ...(optionalText(m, 'scope') ? { scope: optionalText(m, 'scope') } : {}),
    logo_uri: optionalText(m, 'logo_uri') ?? null,
    client_uri: optionalText(m, 'client_uri') ?? null,
    policy_uri: optionalText(m, 'policy_uri') ?? null,
    tos_uri: optionalText(m, 'tos_uri') ?? null,
    token_endpoint_auth_method: assertion ? authMethod : null,
    jwks: jwks ?? null,
    jwks_uri: jwksUri ?? null,
    require_pushed_authorization_requests: requirePar,
    request_object_signing_alg: requestAlg,
    ...flags,
  };
  if (candidate.name === undefined) delete candidate.name;
  const p = new Problems();
  const def = validateClient(p, 'client', candidate);
  if (!def) {
    const described = p.list.map((line) =>
      line.replace(/^client\.([a-z_]+)/, (_, f: string) => RFC_NAMES[f] ?? f).replace(/^client: /, ''),
    );
    const onRedirects = p.list.every((line) => line.startsWith('client.allowed_callback_urls'));
    throw onRedirects
      ? new WardError('invalidRedirectUri', { description: described.join('; ') })
      : invalidMetadata(described.join('; '));
  }
  const { client_id: _id, client_secret: _s, ...definition } = def;
  return { authMethod, definition, kept };
}

/** A registered client in RFC 7591's names (section 3.2.1), without credentials. */
export function metadataOf(
  c: ClientRecord,
  authMethod: AuthMethod,
  kept: Record<string, unknown>,
): Record<string, unknown> {
  const out: Record<string, unknown> = {
    client_id: c.client_id,
    client_name: c.name,
    redirect_uris: c.allowed_callback_urls,
    token_endpoint_auth_method: authMethod,
    grant_types: c.grant_types,
    response_types: c.response_types,
    scope: c.scope,
    id_token_signed_response_alg: c.jwt_algorithm,
    post_logout_redirect_uris: c.post_logout_redirect_uris,
    require_pushed_authorization_requests: c.require_pushed_authorization_requests,
    require_signed_request_object: c.require_signed_request_object,
    dpop_bound_access_tokens: c.dpop_bound_access_tokens,
    ...(c.request_object_signing_alg ? { request_object_signing_alg: c.request_object_signing_alg } : {}),
    ...kept,
  };
  for (const k of ['logo_uri', 'client_uri', 'policy_uri', 'tos_uri', 'jwks', 'jwks_uri'] as const)
    if (c[k]) out[k] = c[k];
  return out;
}
