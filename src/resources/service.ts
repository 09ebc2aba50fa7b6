// API resources (RFC 8707 resource indicators, RFC 9068 JWT access tokens): the APIs an administrator
// registers so clients can ask for tokens meant for them. A resource is named by an absolute URI (the
// tokens' `aud`), defines its own scopes, and says how its access tokens look: `jwt` (signed with the
// account's keys, verifiable from /jwks.json) or `opaque` (sealed, checked by introspection). The
// functions take the repositories they write, so the management API runs them in the transaction
// that also writes the audit row.
import { WardError } from '../errors/ward-error.js';
import { randomId } from '../lib/random.js';
import { SUPPORTED_SCOPES } from '../protocol/scopes.js';
import type { ApiResourceRow } from '../storage/sql/api-resources.js';
import type { Repos } from '../storage/storage.js';

export type TokenFormat = 'jwt' | 'opaque';
export const TOKEN_FORMATS: readonly TokenFormat[] = ['jwt', 'opaque'];

/** An API resource as the rest of Ward sees it. */
export interface ApiResource {
  id: string;
  identifier: string;
  name: string;
  scopes: string[];
  token_format: TokenFormat;
  /** Seconds; null: the account's access_token_ttl. */
  access_token_ttl: number | null;
  created_at: number;
  updated_at: number;
}

export interface ResourceInput {
  identifier: string;
  name: string;
  scopes?: string[];
  token_format?: TokenFormat;
  access_token_ttl?: number | null;
}

/** The scopes of OpenID Connect and Ward's own: a resource may not define them (they mean Ward's APIs). */
export const RESERVED_SCOPES: readonly string[] = SUPPORTED_SCOPES;

/** The bounds of a resource's access token lifetime, in seconds. */
export const TTL_BOUNDS = { min: 60, max: 86400 } as const;

type ResourceRepos = Pick<Repos, 'apiResources'>;

const invalid = (field: string, message: string) =>
  new WardError('invalidParameter', {
    description: `${field} ${message}`,
    details: [{ field, message, code: 'invalid' }],
  });

const FORBIDDEN_SCHEMES = /^(javascript|data|vbscript|file):$/i;
/** RFC 6749 3.3: scope-token = 1*( %x21 / %x23-5B / %x5D-7E ). */
const SCOPE_TOKEN = /^[\x21\x23-\x5b\x5d-\x7e]{1,128}$/;

/**
 * Why a value cannot name a resource, or null when it can: RFC 8707 2 wants an absolute URI without
 * a fragment. Ward also refuses userinfo and whitespace, and compares identifiers byte for byte.
 */
export function resourceIdentifierProblem(value: unknown): string | null {
  if (typeof value !== 'string' || value === '') return 'must be a non-empty string';
  if (value.length > 2048) return 'must be at most 2048 characters';
  if (/[\u0000-\u0020\u007f\\]/.test(value)) return 'must not contain spaces, control characters or backslashes';
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'must be an absolute URI';
  }
  if (FORBIDDEN_SCHEMES.test(url.protocol)) return 'must not use a javascript:, data:, vbscript: or file: scheme';
  if (value.includes('#')) return 'must not contain a fragment';
  if (url.username || url.password) return 'must not contain userinfo';
  return null;
}

function checkScopes(scopes: string[]): string[] {
  const seen = new Set<string>();
  for (const s of scopes) {
    if (!SCOPE_TOKEN.test(s)) throw invalid('scopes', `has an invalid scope: ${JSON.stringify(s.slice(0, 40))}`);
    if (RESERVED_SCOPES.includes(s)) throw invalid('scopes', `may not define ${s}: it is one of Ward's own scopes`);
    seen.add(s);
  }
  return [...seen];
}

function checkTtl(ttl: number | null | undefined): number | null {
  if (ttl === undefined || ttl === null) return null;
  if (!Number.isInteger(ttl) || ttl < TTL_BOUNDS.min || ttl > TTL_BOUNDS.max)
    throw invalid('access_token_ttl', `must be an integer from ${TTL_BOUNDS.min} to ${TTL_BOUNDS.max} seconds`);
  return ttl;
}

function checkIdentifier(identifier: string): string {
  const problem = resourceIdentifierProblem(identifier);
  if (problem) throw invalid('identifier', problem);
  return identifier;
}

export function toResource(row: ApiResourceRow): ApiResource {
  return { ...row, scopes: JSON.parse(row.scopes) as string[] };
}

const exists = (identifier: string) =>
  new WardError('resourceExists', { description: `An API resource with identifier ${identifier} exists` });

export async function createResource(tx: ResourceRepos, now: number, input: ResourceInput): Promise<ApiResource> {
  const row: ApiResourceRow = {
    id: randomId(),
    identifier: checkIdentifier(input.identifier),
    name: input.name,
    scopes: JSON.stringify(checkScopes(input.scopes ?? [])),
    token_format: input.token_format ?? 'jwt',
    access_token_ttl: checkTtl(input.access_token_ttl),
    created_at: now,
    updated_at: now,
  };
  if (!(await tx.apiResources.insert(row))) throw exists(row.identifier);
  return toResource(row);
}

/** The updated resource, or undefined when there is none with this id. */
export async function updateResource(
  tx: ResourceRepos,
  id: string,
  now: number,
  input: Partial<ResourceInput>,
): Promise<ApiResource | undefined> {
  const changes: Partial<Omit<ApiResourceRow, 'id' | 'created_at'>> = { updated_at: now };
  if (input.identifier !== undefined) changes.identifier = checkIdentifier(input.identifier);
  if (input.name !== undefined) changes.name = input.name;
  if (input.scopes !== undefined) changes.scopes = JSON.stringify(checkScopes(input.scopes));
  if (input.token_format !== undefined) changes.token_format = input.token_format;
  if (input.access_token_ttl !== undefined) changes.access_token_ttl = checkTtl(input.access_token_ttl);
  const row = await tx.apiResources.update(id, changes);
  if (row === 'taken') throw exists(changes.identifier ?? '');
  return row && toResource(row);
}

/** Reads the resources a `resource` parameter names (the protocol's one way in). */
export interface ResourceLookup {
  findByIdentifier(identifier: string): Promise<ApiResource | undefined>;
}

export function resourceLookup(repos: ResourceRepos): ResourceLookup {
  return {
    async findByIdentifier(identifier) {
      const row = await repos.apiResources.findByIdentifier(identifier);
      return row && toResource(row);
    },
  };
}
