import type { FastifyReply } from 'fastify';
import { randomId, randomToken } from '../../lib/random.js';
import { sha256 } from '../../lib/secrets.js';
import type { Registry } from '../../registry.js';

/** The trusted-device cookie: __Host-, HttpOnly, Secure; the database keeps only its digest. */
export const TRUSTED_DEVICE_COOKIE = '__Host-ward_td';

export async function rememberDevice(
  r: Pick<Registry, 'account' | 'clock' | 'storage'>,
  reply: FastifyReply,
  userId: string,
  userAgent: string | undefined,
): Promise<void> {
  const value = randomToken(32);
  const now = r.clock.now();
  const ttl = r.account().trusted_device_ttl;
  await r.storage.trustedDevices.insert({
    id: randomId(),
    user_id: userId,
    digest: sha256(value),
    name: userAgent?.slice(0, 200) ?? null,
    created_at: now,
    expires_at: now + ttl * 1000,
    revoked_at: null,
  });
  reply.setCookie(TRUSTED_DEVICE_COOKIE, value, {
    path: '/',
    secure: true,
    httpOnly: true,
    sameSite: 'none',
    maxAge: ttl,
  });
}

/** True when the request carries a live trusted-device cookie of this user. */
export async function isTrustedDevice(
  r: Pick<Registry, 'clock' | 'storage'>,
  cookie: string | undefined,
  userId: string,
): Promise<boolean> {
  if (!cookie || cookie.length > 100) return false;
  const row = await r.storage.trustedDevices.findLive(sha256(cookie), r.clock.now());
  return !!row && row.user_id === userId;
}
