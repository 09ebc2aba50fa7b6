import { oidcAddress } from '../accounts/postal-addresses.js';
import { PROFILE_CLAIMS } from '../accounts/profile.js';
import type { StoredProfile } from '../storage/sql/profiles.js';
import type { User } from '../storage/sql/users.js';

/** Scopes Ward knows and acts on (identity-api.md, authorization endpoint): discovery lists these. */
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

/** The scopes whose claims live in the profile table (the ID token signer reads it only for these). */
export const needsProfile = (scopes: string[]): boolean => scopes.includes('profile') || scopes.includes('address');

/** The profile scope's claims kept in the profile table (the address has its own scope). */
export const PROFILE_SCOPE_CLAIMS: readonly string[] = PROFILE_CLAIMS.filter((c) => c !== 'address');

/** Profile claims released for a set of scopes (OIDC Core 5.4), from the user and their stored profile. */
export function claimsFor(user: User, scopes: string[], profile?: StoredProfile): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (scopes.includes('profile')) {
    // The full name the user wrote, else their names joined.
    const name = profile?.name || [user.given_name, profile?.middle_name, user.family_name].filter(Boolean).join(' ');
    if (name) out.name = name;
    if (user.given_name) out.given_name = user.given_name;
    if (user.family_name) out.family_name = user.family_name;
    const claims = (profile ?? {}) as Record<string, unknown>;
    for (const c of PROFILE_SCOPE_CLAIMS) if (claims[c] !== null && claims[c] !== undefined) out[c] = claims[c];
    // ReachFive's profile_url and username are OpenID's profile and preferred_username.
    if (profile?.profile_url) out.profile = profile.profile_url;
    if (profile?.username) out.preferred_username = profile.username;
    out.updated_at = Math.floor(Math.max(user.updated_at, profile?.updated_at ?? 0) / 1000);
  }
  if (scopes.includes('email') && user.email) {
    out.email = user.email;
    out.email_verified = user.email_verified;
  }
  if (scopes.includes('phone') && user.phone_number) {
    out.phone_number = user.phone_number;
    out.phone_number_verified = user.phone_number_verified;
  }
  // The default ReachFive address when there is one (accounts/postal-addresses.ts).
  const address = scopes.includes('address') ? oidcAddress(profile) : null;
  if (address) out.address = address;
  return out;
}
