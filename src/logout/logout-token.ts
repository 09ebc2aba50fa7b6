// The logout_token of Back-Channel Logout 1.0 (section 2.4): a JWT naming the user (`sub`) and the
// session (`sid`) that ended, with the back-channel logout event and never a nonce, typed
// `logout+jwt` so that no relying party can take it for an ID token (RFC 8725 3.11). It is signed
// like the client's ID tokens (HS256 with its secret, or its current key of its family).
import type { Client, ClientService } from '../clients/service.js';
import { joseJws } from '../keys/jwt.js';
import type { KeyStore } from '../keys/key-store.js';
import { seconds } from '../lib/clock.js';
import { randomId } from '../lib/random.js';
import { signForClient } from '../protocol/id-token.js';

export const BACKCHANNEL_LOGOUT_EVENT = 'http://schemas.openid.net/event/backchannel-logout';
export const LOGOUT_TOKEN_TYPE = 'logout+jwt';
/** Signed at each attempt, so it needs to live only as long as one delivery takes. */
const LOGOUT_TOKEN_TTL_SECONDS = 120;

export async function signLogoutToken(
  client: Client,
  ended: { sub: string; sid: string },
  deps: { issuer: string; now: number; keys: KeyStore; clients: ClientService },
): Promise<string> {
  const iat = seconds(deps.now);
  const payload = {
    iss: deps.issuer,
    sub: ended.sub,
    aud: client.client_id,
    iat,
    exp: iat + LOGOUT_TOKEN_TTL_SECONDS,
    jti: randomId(),
    sid: ended.sid,
    events: { [BACKCHANNEL_LOGOUT_EVENT]: {} },
  };
  return signForClient(client, payload, { keys: deps.keys, clients: deps.clients, jws: joseJws }, LOGOUT_TOKEN_TYPE);
}
