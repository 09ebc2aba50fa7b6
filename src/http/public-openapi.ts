import type { FastifyInstance, RouteOptions } from 'fastify';
import { errorSchema } from '../management/schemas.js';

/** What the public description keeps of a route: its method, path and the schemas it declared. */
interface PublicRoute {
  method: string;
  url: string;
  schema?: { params?: object; querystring?: object; body?: object; response?: Record<string, object> };
}

/** Paths that are not the public identity API: the management API (its own document) and the console. */
const notPublic = (url: string) => url.startsWith('/api/') || url.startsWith('/console') || url === '*';

/**
 * Collects the public routes as they are registered (Fastify's onRoute hook, installed before them)
 * and describes them as OpenAPI 3.1 from the schemas they declare: the same objects that validate
 * the requests and serialize the answers. A route without a schema is listed with its method only.
 */
export function publicRouteCollector() {
  const routes: PublicRoute[] = [];
  return {
    onRoute(opts: RouteOptions) {
      if (notPublic(opts.url)) return;
      for (const method of [opts.method].flat()) {
        // HEAD is Fastify's own twin of each GET.
        if (method === 'HEAD' && !opts.schema) continue;
        routes.push({ method, url: opts.url, schema: opts.schema as PublicRoute['schema'] });
      }
    },
    document: (issuer: string) => openApiOf(issuer, routes),
  };
}

/**
 * GET /identity/v1/openapi.json: the description of the public routes, built at its first request
 * (every route is registered by then). Call it before the routes are registered.
 */
export function installPublicOpenApi(app: FastifyInstance, issuer: string): void {
  const collector = publicRouteCollector();
  app.addHook('onRoute', collector.onRoute);
  let doc: string | undefined;
  app.get('/identity/v1/openapi.json', (_req, reply) => {
    doc ??= collector.document(issuer);
    reply
      .header('Content-Type', 'application/json; charset=utf-8')
      .header('Cache-Control', 'public, max-age=300')
      .send(doc);
  });
}

const propertiesOf = (schema: object | undefined): Record<string, object> =>
  (schema as { properties?: Record<string, object> } | undefined)?.properties ?? {};

function openApiOf(issuer: string, routes: PublicRoute[]): string {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const r of routes) {
    const s = r.schema ?? {};
    const path = r.url.replace(/:([A-Za-z_]+)/g, '{$1}');
    const parameters = [
      ...[...r.url.matchAll(/:([A-Za-z_]+)/g)].map(([, name]) => ({
        name,
        in: 'path',
        required: true,
        schema: propertiesOf(s.params)[name!] ?? { type: 'string' },
      })),
      ...Object.entries(propertiesOf(s.querystring)).map(([name, schema]) => ({
        name,
        in: 'query',
        required: false,
        schema,
      })),
    ];
    const responses: Record<string, unknown> = {};
    // A schema keyed by media type (`{ content: { 'text/plain': { schema } } }`) is Fastify's form for a non-JSON answer.
    for (const [status, schema] of Object.entries(s.response ?? {}))
      responses[status] = {
        description: 'Answer',
        content: 'content' in schema ? schema.content : { 'application/json': { schema } },
      };
    responses['4XX'] = {
      description: 'Refusal',
      content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
    };
    (paths[path] ??= {})[r.method.toLowerCase()] = {
      ...(parameters.length ? { parameters } : {}),
      ...(s.body
        ? {
            requestBody: {
              content: {
                'application/json': { schema: s.body },
                'application/x-www-form-urlencoded': { schema: s.body },
              },
            },
          }
        : {}),
      responses,
    };
  }
  return JSON.stringify({
    openapi: '3.1.0',
    info: {
      title: 'Ward identity API',
      version: '1',
      description:
        'The public endpoints (OAuth 2.0 / OpenID Connect, the Core SDK identity API), from the schemas the routes ' +
        'declare.',
    },
    servers: [{ url: issuer }],
    paths,
    components: { schemas: { Error: errorSchema } },
  });
}
