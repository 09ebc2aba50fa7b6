import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type {
  FastifyBaseLogger,
  FastifyInstance,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
} from 'fastify';

/**
 * The Fastify instance Ward's routes are declared on: TypeBox is its type provider, so a route's
 * `schema: { querystring, body, response }` written with TypeBox types `req.query` and `req.body`
 * (and the same schema objects validate the request and describe it in OpenAPI).
 */
export type WardApp = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  TypeBoxTypeProvider
>;
