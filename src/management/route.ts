import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ManagementScope } from '../config/types.js';
import { WardError, type FieldError } from '../errors/ward-error.js';
import type { Registry } from '../registry.js';
import { recordAudit } from '../audit/record.js';
import { authenticateManagement, requirePermission, type ManagementActor } from './auth.js';

export type JsonSchema = Record<string, unknown>;

/** One management operation: its schemas drive validation and the OpenAPI description alike. */
export interface ManagementRoute {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  url: string;
  summary: string;
  tag: string;
  permission: ManagementScope;
  params?: JsonSchema;
  query?: JsonSchema;
  body?: JsonSchema;
  /** The call may come with no body at all, or an empty one (taken as {}): the specification writes it so. */
  bodyOptional?: true;
  /** Status and schema of the success answer (204 has none). */
  response: { status: number; schema?: JsonSchema };
  /** Audited action name for operations that change something. */
  audit?: string;
  handler(ctx: {
    actor: ManagementActor;
    params: Record<string, string>;
    query: Record<string, unknown>;
    body: Record<string, unknown>;
    req: FastifyRequest;
  }): Promise<unknown>;
}

const detailsOf = (
  errors: Array<{ instancePath?: string; message?: string; params?: Record<string, unknown>; keyword?: string }>,
): FieldError[] =>
  errors.map((e) => {
    const field =
      [
        e.instancePath?.replace(/^\//, '').replace(/\//g, '.'),
        e.params?.additionalProperty ?? e.params?.missingProperty,
      ]
        .filter(Boolean)
        .join('.') || 'body';
    return {
      field: String(field),
      message: e.keyword === 'additionalProperties' ? 'is not an allowed field' : (e.message ?? 'is invalid'),
      code: e.keyword === 'required' ? 'missing' : 'invalid',
    };
  });

export function registerManagementRoutes(
  app: FastifyInstance,
  r: Pick<Registry, 'accessTokens' | 'clients' | 'clock' | 'storage' | 'users'>,
  routes: ManagementRoute[],
): void {
  for (const def of routes) if (!def.bodyOptional) addRoute(app, r, def);
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

function addRoute(
  app: FastifyInstance,
  r: Pick<Registry, 'accessTokens' | 'clients' | 'clock' | 'storage' | 'users'>,
  def: ManagementRoute,
): void {
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
      const actor = await authenticateManagement(r, req.headers.authorization, req.ip);
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
          const details = detailsOf((req.validationError as unknown as { validation: never[] }).validation ?? []);
          const description = `Invalid request: ${details.map((d) => `${d.field} ${d.message}`).join('; ')}`;
          throw new WardError('invalidRequest', { description: description.slice(0, 500), details });
        }
        out = await def.handler({
          actor,
          params: req.params as Record<string, string>,
          query: req.query as Record<string, unknown>,
          body: (req.body ?? {}) as Record<string, unknown>,
          req,
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
      reply.header('Cache-Control', 'no-store');
      if (def.response.status === 204) return reply.code(204).send();
      return reply.code(def.response.status).send(out);
    },
  });
}
