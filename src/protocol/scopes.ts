import type { User } from '../storage/sql/users.js';

/** Scopes Ward knows (identity-api.md, authorization endpoint). */
export const SUPPORTED_SCOPES = ['openid', 'profile', 'email', 'phone', 'address', 'mfa', 'offline_access'] as const;
const KNOWN = new Set<string>(SUPPORTED_SCOPES);

/** Splits a scope parameter (a string, or the JSON array the Core SDK sends on refresh). */
export function parseScope(value: unknown): string[] | null {
  if (value === undefined || value === null || value === '') return [];
  if (Array.isArray(value))
    return value.every((v) => typeof v === 'string')
      ? [...new Set(value.flatMap((v: string) => v.split(' ').filter(Boolean)))]
      : null;
  if (typeof value !== 'string' || value.length > 1000) return null;
  return [...new Set(value.split(' ').filter(Boolean))];
}

export function unknownScopes(scopes: string[]): string[] {
  return scopes.filter((s) => !KNOWN.has(s));
}

/** Profile claims released for a set of scopes (OIDC Core 5.4). */
export function claimsFor(user: User, scopes: string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (scopes.includes('profile')) {
    if (user.given_name) out.given_name = user.given_name;
    if (user.family_name) out.family_name = user.family_name;
    const name = [user.given_name, user.family_name].filter(Boolean).join(' ');
    if (name) out.name = name;
    out.updated_at = Math.floor(user.updated_at / 1000);
  }
  if (scopes.includes('email') && user.email) {
    out.email = user.email;
    out.email_verified = user.email_verified;
  }
  if (scopes.includes('phone') && user.phone_number) {
    out.phone_number = user.phone_number;
    out.phone_number_verified = user.phone_number_verified;
  }
  return out;
}
