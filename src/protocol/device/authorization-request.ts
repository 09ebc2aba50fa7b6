// POST /oauth/device_authorization (RFC 8628 3.1, 3.2): a client allowed the device grant asks for
// a device code and a user code. The device code is a 256-bit secret and the user code is short;
// both are stored as digests only. The request is bound to the client, its scopes and its resource
// (RFC 8707), checked as /oauth/authorize checks them.
import { invalidClient, invalidScope, unauthorizedClient } from '../../errors/refusals.js';
import { WardError } from '../../errors/ward-error.js';
import { DEVICE_CODE_GRANT } from '../../config/schema/client.js';
import { randomId, randomToken } from '../../lib/random.js';
import { sha256 } from '../../lib/secrets.js';
import type { Params } from '../params.js';
import { isRefusal, resolveResource, scopesBeyond } from '../resource-indicator.js';
import { parseScope } from '../scopes.js';
import { authenticateClient, type ClientAuthDeps } from '../token/client-auth.js';
import { newUserCode, normaliseUserCode } from './user-code.js';
import type { SecurityEvents } from '../../audit/events.js';
import type { Clock } from '../../lib/clock.js';
import type { ResourceLookup } from '../../resources/service.js';
import type { Storage } from '../../storage/storage.js';

/** How long the codes live (RFC 8628 3.2 expires_in), and the first polling interval (seconds). */
export const DEVICE_CODE_TTL_SECONDS = 600;
export const DEVICE_POLL_INTERVAL_SECONDS = 5;

/** Where the user goes (RFC 8628 3.2 verification_uri): Ward's hosted page. */
export const VERIFICATION_PATH = '/device';

/** The services this module uses (registry.ts builds them; the composition passes them in). */
export interface DeviceAuthorizationDeps extends ClientAuthDeps {
  clock: Clock;
  events: SecurityEvents;
  resources: ResourceLookup;
  storage: Storage;
}

export interface DeviceAuthorizationResponse {
  device_code: string;
  user_code: string;
  verification_uri: string;
  verification_uri_complete: string;
  expires_in: number;
  interval: number;
}

/** The digest a user code is stored under (of its normalised form). */
export const userCodeDigest = (normalised: string): string => sha256(`user_code:${normalised}`);

export async function startDeviceAuthorization(
  r: DeviceAuthorizationDeps,
  issuer: string,
  authorization: string | undefined,
  params: Params,
): Promise<DeviceAuthorizationResponse> {
  const { client, authenticated } = await authenticateClient(r, authorization, params);
  if (client.type === 'resource_server') {
    if (!authenticated) throw invalidClient('Client authentication failed');
    throw new WardError('resourceServerOnly');
  }
  // RFC 8628 3.1: a confidential client authenticates as at the token endpoint.
  if (!authenticated) throw invalidClient('Client authentication failed');
  if (!client.grant_types.includes(DEVICE_CODE_GRANT))
    throw unauthorizedClient('This client may not use the device authorization grant');
  const scopes = parseScope(params.scope);
  if (scopes === null) throw invalidScope('scope must be a space-separated string');
  const resource = await resolveResource(r.resources, params.resource);
  if (isRefusal(resource)) throw new WardError('invalidTarget', { description: resource.target });
  const unknown = scopesBeyond(scopes, resource);
  if (unknown.length) throw invalidScope(`Unknown scope: ${unknown.join(' ')}`);
  const now = r.clock.now();
  const deviceCode = randomToken(32);
  // A collision with a live code is unlikely (20^8 codes); a new one is drawn if it happens.
  let userCode = newUserCode();
  for (let i = 0; i < 5; i++) {
    const normalised = normaliseUserCode(userCode) as string;
    if (!(await r.storage.deviceAuthorizations.findLiveByUserCode(userCodeDigest(normalised), now))) break;
    userCode = newUserCode();
  }
  const id = randomId();
  await r.storage.deviceAuthorizations.insert({
    id,
    device_code_digest: sha256(deviceCode),
    user_code_digest: userCodeDigest(normaliseUserCode(userCode) as string),
    client_id: client.client_id,
    scope: scopes.join(' '),
    resource: resource?.identifier ?? null,
    status: 'pending',
    interval_seconds: DEVICE_POLL_INTERVAL_SECONDS,
    last_polled_at: null,
    user_id: null,
    grant_id: null,
    created_at: now,
    expires_at: now + DEVICE_CODE_TTL_SECONDS * 1000,
  });
  await r.events.emit(
    'device.requested',
    { client_id: client.client_id, device_authorization: id, scopes },
    'a device asked for authorization (RFC 8628)',
  );
  const verification = `${issuer}${VERIFICATION_PATH}`;
  return {
    device_code: deviceCode,
    user_code: userCode,
    verification_uri: verification,
    verification_uri_complete: `${verification}?user_code=${encodeURIComponent(userCode)}`,
    expires_in: DEVICE_CODE_TTL_SECONDS,
    interval: DEVICE_POLL_INTERVAL_SECONDS,
  };
}
