import '@fastify/cookie';
import type { FastifyReply } from 'fastify';
import { SESSION_COOKIE } from '../accounts/sessions.js';

/** Sets the SSO cookie: __Host- (Secure, Path=/, no Domain), HttpOnly, SameSite=None for the SDK's cross-site calls. */
export function setSessionCookie(reply: FastifyReply, value: string, maxAgeSeconds: number): void {
  reply.setCookie(SESSION_COOKIE, value, {
    path: '/',
    secure: true,
    httpOnly: true,
    sameSite: 'none',
    maxAge: maxAgeSeconds,
  });
}

export function clearSessionCookie(reply: FastifyReply): void {
  reply.clearCookie(SESSION_COOKIE, { path: '/', secure: true, httpOnly: true, sameSite: 'none' });
}
