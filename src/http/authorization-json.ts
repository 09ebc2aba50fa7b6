import type { FastifyReply } from 'fastify';
import type { Outcome } from '../interaction/outcome.js';
import { setSessionCookie } from './cookies.js';
import type { AccountSettings } from '../config/types.js';

/** The services this module uses (registry.ts builds them; the composition passes them in). */
export interface AuthorizationJsonDeps {
  account: () => AccountSettings;
}

/**
 * An authorization finished by an API call (the SDK's web_message mode: step-up and passwordless
 * verify) answered as JSON: the AuthResult values (`code`, or the implicit tokens), the request's
 * state, the new session's cookie.
 */
export function sendAuthorizationJson(
  r: AuthorizationJsonDeps,
  reply: FastifyReply,
  outcome: Extract<Outcome, { kind: 'authorized' }>,
  /** Fields of the answer beside the authorization response's (never its own names). */
  extra: Record<string, unknown> = {},
): FastifyReply {
  if (outcome.sessionCookie) setSessionCookie(reply, outcome.sessionCookie, r.account().session_ttl);
  const body: Record<string, unknown> = { ...extra, ...outcome.values };
  if (outcome.request.state !== undefined) body.state = outcome.request.state;
  if (typeof body.expires_in === 'string') body.expires_in = Number(body.expires_in);
  for (const k of Object.keys(body)) if (body[k] === undefined) delete body[k];
  return reply.header('Cache-Control', 'no-store').send(body);
}
