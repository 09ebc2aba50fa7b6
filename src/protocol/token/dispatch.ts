import { WardError } from '../../errors/ward-error.js';
import { DEVICE_CODE_GRANT } from '../../config/schema/client.js';
import { invalidClient, unauthorizedClient } from '../../errors/refusals.js';
import { requiredStr, type Params } from '../params.js';
import type { TokenResponse } from '../issue-tokens.js';
import { authenticateClient } from './client-auth.js';
import { authorizationCodeGrant } from './grant-authorization-code.js';
import { clientCredentialsGrant } from './grant-client-credentials.js';
import { deviceCodeGrant } from './grant-device-code.js';
import { refreshTokenGrant } from './grant-refresh-token.js';
import { passwordGrant, type GrantContext } from './grant-password.js';
import { bindingIssuer, tokenRequestKey } from '../dpop/token-endpoint.js';
import { type DpopVerifier, proofError } from '../dpop/proof.js';

/** What the token endpoint and its grants read. */
type TokenDeps = Parameters<typeof authorizationCodeGrant>[0] &
  Parameters<typeof refreshTokenGrant>[0] &
  Parameters<typeof clientCredentialsGrant>[0] &
  Parameters<typeof passwordGrant>[0] &
  Parameters<typeof deviceCodeGrant>[0] &
  Parameters<typeof authenticateClient>[0] & { dpop: DpopVerifier };

type Grant = (
  r: TokenDeps,
  auth: Awaited<ReturnType<typeof authenticateClient>>,
  params: Params,
  context: GrantContext,
) => Promise<TokenResponse>;

const GRANTS: Record<string, Grant> = {
  authorization_code: authorizationCodeGrant,
  refresh_token: refreshTokenGrant,
  client_credentials: clientCredentialsGrant,
  password: passwordGrant,
  [DEVICE_CODE_GRANT]: deviceCodeGrant,
};

/** POST /oauth/token: authenticate the client, then the grant named by grant_type. */
export async function tokenEndpoint(
  r: TokenDeps,
  authorization: string | undefined,
  params: Params,
  context: GrantContext,
): Promise<TokenResponse> {
  const grantType = requiredStr(params, 'grant_type', 100);
  const auth = await authenticateClient(r, authorization, params);
  const grant = GRANTS[grantType];
  if (!grant)
    throw new WardError('unsupportedGrantType', {
      description: `grant_type ${grantType.slice(0, 40)} is not supported`,
    });
  // A resource server only introspects: no grant at all (told only to one that authenticated).
  if (auth.client.type === 'resource_server') {
    if (!auth.authenticated) throw invalidClient('Client authentication failed');
    throw new WardError('resourceServerOnly');
  }
  // A confidential client without its secret may only redeem a Messenger code (checked by that grant).
  if (!auth.authenticated && grantType !== 'authorization_code') throw invalidClient('Client authentication failed');
  // Each client uses only the grants it lists (a public client never lists client_credentials; the
  // password grant is listed only by a client that opted in).
  if (!auth.client.grant_types.includes(grantType as never))
    throw unauthorizedClient(`This client may not use the ${grantType} grant`);
  // DPoP (RFC 9449 5): with a proof, the access token is bound to its key.
  const dpopJkt = await tokenRequestKey(r, context.dpop);
  // RFC 9449 5.2: a client registered with dpop_bound_access_tokens sends a proof every time.
  if (dpopJkt === null && auth.client.dpop_bound_access_tokens)
    throw proofError('token', 'This client must send a DPoP proof with its token requests (dpop_bound_access_tokens)');
  return grant(bindingIssuer(r, dpopJkt), auth, params, { ...context, dpopJkt });
}
