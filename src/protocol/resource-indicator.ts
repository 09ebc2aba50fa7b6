// Resource indicators (RFC 8707): the `resource` parameter names the API a token is for. Ward takes
// one per request (a parameter sent twice is refused like any other), compares it byte for byte with
// the identifiers of the registered API resources, and answers `invalid_target` for anything else
// (not an absolute URI, a fragment, no such resource). With a resource the request may ask for that
// resource's scopes beside Ward's own (openid, profile, offline_access...); without one, nothing
// changes: Ward's scopes only, and the sealed access tokens of before.
import { WardError } from '../errors/ward-error.js';
import type { ApiResource, ResourceLookup } from '../resources/service.js';
import { resourceIdentifierProblem } from '../resources/service.js';
import { unknownScopes } from './scopes.js';

/** The resource a `resource` parameter names: null when absent; a refusal when it names none Ward has. */
export async function resolveResource(
  lookup: ResourceLookup,
  value: unknown,
): Promise<ApiResource | null | { target: string }> {
  if (value === undefined || value === null || value === '') return null;
  if (Array.isArray(value)) return { target: 'Ward accepts one resource per request' };
  const problem = resourceIdentifierProblem(value);
  if (problem) return { target: `resource ${problem}` };
  const found = await lookup.findByIdentifier(value as string);
  return found ?? { target: 'resource is not an API resource of this server' };
}

export const isRefusal = (v: ApiResource | null | { target: string }): v is { target: string } =>
  v !== null && 'target' in v;

/**
 * The scopes of the request that neither Ward nor the resource defines (RFC 6749 3.3 invalid_scope).
 * Without a resource only Ward's own scopes are known.
 */
export function scopesBeyond(scopes: string[], resource: ApiResource | null): string[] {
  const unknown = unknownScopes(scopes);
  return resource ? unknown.filter((s) => !resource.scopes.includes(s)) : unknown;
}

/**
 * The token endpoint's rule for a grant made for a resource (or for none): a `resource` parameter, when
 * sent, must name the grant's own (RFC 8707 2.2: a token request cannot widen the audience the
 * authorization granted). Absent: the grant's audience is kept.
 */
export function checkGrantTarget(grantResource: string | null, value: unknown): void {
  if (value === undefined || value === null || value === '') return;
  if (typeof value !== 'string' || value !== grantResource)
    throw new WardError('invalidTarget', {
      description: grantResource
        ? 'resource differs from the one this grant was made for'
        : 'This grant was made without a resource: name it in the authorization request',
    });
}
