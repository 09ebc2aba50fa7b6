// A trusted device: a browser where a user passed a second factor and asked to be remembered, so the
// second factor is not asked there again until it expires. The browser holds a random token; the
// database keeps only its digest.
import type { AccountSettings } from '../config/types.js';
import type { Clock } from '../lib/clock.js';
import { randomId, randomToken } from '../lib/random.js';
import { sha256 } from '../lib/secrets.js';
import type { Repos } from '../storage/storage.js';

export interface TrustedDeviceDeps {
  account: () => AccountSettings;
  clock: Clock;
  storage: { trustedDevices: Repos['trustedDevices'] };
}

/** Stores a new trusted device of this user; returns its token and how long it lives (seconds). */
export async function trustDevice(
  r: TrustedDeviceDeps,
  userId: string,
  userAgent: string | undefined,
): Promise<{ token: string; ttl: number }> {
  const token = randomToken(32);
  const now = r.clock.now();
  const ttl = r.account().trusted_device_ttl;
  await r.storage.trustedDevices.insert({
    id: randomId(),
    user_id: userId,
    digest: sha256(token),
    name: userAgent?.slice(0, 200) ?? null,
    created_at: now,
    expires_at: now + ttl * 1000,
    revoked_at: null,
  });
  return { token, ttl };
}

/** True when the token is a live trusted device of this user. */
export async function isTrustedDevice(
  r: Pick<TrustedDeviceDeps, 'clock' | 'storage'>,
  token: string | undefined,
  userId: string,
): Promise<boolean> {
  if (!token || token.length > 100) return false;
  const row = await r.storage.trustedDevices.findLive(sha256(token), r.clock.now());
  return !!row && row.user_id === userId;
}
