import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyError, FastifyInstance } from 'fastify';
import { ApiError, serviceUnavailable } from '../errors/api-error.js';
import { randomId } from '../lib/random.js';
import { isUnstorableText } from '../storage/sql/errors.js';
import { isDatabaseUnavailable, type OutageLog } from '../storage/unavailable.js';

/** Seconds a caller is asked to wait when the database is unreachable: pg-pool reconnects on the next request. */
export const DATABASE_RETRY_AFTER_SECONDS = 2;

/**
 * Every API error leaves as the contract's JSON body with error_message_key. Fastify's own errors
 * (bad JSON, body too large, unsupported media type) keep their status; text PostgreSQL cannot hold
 * (a NUL) is a 400; an unreachable database is a 503 with Retry-After (logged once per interval
 * through `outage`, not once per request); anything unknown is a generic 500, logged in full with an
 * error_id the body repeats.
 */
export function installErrorHandling(app: FastifyInstance, outage?: OutageLog): void {
  // Bodies are JSON or form-encoded only (identity-api.md, transport rules). Fastify parses
  // text/plain by default: drop that parser so such a body is the 415 below, never a string that
  // a handler might half-read (text/plain is also the cross-site "simple request" of CSRF).
  app.removeContentTypeParser('text/plain');
  installClientErrorHandler(app);
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
          : status === 413
            ? 'The request body is too large'
            : 'The request is malformed';
      const e = new ApiError(
        status,
        code,
        description,
        status === 415 ? 'error.unsupportedMediaType' : 'error.invalidRequest',
      );
      return reply.code(status).header('Cache-Control', 'no-store').send(e.body());
    }
    if (isDatabaseUnavailable(err)) {
      if (outage) outage.failed('request', err);
      else req.log.warn({ reqId: req.id, event: 'database_unavailable' }, 'database unavailable');
      const description = 'The service is temporarily unavailable; try again in a moment';
      const e = serviceUnavailable('server_error', description, DATABASE_RETRY_AFTER_SECONDS);
      for (const [k, v] of Object.entries(e.headers)) reply.header(k, v);
      return reply.code(503).header('Cache-Control', 'no-store').send(e.body());
    }
    if (isUnstorableText(err)) {
      // Input that reached a query unvalidated (a NUL in a search term, say): the caller's mistake, not ours.
      req.log.warn(
        { reqId: req.id, event: 'unstorable_text', route: req.routeOptions.url },
        'text the database cannot hold refused',
      );
      const e = new ApiError(
        400,
        'invalid_request',
        'The request contains characters that cannot be stored (such as NUL)',
        'error.invalidRequest',
      );
      return reply.code(400).header('Cache-Control', 'no-store').send(e.body());
    }
    const errorId = randomId();
    req.log.error({ reqId: req.id, err, error_id: errorId }, 'unhandled error');
    const e = new ApiError(500, 'server_error', 'An unexpected error occurred', 'error.unexpected');
    return reply.code(500).header('Cache-Control', 'no-store').send(e.body(errorId));
  });
  app.setNotFoundHandler((req, reply) => {
    const e = new ApiError(404, 'not_found', `No route for ${req.method} ${req.url.split('?')[0]}`, 'error.notFound');
    return reply.code(404).send(e.body());
  });
}

/**
 * Requests Node cannot parse (headers over 16 kB, broken framing, header timeout) never reach
 * Fastify's routes: Node emits `clientError` with the raw bytes it choked on as `err.rawPacket`,
 * which may hold an Authorization header or a cookie. Fastify's default handler logs that error
 * whole (at trace) and answers a body without error_message_key. This one logs the code only and
 * answers the contract's JSON error.
 */
function installClientErrorHandler(app: FastifyInstance): void {
  app.server.removeAllListeners('clientError');
  app.server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) => {
    if (err.code === 'ECONNRESET' || socket.destroyed) return;
    const e =
      err.code === 'HPE_HEADER_OVERFLOW'
        ? new ApiError(431, 'invalid_request', 'The request headers are too large', 'error.requestHeadersTooLarge')
        : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
          ? new ApiError(408, 'invalid_request', 'The request took too long to arrive', 'error.requestTimeout')
          : new ApiError(400, 'invalid_request', 'The request is malformed', 'error.invalidRequest');
    app.log.debug(
      { event: 'client_error', parser_error: String(err.code).slice(0, 60), status: e.status },
      'unparsable request refused',
    );
    if (socket.writable) {
      const body = JSON.stringify(e.body());
      socket.write(
        `HTTP/1.1 ${e.status} ${STATUS_CODES[e.status]}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
          `Cache-Control: no-store\r\nConnection: close\r\n\r\n${body}`,
      );
    }
    socket.destroy();
  });
}
