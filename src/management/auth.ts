// Who calls the management API: a management client's client_credentials token (its scopes, within
// the client's management_scopes), or a console user's token (the permissions of the user's role,
// within the management_scopes of the client the token was issued to). Anything else: 401.
import { beyond, permissionsOf } from '../authz/roles.js';
import type { ManagementScope } from '../config/types.js';
import { invalidToken } from '../errors/refusals.js';
import { WardError } from '../errors/ward-error.js';
import { type Credentials, liveAccessToken } from '../protocol/bearer.js';
import type { DpopVerifier } from '../protocol/dpop/proof.js';
import type { Actor } from '../audit/record.js';
import type { UserService } from '../accounts/users.js';
import type { ClientService } from '../clients/service.js';
import type { Clock } from '../lib/clock.js';
import type { AccessTokenCodec } from '../protocol/access-token-codec.js';
import type { Storage } from '../storage/storage.js';

/** The services this module uses (registry.ts builds them; the composition passes them in). */
export interface ManagementAuthDeps {
  accessTokens: AccessTokenCodec;
  clients: ClientService;
  clock: Clock;
  storage: Storage;
  users: UserService;
  /** DPoP proofs (RFC 9449): a DPoP-bound token comes with the DPoP scheme and a proof. */
  dpop?: DpopVerifier;
}

export interface ManagementActor extends Actor {
  permissions: ReadonlySet<ManagementScope>;
}

export async function authenticateManagement(
  r: ManagementAuthDeps,
  credentials: Credentials,
  ip: string,
): Promise<ManagementActor> {
  const row = await liveAccessToken(r, credentials);
  const client = await r.clients.find(row.client_id);
  if (!client || client.management_scopes.length === 0)
    throw invalidToken('This token is not valid for the management API');
  const allowed = new Set<ManagementScope>(client.management_scopes as ManagementScope[]);
  if (row.user_id === null) {
    const scopes = row.scope.split(' ').filter((s): s is ManagementScope => allowed.has(s as ManagementScope));
    return { type: 'client', id: client.client_id, ip, permissions: new Set(scopes) };
  }
  const user = await r.users.find(row.user_id);
  if (!user || user.disabled) throw invalidToken();
  return {
    type: 'user',
    id: user.id,
    ip,
    permissions: new Set(permissionsOf(user.role).filter((p) => allowed.has(p))),
  };
}

export function requirePermission(actor: ManagementActor, permission: ManagementScope): void {
  if (!actor.permissions.has(permission))
    throw new WardError('managementForbidden', { description: `This operation needs the ${permission} permission` });
}

/**
 * A caller gives, holds or changes only what it holds: `scopes` (a client's management scopes, a
 * role's permissions) must all be among the caller's own permissions.
 */
export function requireHolds(actor: ManagementActor, scopes: readonly string[], what: string): void {
  const missing = beyond(actor.permissions, scopes);
  if (missing.length)
    throw new WardError('managementExceedsCaller', {
      description: `${what} needs permissions this caller does not hold: ${missing.join(' ')}`,
    });
}

/** Disabling, deleting or removing a factor of a user who holds a console role needs manage:roles. */
export function requireAuthorityOver(actor: ManagementActor, user: { role: string | null }): void {
  if (user.role !== null && !actor.permissions.has('manage:roles'))
    throw new WardError('managementForbidden', {
      description: 'This user holds a console role: this operation needs the manage:roles permission',
    });
}
