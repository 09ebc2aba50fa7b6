import { WardError } from '../../errors/ward-error.js';
import { invalidScope } from '../../errors/refusals.js';
import { parseScope, unknownScopes } from '../../protocol/scopes.js';
import { requiredStr, type Params } from '../../protocol/params.js';
import type { ClientService } from '../../clients/service.js';

/** The services this module uses (registry.ts builds them; the composition passes them in). */
export interface IdentityRequestDeps {
  clients: ClientService;
}

export const isJson = (ct: string | undefined) => !!ct?.startsWith('application/json');

/** The first language of a request's Accept-Language (what the messages it sends are written in). */
export const localeOf = (req: { headers: Record<string, string | string[] | undefined> }): string | undefined =>
  (req.headers['accept-language'] as string | undefined)?.split(',')[0]?.trim();

/** The client an identity API call names by client_id: known, and not a resource server. */
export async function clientOf(r: IdentityRequestDeps, params: Params) {
  const id = requiredStr(params, 'client_id', 128);
  const client = await r.clients.find(id);
  if (!client) throw new WardError('unknownClient');
  // A resource server only introspects tokens: it signs no one up or in.
  if (client.type === 'resource_server') throw new WardError('resourceServerOnly');
  return client;
}

/** The scope of an identity API call: space-separated, every value known. */
export function scopeOf(params: Params): string[] {
  const scopes = parseScope(params.scope);
  if (scopes === null) throw invalidScope('scope must be a space-separated string');
  const unknown = unknownScopes(scopes);
  if (unknown.length) throw invalidScope(`Unknown scope: ${unknown.join(' ')}`);
  return scopes;
}
