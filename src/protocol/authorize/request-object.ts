// Signed request objects (RFC 9101, OpenID Connect Core 6.1): the authorization request's parameters
// as the claims of a JWT the client signed with one of its registered keys (`jwks` or `jwks_uri`,
// clients/client-keys.ts), sent by value as `request` to /oauth/authorize or /oauth/par.
// - Signed only: RS256, PS256, ES256, EdDSA (or the client's one `request_object_signing_alg`);
//   an unsigned object (alg none) is refused, so no parameter reaches Ward unsigned through one.
// - `iss` is the client_id, `aud` Ward's issuer identifier; `exp` required and at most
//   MAX_LIFETIME_S ahead; `nbf` and `iat` (when present) not in the future; CLOCK_TOLERANCE_S of skew.
// - `client_id`, when in the object, equals the query's (RFC 9101 6.3).
// - `jti`, when present, is used once: claimed in one_time_tokens (kind request_object) until exp.
// - Only the object's parameters are used (RFC 9101 6.3): its claims, minus the JWT's own, replace
//   the query's; the query's client_id stays. A `request` or `request_uri` inside it is refused.
// Every refusal is invalid_request_object, answered to the client once its redirect_uri is trusted.
import { hash } from 'node:crypto';
import { errors, jwtVerify, type JWTPayload, type JWTVerifyGetKey } from 'jose';
import type { ClientKeys } from '../../clients/client-keys.js';
import { ClientKeysUnavailable } from '../../clients/client-keys.js';
import type { Client } from '../../clients/service.js';
import { REQUEST_OBJECT_ALGS } from '../../config/types.js';
import { WardError } from '../../errors/ward-error.js';
import type { Clock } from '../../lib/clock.js';
import type { Storage } from '../../storage/storage.js';
import type { Params } from '../params.js';

/** The longest a request object may still be valid when it arrives (RFC 9101 10.2: short-lived). */
export const MAX_LIFETIME_S = 600;
const CLOCK_TOLERANCE_S = 30;
const MAX_OBJECT = 32 * 1024;
const MAX_JTI = 256;
const COMPACT = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;
/** The JWT's own claims: not authorization parameters. */
const JWT_CLAIMS = ['iss', 'aud', 'exp', 'nbf', 'iat', 'jti', 'sub'];
/** The media types RFC 9101 4 and the OpenID specifications give a request object (absent is accepted). */
const TYPES = new Set(['oauth-authz-req+jwt', 'jwt', 'JWT']);

/** The services this module uses (registry.ts builds them; the composition passes them in). */
export interface RequestObjectDeps {
  clientKeys: Pick<ClientKeys, 'verifyWith'>;
  storage: Pick<Storage, 'oneTime'>;
  clock: Clock;
  issuer: string;
  /** The account's require_signed_request_object. */
  requiredForAll: () => boolean;
  /** Told of a request object presented again (its jti seen before): the audit's security event. */
  replayed: (fields: { client_id: string }) => Promise<void>;
}

export interface RequestObjects {
  /** The parameters of a verified request object (only those, with the query's client_id); throws invalid_request_object. */
  verify(client: Client, object: unknown): Promise<Params>;
  /** Whether this client's requests must come in a signed request object (its rule or the account's). */
  required(client: Pick<Client, 'require_signed_request_object'>): boolean;
}

export const invalidRequestObject = (description: string) =>
  new WardError('authorizeInvalidRequestObject', { description });

/** A claim as an authorization parameter: strings as they are, numbers and booleans written out, JSON else. */
function asParameter(value: unknown): unknown {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  // A resource list (RFC 8707 with several values) stays a list: the pipeline refuses it as it would.
  if (Array.isArray(value) && value.every((v) => typeof v === 'string')) return value;
  return JSON.stringify(value);
}

export function createRequestObjects(deps: RequestObjectDeps): RequestObjects {
  return {
    required: (client) => deps.requiredForAll() || client.require_signed_request_object,
    async verify(client, object) {
      if (typeof object !== 'string' || object.length > MAX_OBJECT || !COMPACT.test(object))
        throw invalidRequestObject('request must be a signed JWT (a compact JWS)');
      const algorithms = client.request_object_signing_alg
        ? [client.request_object_signing_alg]
        : [...REQUEST_OBJECT_ALGS];
      const verify = async (keys: JWTVerifyGetKey) =>
        (
          await jwtVerify(object, keys, {
            issuer: client.client_id,
            audience: deps.issuer,
            algorithms,
            requiredClaims: ['exp'],
            clockTolerance: CLOCK_TOLERANCE_S,
            currentDate: new Date(deps.clock.now()),
          })
        ).payload;
      let payload: JWTPayload;
      let typ: string | undefined;
      try {
        payload = await deps.clientKeys.verifyWith(client, verify);
        typ = JSON.parse(Buffer.from(object.split('.')[0]!, 'base64url').toString('utf8')).typ;
      } catch (e) {
        throw invalidRequestObject(`The request object was refused: ${reasonOf(e)}`);
      }
      if (typ !== undefined && !TYPES.has(typ)) throw invalidRequestObject('The request object has a foreign typ');
      const now = deps.clock.now();
      const exp = payload.exp! * 1000;
      if (exp - now > MAX_LIFETIME_S * 1000)
        throw invalidRequestObject(`The request object's exp is more than ${MAX_LIFETIME_S} seconds ahead`);
      if (typeof payload.iat === 'number' && payload.iat * 1000 > now + CLOCK_TOLERANCE_S * 1000)
        throw invalidRequestObject("The request object's iat is in the future");
      if (payload.client_id !== undefined && payload.client_id !== client.client_id)
        throw invalidRequestObject('The client_id of the request object differs from the request');
      if (payload.request !== undefined || payload.request_uri !== undefined)
        throw invalidRequestObject('A request object cannot hold request or request_uri');
      if (payload.jti !== undefined) {
        const jti = payload.jti;
        if (typeof jti !== 'string' || !jti || jti.length > MAX_JTI)
          throw invalidRequestObject(`The request object's jti must be a string of 1 to ${MAX_JTI} characters`);
        const first = await deps.storage.oneTime.claim({
          digest: hash('sha256', `request-object:${client.client_id}:${jti}`, 'hex'),
          kind: 'request_object',
          user_id: '',
          client_id: client.client_id,
          payload: '',
          // Kept past its expiry by the tolerance, so an expired replay is refused as expired.
          expires_at: exp + CLOCK_TOLERANCE_S * 1000,
          consumed_at: now,
          created_at: now,
        });
        if (!first) {
          await deps.replayed({ client_id: client.client_id });
          throw invalidRequestObject('The request object was already used (its jti was seen before)');
        }
      }
      const params: Params = {};
      for (const [k, v] of Object.entries(payload)) if (!JWT_CLAIMS.includes(k)) params[k] = asParameter(v);
      params.client_id = client.client_id;
      return params;
    },
  };
}

/** The reason told to the client: the claim that failed, a short reason for the rest. */
function reasonOf(e: unknown): string {
  if (e instanceof ClientKeysUnavailable) return `the client's keys are not at hand: ${e.message}`;
  if (e instanceof errors.JWTExpired) return 'it has expired (exp)';
  if (e instanceof errors.JWTClaimValidationFailed) return `${e.claim}: ${e.message}`;
  if (e instanceof errors.JOSEAlgNotAllowed) return 'its alg is not allowed for this client (never none)';
  if (e instanceof errors.JWKSNoMatchingKey) return 'no registered key matches it (kid, alg)';
  if (e instanceof errors.JWSSignatureVerificationFailed) return 'the signature does not verify';
  if (e instanceof errors.JWKSMultipleMatchingKeys) return 'several registered keys match it: name one by kid';
  if (e instanceof errors.JOSEError) return 'it is malformed or its signature does not verify';
  return 'it could not be verified';
}
