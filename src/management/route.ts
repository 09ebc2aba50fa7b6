import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Static, TSchema } from 'typebox';
import type { ManagementScope } from '../config/types.js';
import { WardError } from '../errors/ward-error.js';
import { validationRefusal } from '../http/validation.js';
import { recordAudit } from '../audit/record.js';
import { authenticateManagement, requirePermission, type ManagementActor } from './auth.js';
import type { UserService } from '../accounts/users.js';
import type { ClientService } from '../clients/service.js';
import type { Clock } from '../lib/clock.js';
import type { AccessTokenCodec } from '../protocol/access-token-codec.js';
import type { Storage } from '../storage/storage.js';

/** The services this module uses (registry.ts builds them; the composition passes them in). */
export interface ManagementRouteDeps {
  accessTokens: AccessTokenCodec;
  clients: ClientService;
  clock: Clock;
  storage: Storage;
  users: UserService;
  /** The webhook sender, told after a change (its audit row may have queued deliveries). */
  webhookDelivery?: { kick(): void };
}

/** A schema of the management API: TypeBox, which is JSON Schema (its own keys are not enumerable). */
export type JsonSchema = TSchema;

/**
 * One management operation: its TypeBox schemas drive validation, type the handler's params, query
 * and body (Static<>), and describe the operation in the OpenAPI document alike. Declare it with
 * `managementRoute({...})` so the handler's types follow the schemas.
 */
export interface ManagementRoute<
  P extends TSchema = TSchema,
  Q extends TSchema = TSchema,
  B extends TSchema = TSchema,
> {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  url: string;
  summary: string;
  tag: string;
  permission: ManagementScope;
  params?: P;
  query?: Q;
  body?: B;
  /** The call may come with no body at all, or an empty one (taken as {}): the specification writes it so. */
  bodyOptional?: true;
  /**
   * The body is read as a stream by the handler (`req.body` is the raw request stream), never
   * buffered: the content types it takes, each with the schema of one item (for the OpenAPI document).
   */
  stream?: Record<string, TSchema>;
  /** Status and schema of the success answer (204 has none). */
  response: {
    status: number;
    schema?: TSchema /** A streamed answer (the handler returns a Readable) of this type. */;
    contentType?: string;
  };
  /** Audited action name for operations that change something. */
  audit?: string;
  handler(ctx: {
    actor: ManagementActor;
    params: Static<P>;
    query: Static<Q>;
    body: Static<B>;
    req: FastifyRequest;
    /** For a header of the answer (a Location); the status and body are the route's. */
    reply: FastifyReply;
  }): Promise<unknown>;
}

/** A management route whose handler is typed by its schemas (the table holds them untyped). */
export const managementRoute = <P extends TSchema, Q extends TSchema, B extends TSchema>(
  def: ManagementRoute<P, Q, B>,
): ManagementRoute => def as unknown as ManagementRoute;

export function registerManagementRoutes(
  app: FastifyInstance,
  r: ManagementRouteDeps,
  routes: ManagementRoute[],
): void {
  for (const def of routes) if (!def.bodyOptional && !def.stream) addRoute(app, r, def);
  const streamed = routes.filter((def) => def.stream);
  // A streamed body is handed over as the request stream itself, in these routes' own scope: no
  // parser reads it whole (and the 64 KiB body limit, a buffering parser's, does not apply).
  for (const def of streamed)
    void app.register(async (scope) => {
      scope.addContentTypeParser(Object.keys(def.stream!), (_req, payload, done) => done(null, payload));
      addRoute(scope, r, def);
    });
  const optional = routes.filter((def) => def.bodyOptional);
  // Fastify refuses an empty application/json body (curl -H 'Content-Type: application/json' -X POST):
  // these routes get their own JSON parser, in their own scope, that takes it for no body.
  if (optional.length) {
    void app.register(async (scope) => {
      const parseJson = scope.getDefaultJsonParser('error', 'error');
      scope.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) =>
        body === '' ? done(null, undefined) : parseJson(req, body as string, done),
      );
      for (const def of optional) addRoute(scope, r, def);
    });
  }
}

/** No body (no Content-Type and no length, or an empty one) is validated as {}; a JSON null is still refused. */
const absentBodyIsEmpty = async (req: FastifyRequest) => {
  if (req.body === undefined) req.body = {};
};

function addRoute(app: FastifyInstance, r: ManagementRouteDeps, def: ManagementRoute): void {
  app.route({
    method: def.method,
    url: def.url,
    attachValidation: true,
    ...(def.bodyOptional ? { preValidation: absentBodyIsEmpty } : {}),
    schema: {
      ...(def.params ? { params: def.params } : {}),
      ...(def.query ? { querystring: def.query } : {}),
      ...(def.body ? { body: def.body } : {}),
    },
    handler: async (req, reply) => {
      const credentials = {
        authorization: req.headers.authorization,
        dpop: req.headers.dpop,
        method: req.method,
        path: req.url,
      };
      const actor = await authenticateManagement(r, credentials, req.ip);
      try {
        requirePermission(actor, def.permission);
      } catch (e) {
        await recordAudit(
          r.storage,
          r.clock.now(),
          actor,
          def.audit ?? `${def.tag}.read`,
          req.url.split('?')[0]!.slice(0, 400),
          'denied',
          { permission: def.permission },
        );
        throw e;
      }
      const action = def.audit ?? `${def.tag}.read`;
      const target = req.url.split('?')[0]!.slice(0, 400);
      let out: unknown;
      try {
        if (req.validationError) {
          throw validationRefusal((req.validationError as { validation?: never[] }).validation ?? []);
        }
        out = await def.handler({
          actor,
          params: req.params,
          query: req.query,
          body: req.body ?? {},
          req,
          reply,
        });
      } catch (e) {
        // Every management call is audited: a refused one too, with its reason (never its body).
        if (e instanceof WardError)
          await recordAudit(r.storage, r.clock.now(), actor, action, target, 'failed', {
            status: e.status,
            error: e.error,
          });
        throw e;
      }
      // Changes audit themselves inside their transaction (with details); reads are audited here.
      if (!def.audit) await recordAudit(r.storage, r.clock.now(), actor, action, target, 'success', {});
      else r.webhookDelivery?.kick();
      reply.header('Cache-Control', 'no-store');
      if (def.response.contentType) reply.header('Content-Type', def.response.contentType);
      if (def.response.status === 204) return reply.code(204).send();
      return reply.code(def.response.status).send(out);
    },
  });
}
