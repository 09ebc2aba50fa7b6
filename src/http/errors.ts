import type { FastifyError, FastifyInstance } from 'fastify';
import { ApiError } from '../errors/api-error.js';
import { randomId } from '../lib/random.js';

/**
 * Every API error leaves as the contract's JSON body with error_message_key. Fastify's own errors
 * (bad JSON, body too large, unsupported media type) keep their status; anything unknown is a
 * generic 500, logged in full with an error_id the body repeats.
 */
export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError | ApiError, req, reply) => {
    if (err instanceof ApiError) {
      for (const [k, v] of Object.entries(err.headers)) reply.header(k, v);
      reply.header('Cache-Control', 'no-store');
      return reply.code(err.status).send(err.body());
    }
    const status = (err as FastifyError).statusCode;
    if (status && status >= 400 && status < 500) {
      const code = status === 415 ? 'unsupported_media_type' : status === 413 ? 'payload_too_large' : 'invalid_request';
      const description =
        (err as FastifyError).code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE'
          ? 'Unsupported Content-Type: send application/json or application/x-www-form-urlencoded'
          : status === 413 ? 'The request body is too large' : 'The request is malformed';
      const e = new ApiError(status, code, description, status === 415 ? 'error.unsupportedMediaType' : 'error.invalidRequest');
      return reply.code(status).header('Cache-Control', 'no-store').send(e.body());
    }
    const errorId = randomId();
    req.log.error({ err, error_id: errorId }, 'unhandled error');
    const e = new ApiError(500, 'server_error', 'An unexpected error occurred', 'error.unexpected');
    return reply.code(500).header('Cache-Control', 'no-store').send(e.body(errorId));
  });
  app.setNotFoundHandler((req, reply) => {
    const e = new ApiError(404, 'not_found', `No route for ${req.method} ${req.url.split('?')[0]}`, 'error.notFound');
    return reply.code(404).send(e.body());
  });
}
