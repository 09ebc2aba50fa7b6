// grant_type=client_credentials (RFC 6749 4.4): confidential clients that list the grant, for the
// management API. The scope may only name management scopes the client is allowed; none asked
// means all of them. No refresh token and no id_token (there is no user), and nothing written.
import { invalidScope, unauthorizedClient } from '../../errors/refusals.js';
import { WardError } from '../../errors/ward-error.js';
import type { Params } from '../params.js';
import { parseScope } from '../scopes.js';
import type { AuthenticatedClient } from './client-auth.js';
import type { TokenIssuer, TokenResponse } from '../issue-tokens.js';
import type { Storage } from '../../storage/storage.js';

/** The services this module uses (registry.ts builds them; the composition passes them in). */
export interface GrantClientCredentialsDeps {
  issueTokens: TokenIssuer;
  storage: Storage;
}

export async function clientCredentialsGrant(
  r: GrantClientCredentialsDeps,
  auth: AuthenticatedClient,
  params: Params,
): Promise<TokenResponse> {
  const { client } = auth;
  if (client.type !== 'confidential')
    throw unauthorizedClient('A public client cannot use the client_credentials grant');
  // No API resource tokens through this grant: nothing says which client may call which API on its
  // own behalf, so a resource is refused rather than open to every management client (RFC 8707 2.2).
  if (params.resource !== undefined && params.resource !== null && params.resource !== '')
    throw new WardError('invalidTarget', {
      description: 'client_credentials tokens are for the management API: resource is not supported with this grant',
    });
  const asked = parseScope(params.scope);
  if (asked === null) throw invalidScope('scope must be a space-separated string');
  const refused = asked.filter((s) => !client.management_scopes.includes(s));
  if (refused.length) throw invalidScope(`This client may not ask for: ${refused.join(' ')}`);
  const scopes = asked.length ? asked : client.management_scopes;
  // No grant row: the token is the whole grant (no user, no refresh, nothing to revoke as a family).
  return r.issueTokens(r.storage, { client, user: null, grant: null, scopes, refresh: false });
}
