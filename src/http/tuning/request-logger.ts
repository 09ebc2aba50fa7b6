// Speed-up `shared_request_logger` (docs/performance.md; plain path: Fastify's pino child logger
// per request). A pino child with redaction costs a few % of a small request; the lines about a
// request name its id themselves (reqId), so every request can log through the one logger.
import type { FastifyServerOptions } from 'fastify';

export const sharedRequestLogger: FastifyServerOptions['childLoggerFactory'] = (logger) => logger;
