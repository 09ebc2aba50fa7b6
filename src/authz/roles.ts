import { MANAGEMENT_SCOPES, type ManagementScope } from '../config/types.js';

/** Console roles, least to most powerful. */
export const ROLES = ['viewer', 'developer', 'manager', 'administrator'] as const;
export type Role = (typeof ROLES)[number];

/**
 * The permission table (docs/endpoints.md, "Management API"). Key management needs Developer or above;
 * settings and users need Manager or above; only an Administrator changes roles.
 */
export const ROLE_PERMISSIONS: Record<Role, readonly ManagementScope[]> = {
  viewer: ['read:clients', 'read:settings', 'read:users', 'read:audit'],
  developer: ['read:clients', 'manage:clients', 'manage:keys', 'read:settings', 'read:users', 'read:audit'],
  manager: [
    'read:clients',
    'manage:clients',
    'manage:keys',
    'read:settings',
    'manage:settings',
    'read:users',
    'manage:users',
    'read:audit',
    'manage:webhooks',
  ],
  // export:secrets (password hashes in a bulk export) is no role's: only a management client that
  // lists it holds it, so a console session never carries it.
  administrator: MANAGEMENT_SCOPES.filter((p) => p !== 'export:secrets'),
};

export const isRole = (v: unknown): v is Role => typeof v === 'string' && (ROLES as readonly string[]).includes(v);

export function permissionsOf(role: string | null): readonly ManagementScope[] {
  return isRole(role) ? ROLE_PERMISSIONS[role] : [];
}

/**
 * The permissions among `wanted` that `held` lacks: what a caller would give (a client's management
 * scopes, a role's permissions) beyond what it holds itself. Empty: it may.
 */
export function beyond(held: ReadonlySet<string>, wanted: readonly string[]): string[] {
  return [...new Set(wanted)].filter((p) => !held.has(p));
}
