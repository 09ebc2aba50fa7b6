import type { FastifyReply, FastifyRequest } from 'fastify';
import { WardError } from '../errors/ward-error.js';
import { requireSingle, type Params } from '../protocol/params.js';

/** 405 with `Allow: POST`, for the other methods of a POST-only OAuth endpoint. */
export const methodNotAllowed = (reply: FastifyReply) => {
  const e = new WardError('methodNotAllowed');
  return reply.code(405).header('Allow', 'POST').send(e.body());
};

/**
 * The body of a token, revocation or introspection request: a form (RFC 6749 3.2) or JSON (the Core
 * SDK). Any other media type (text/plain, which a cross-site form may send without a preflight;
 * multipart) is 415, never read as an empty request.
 */
export function bodyParams(req: FastifyRequest): Params {
  const type = req.headers['content-type']?.split(';')[0].trim().toLowerCase();
  if (type !== undefined && type !== 'application/x-www-form-urlencoded' && type !== 'application/json') {
    throw new WardError('unsupportedMediaType');
  }
  return requireSingle(req.body, type === 'application/json');
}

/**
 * The form of a POST authorization request (OIDC Core 3.1.2.1: form serialization). Any other media
 * type is 415: a browser navigation never sends JSON.
 */
export function authorizeForm(req: FastifyRequest): Record<string, unknown> {
  const type = req.headers['content-type']?.split(';')[0].trim().toLowerCase();
  if (type !== 'application/x-www-form-urlencoded') throw new WardError('unsupportedMediaType');
  return (req.body ?? {}) as Record<string, unknown>;
}
