import type { FastifyReply } from 'fastify';
import { type TrustedDeviceDeps, trustDevice } from '../../accounts/trusted-devices.js';

/** The trusted-device cookie: __Host-, HttpOnly, Secure; the database keeps only its digest. */
export const TRUSTED_DEVICE_COOKIE = '__Host-ward_td';

/** Remembers this browser as a trusted device of the user (accounts/trusted-devices.ts) in its cookie. */
export async function rememberDevice(
  r: TrustedDeviceDeps,
  reply: FastifyReply,
  userId: string,
  userAgent: string | undefined,
): Promise<void> {
  const { token, ttl } = await trustDevice(r, userId, userAgent);
  reply.setCookie(TRUSTED_DEVICE_COOKIE, token, {
    path: '/',
    secure: true,
    httpOnly: true,
    sameSite: 'none',
    maxAge: ttl,
  });
}
