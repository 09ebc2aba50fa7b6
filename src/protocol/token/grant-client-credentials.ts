// grant_type=client_credentials (RFC 6749 4.4): confidential clients that list the grant. Without a
// `resource` the token is for the management API: the scope may only name management scopes the
// client is allowed; none asked means all of them. With a `resource` (RFC 8707) the token's audience
// is that API resource (a JWT when its format says so): the client must list the resource in its
// client_credentials_resources, and the scope may only name scopes both the resource defines and the
// client was given there (none asked: all of those); an unknown or unlisted resource is invalid_target.
// No refresh token and no id_token (there is no user), and nothing written.
import { invalidScope, unauthorizedClient } from '../../errors/refusals.js';
import { WardError } from '../../errors/ward-error.js';
import type { ResourceLookup } from '../../resources/service.js';
import type { Params } from '../params.js';
import { isRefusal, resolveResource } from '../resource-indicator.js';
import { parseScope } from '../scopes.js';
import type { AuthenticatedClient } from './client-auth.js';
import type { TokenIssuer, TokenResponse } from '../issue-tokens.js';
import type { Storage } from '../../storage/storage.js';

/** The services this module uses (registry.ts builds them; the composition passes them in). */
export interface GrantClientCredentialsDeps {
  issueTokens: TokenIssuer;
  storage: Storage;
  resources: ResourceLookup;
}

export async function clientCredentialsGrant(
  r: GrantClientCredentialsDeps,
  auth: AuthenticatedClient,
  params: Params,
): Promise<TokenResponse> {
  const { client } = auth;
  if (client.type !== 'confidential')
    throw unauthorizedClient('A public client cannot use the client_credentials grant');
  const asked = parseScope(params.scope);
  if (asked === null) throw invalidScope('scope must be a space-separated string');
  const resource = await resolveResource(r.resources, params.resource);
  if (isRefusal(resource)) throw new WardError('invalidTarget', { description: resource.target });
  if (resource) {
    const given = client.client_credentials_resources[resource.identifier];
    if (!given)
      throw new WardError('invalidTarget', {
        description: 'This client may not ask client_credentials tokens for this resource',
      });
    const allowed = given.filter((s) => resource.scopes.includes(s));
    const refused = asked.filter((s) => !allowed.includes(s));
    if (refused.length) throw invalidScope(`This client may not ask for: ${refused.join(' ')}`);
    const scopes = asked.length ? asked : allowed;
    return r.issueTokens(r.storage, {
      client,
      user: null,
      grant: null,
      scopes,
      refresh: false,
      resource: resource.identifier,
    });
  }
  const refused = asked.filter((s) => !client.management_scopes.includes(s));
  if (refused.length) throw invalidScope(`This client may not ask for: ${refused.join(' ')}`);
  const scopes = asked.length ? asked : client.management_scopes;
  // No grant row: the token is the whole grant (no user, no refresh, nothing to revoke as a family).
  return r.issueTokens(r.storage, { client, user: null, grant: null, scopes, refresh: false });
}
