// grant_type=urn:ietf:params:oauth:grant-type:device_code (RFC 8628 3.4, 3.5): the device polls
// with its device code. Pending: authorization_pending, or slow_down when it polls sooner than its
// interval (which then grows by 5 seconds); expired_token past expires_in; access_denied when the
// user denied. An approval is redeemed once (one conditional update); a second use is invalid_grant
// and revokes the tokens of the first (like a reused authorization code).
import { invalidGrant } from '../../errors/refusals.js';
import { WardError } from '../../errors/ward-error.js';
import { sha256 } from '../../lib/secrets.js';
import { requiredStr, type Params } from '../params.js';
import { checkGrantTarget } from '../resource-indicator.js';
import type { AuthenticatedClient } from './client-auth.js';
import type { SecurityEvents } from '../../audit/events.js';
import type { Clock } from '../../lib/clock.js';
import type { TokenIssuer, TokenResponse } from '../issue-tokens.js';
import type { Storage } from '../../storage/storage.js';

/** The services this module uses (registry.ts builds them; the composition passes them in). */
export interface GrantDeviceCodeDeps {
  clock: Clock;
  events: SecurityEvents;
  issueTokens: TokenIssuer;
  storage: Storage;
}

const BAD_CODE = 'The device code is invalid, already used, or was issued to another client';

export async function deviceCodeGrant(
  r: GrantDeviceCodeDeps,
  auth: AuthenticatedClient,
  params: Params,
): Promise<TokenResponse> {
  const code = requiredStr(params, 'device_code', 200);
  const now = r.clock.now();
  const repo = r.storage.deviceAuthorizations;
  const row = await repo.findByDeviceCode(sha256(code));
  if (!row || row.client_id !== auth.client.client_id) throw invalidGrant(BAD_CODE);
  if (row.status === 'consumed') {
    if (row.grant_id) await r.storage.tokens.revokeGrant(row.grant_id, now);
    await r.events.emit(
      'device.code_reused',
      { client_id: row.client_id, user_id: row.user_id, grant_id: row.grant_id },
      'device code used twice: grant revoked',
      'warn',
    );
    throw invalidGrant(BAD_CODE);
  }
  if (row.expires_at <= now) throw new WardError('expiredToken', { description: 'The device code has expired' });
  if (row.status === 'denied')
    throw new WardError('deviceAccessDenied', { description: 'The user denied the authorization' });
  if (row.status === 'pending') {
    const tooSoon = row.last_polled_at !== null && now - row.last_polled_at < row.interval_seconds * 1000;
    await repo.polled(row.id, now, tooSoon);
    if (tooSoon)
      throw new WardError('slowDown', {
        description: `Polling too often: wait at least ${row.interval_seconds + 5} seconds between requests`,
      });
    throw new WardError('authorizationPending', { description: 'The user has not answered yet' });
  }
  // Approved: exactly one poll redeems it.
  if (!(await repo.consume(row.id, now))) throw invalidGrant(BAD_CODE);
  const grant = row.grant_id ? await r.storage.tokens.findGrant(row.grant_id) : undefined;
  const user = row.user_id ? await r.storage.users.findById(row.user_id) : undefined;
  if (!grant || grant.revoked_at !== null || !user || user.disabled) throw invalidGrant(BAD_CODE);
  checkGrantTarget(row.resource, params.resource);
  const scopes = row.scope.split(' ').filter(Boolean);
  await r.events.emit(
    'device.tokens_issued',
    { client_id: row.client_id, user_id: user.id, grant_id: grant.id, scopes },
    'tokens issued to a device (RFC 8628)',
  );
  return r.issueTokens(r.storage, {
    client: auth.client,
    user,
    grant,
    scopes,
    refresh: scopes.includes('offline_access'),
    resource: row.resource,
  });
}
