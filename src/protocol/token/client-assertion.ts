// Rule: client authentication by a signed JWT (RFC 7521 4.2, RFC 7523 2.2 and 3, OpenID Connect Core 9):
// `client_assertion_type=urn:ietf:params:oauth:client-assertion-type:jwt-bearer` and `client_assertion`.
// - private_key_jwt: signed with the client's key (RS, PS, ES, EdDSA), verified against its registered
//   `jwks` or its `jwks_uri` (clients/client-keys.ts); client_secret_jwt: HS256/384/512 with its secret,
//   unsealed (secrets are sealed with the master key as well as digested, so the HMAC key is at hand).
// - `iss` and `sub` are the client_id (and equal client_id when the request also sends it).
// - `aud` is one value (a string, or an array of exactly one string, so an assertion minted for several
//   servers is refused: the audience injection the OAuth security BCP and draft-ietf-oauth-rfc7523bis
//   close): Ward's issuer identifier (what 7523bis asks), or, for clients written to RFC 7523 and OIDC
//   Core, the token endpoint URL.
// - `exp` is required and at most MAX_LIFETIME_S ahead; `nbf` and `iat` (when present) not in the future;
//   CLOCK_TOLERANCE_S of skew either way.
// - `jti` is required and used once: it is stored (one_time_tokens, kind client_assertion, keyed by a
//   digest of the client and the jti) until the assertion expires; a second use is refused, on any
//   process, by the primary key.
// Every refusal is invalid_client (401) with the reason.
import { hash } from 'node:crypto';
import { decodeJwt, errors, jwtVerify, type JWTPayload, type JWTVerifyGetKey } from 'jose';
import type { ClientKeys } from '../../clients/client-keys.js';
import { ClientKeysUnavailable } from '../../clients/client-keys.js';
import type { Client, ClientService } from '../../clients/service.js';
import { invalidClient } from '../../errors/refusals.js';
import type { Clock } from '../../lib/clock.js';
import type { Storage } from '../../storage/storage.js';

export const JWT_BEARER_ASSERTION = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';
/** private_key_jwt: asymmetric algorithms only. */
export const PRIVATE_KEY_JWT_ALGS = [
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
  'ES256',
  'ES384',
  'ES512',
  'EdDSA',
  // RFC 9864's fully specified name for EdDSA over Ed25519 (what oauth4webapi signs with).
  'Ed25519',
] as const;
/** client_secret_jwt: an HMAC with the client's secret. */
export const CLIENT_SECRET_JWT_ALGS = ['HS256', 'HS384', 'HS512'] as const;
/** The longest an assertion may still be valid when it arrives. */
export const MAX_LIFETIME_S = 600;
const CLOCK_TOLERANCE_S = 30;
const MAX_JTI = 256;

/** The services this module uses (registry.ts builds them; the composition passes them in). */
export interface ClientAssertionDeps {
  clients: Pick<ClientService, 'find' | 'secretOf'>;
  clientKeys: Pick<ClientKeys, 'verifyWith'>;
  storage: Pick<Storage, 'oneTime'>;
  clock: Clock;
  issuer: string;
}

export type AssertionMethod = 'private_key_jwt' | 'client_secret_jwt';

/** The audiences Ward answers to: its issuer identifier, and its token endpoint for older clients. */
export const acceptedAudiences = (issuer: string): string[] => [issuer, `${issuer}/oauth/token`];

function claimsOf(assertion: string): JWTPayload {
  try {
    return decodeJwt(assertion);
  } catch {
    throw invalidClient('client_assertion is not a JWT');
  }
}

/** Verifies a client assertion and records its jti; the client it authenticates and how. */
export async function verifyClientAssertion(
  deps: ClientAssertionDeps,
  assertion: string,
  clientIdParam: string | undefined,
): Promise<{ client: Client; method: AssertionMethod }> {
  const unverified = claimsOf(assertion);
  const clientId = unverified.sub;
  if (typeof clientId !== 'string' || !clientId || unverified.iss !== clientId)
    throw invalidClient('The client assertion must have iss and sub equal to the client_id');
  if (clientIdParam && clientIdParam !== clientId) throw invalidClient('client_id differs from the client assertion');
  const client = await deps.clients.find(clientId);
  if (!client) throw invalidClient('Client authentication failed');
  const method = client.token_endpoint_auth_method;
  if (method !== 'private_key_jwt' && method !== 'client_secret_jwt')
    throw invalidClient(
      `This client is not registered for client assertions (its method is ${method ?? (client.type === 'public' ? 'none' : 'client_secret_basic or client_secret_post')})`,
    );
  const audiences = acceptedAudiences(deps.issuer);
  const verify = async (key: JWTVerifyGetKey | Uint8Array) => {
    const options = {
      issuer: clientId,
      subject: clientId,
      algorithms: [...(method === 'private_key_jwt' ? PRIVATE_KEY_JWT_ALGS : CLIENT_SECRET_JWT_ALGS)],
      requiredClaims: ['exp', 'jti', 'aud'],
      clockTolerance: CLOCK_TOLERANCE_S,
      currentDate: new Date(deps.clock.now()),
    };
    return typeof key === 'function'
      ? (await jwtVerify(assertion, key, options)).payload
      : (await jwtVerify(assertion, key, options)).payload;
  };
  let payload: JWTPayload;
  try {
    payload =
      method === 'client_secret_jwt'
        ? await verify(Buffer.from(deps.clients.secretOf(client), 'utf8'))
        : await deps.clientKeys.verifyWith(client, (keys) => verify(keys));
  } catch (e) {
    throw invalidClient(`The client assertion was refused: ${reasonOf(e)}`);
  }
  const aud = Array.isArray(payload.aud) && payload.aud.length === 1 ? payload.aud[0] : payload.aud;
  if (typeof aud !== 'string' || !audiences.includes(aud))
    throw invalidClient(`The client assertion's aud must be one value: ${audiences.join(' or ')}`);
  const now = deps.clock.now();
  const exp = payload.exp! * 1000;
  if (exp - now > MAX_LIFETIME_S * 1000)
    throw invalidClient(`The client assertion's exp is more than ${MAX_LIFETIME_S} seconds ahead`);
  if (typeof payload.iat === 'number' && payload.iat * 1000 > now + CLOCK_TOLERANCE_S * 1000)
    throw invalidClient("The client assertion's iat is in the future");
  const jti = payload.jti;
  if (typeof jti !== 'string' || !jti || jti.length > MAX_JTI)
    throw invalidClient(`The client assertion's jti must be a string of 1 to ${MAX_JTI} characters`);
  const first = await deps.storage.oneTime.claim({
    digest: hash('sha256', `client-assertion:${clientId}:${jti}`, 'hex'),
    kind: 'client_assertion',
    user_id: '',
    client_id: clientId,
    payload: '',
    // Kept past its expiry by the tolerance, so an expired replay is refused as expired, never accepted.
    expires_at: exp + CLOCK_TOLERANCE_S * 1000,
    consumed_at: now,
    created_at: now,
  });
  if (!first) throw invalidClient('The client assertion was already used (its jti was seen before)');
  return { client, method };
}

/** The reason told to the client: jose's own words for a claim, a short one for the rest. */
function reasonOf(e: unknown): string {
  if (e instanceof ClientKeysUnavailable) return e.message;
  if (e instanceof errors.JWTExpired) return 'it has expired (exp)';
  if (e instanceof errors.JWTClaimValidationFailed) return `${e.claim}: ${e.message}`;
  if (e instanceof errors.JOSEAlgNotAllowed) return 'its alg is not allowed for this client';
  if (e instanceof errors.JWKSNoMatchingKey) return 'no registered key matches it (kid, alg)';
  if (e instanceof errors.JWSSignatureVerificationFailed) return 'the signature does not verify';
  if (e instanceof errors.JWKSMultipleMatchingKeys) return 'several registered keys match it: name one by kid';
  if (e instanceof errors.JOSEError) return 'it is malformed or its signature does not verify';
  return 'it could not be verified';
}
