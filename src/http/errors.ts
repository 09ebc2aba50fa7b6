import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyError, FastifyInstance, FastifyRequest } from 'fastify';
import { WardError } from '../errors/ward-error.js';
import { randomId } from '../lib/random.js';
import { isUnstorableText } from '../storage/sql/errors.js';
import { isDatabaseUnavailable, type OutageLog } from '../storage/unavailable.js';
import type { AuthorizeRequest } from '../protocol/authorize/request.js';
import { sendAuthorizeError } from './authorization-response.js';
import { pageLanguage, requestLanguage } from './page-language.js';
import { validationRefusal } from './validation.js';

/** Seconds a caller is asked to wait when the database is unreachable: pg-pool reconnects on the next request. */
export const DATABASE_RETRY_AFTER_SECONDS = 2;

/**
 * The one error handler. Every refusal is a WardError (or becomes one here). A refusal of an
 * authorization request (thrown with that request, WardError.at) is answered to the browser: the
 * redirect to the client when its catalog entry allows it and the target is validated, else the
 * error page. Every other error, on any path (a hosted page's 415 or 500 too, and the same checks
 * run by the step-up API), is the contract's JSON body with error_message_key. The user message
 * follows Accept-Language. A request a route's schema refuses is invalid_request with error_details;
 * Fastify's own errors (bad JSON, body too large, unsupported media
 * type) keep their status; text PostgreSQL cannot hold (a NUL) is a 400; an unreachable database is a
 * 503 with Retry-After (logged once per interval through `outage`, not once per request); anything
 * unknown is a generic 500, logged in full with an error_id the body repeats.
 */
export function installErrorHandling(app: FastifyInstance, outage?: OutageLog, issuer?: string): void {
  // Bodies are JSON or form-encoded only (identity-api.md, transport rules). Fastify parses
  // text/plain by default: drop that parser so such a body is the 415 below, never a string that
  // a handler might half-read (text/plain is also the cross-site "simple request" of CSRF).
  app.removeContentTypeParser('text/plain');
  installClientErrorHandler(app);
  app.setErrorHandler((err: FastifyError | WardError, req, reply) => {
    const language = requestLanguage(req);
    const errorId = err instanceof WardError ? undefined : randomId();
    const e = err instanceof WardError ? err : asWardError(err, req, outage, errorId!);
    for (const [k, v] of Object.entries(e.headers)) reply.header(k, v);
    if (e.authorizeRequest) {
      // The error page speaks the request's ui_locales when it got that far, else Accept-Language.
      const request = e.authorizeRequest as Partial<AuthorizeRequest>;
      return sendAuthorizeError(reply, e, pageLanguage(req, request), issuer);
    }
    const id = e.id === 'unexpected' ? errorId : undefined;
    return reply.code(e.status).header('Cache-Control', 'no-store').send(e.body(language, id));
  });
  app.setNotFoundHandler((req, reply) => {
    const e = new WardError('notFound', { description: `No route for ${req.method} ${req.url.split('?')[0]}` });
    return reply.code(404).send(e.body(requestLanguage(req)));
  });
}

/** What a thrown error that is not a refusal means for the caller (and the log). */
function asWardError(err: FastifyError, req: FastifyRequest, outage: OutageLog | undefined, errorId: string) {
  const status = err.statusCode;
  // A route's schema refused the request: the fields in error_details (validation.ts).
  if (err.validation && status === 400) return validationRefusal(err.validation);
  if (status && status >= 400 && status < 500) {
    if (status === 415) {
      const known = err.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE';
      return new WardError('unsupportedMediaType', known ? {} : { description: 'The request is malformed' });
    }
    if (status === 413) return new WardError('payloadTooLarge');
    return new WardError('malformedRequest', { status });
  }
  if (isDatabaseUnavailable(err)) {
    if (outage) outage.failed('request', err);
    else req.log.warn({ reqId: req.id, event: 'database_unavailable' }, 'database unavailable');
    return new WardError('databaseUnavailable', {
      headers: { 'Retry-After': String(DATABASE_RETRY_AFTER_SECONDS) },
    });
  }
  if (isUnstorableText(err)) {
    // Input that reached a query unvalidated (a NUL in a search term, say): the caller's mistake, not ours.
    req.log.warn(
      { reqId: req.id, event: 'unstorable_text', route: req.routeOptions.url },
      'text the database cannot hold refused',
    );
    return new WardError('unstorableText');
  }
  req.log.error({ reqId: req.id, err, error_id: errorId }, 'unhandled error');
  return new WardError('unexpected');
}

/**
 * Requests Node cannot parse (headers over 16 kB, broken framing, header timeout) never reach
 * Fastify's routes: Node emits `clientError` with the raw bytes it choked on as `err.rawPacket`,
 * which may hold an Authorization header or a cookie. Fastify's default handler logs that error
 * whole (at trace) and answers a body without error_message_key. This one logs the code only and
 * answers the contract's JSON error (in English: the headers were not read).
 */
function installClientErrorHandler(app: FastifyInstance): void {
  app.server.removeAllListeners('clientError');
  app.server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) => {
    if (err.code === 'ECONNRESET' || socket.destroyed) return;
    const e = new WardError(
      err.code === 'HPE_HEADER_OVERFLOW'
        ? 'requestHeadersTooLarge'
        : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
          ? 'requestTimeout'
          : 'malformedRequest',
    );
    app.log.debug(
      { event: 'client_error', parser_error: String(err.code).slice(0, 60), status: e.status },
      'unparsable request refused',
    );
    if (socket.writable) {
      const body = JSON.stringify(e.body());
      socket.write(
        `HTTP/1.1 ${e.status} ${STATUS_CODES[e.status]}\r\nContent-Type: application/json; ` +
          `charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
          `Cache-Control: no-store\r\nConnection: close\r\n\r\n${body}`,
      );
    }
    socket.destroy();
  });
}
