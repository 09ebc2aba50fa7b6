import type { JsonSchema, ManagementRoute } from './route.js';
import { errorSchema } from './schemas.js';

/** The properties of an object schema (TypeBox's own keys are not enumerable: JSON.stringify leaves them out). */
const propertiesOf = (schema: JsonSchema | undefined): Record<string, object> =>
  (schema as { properties?: Record<string, object> } | undefined)?.properties ?? {};

/** OpenAPI 3.1 description generated from the management route table (the same schemas validate requests). */
export function openApiDocument(issuer: string, routes: ManagementRoute[]): string {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const r of routes) {
    const path = r.url.replace(/:([A-Za-z]+)/g, '{$1}');
    const params = Object.entries(propertiesOf(r.params)).map(([name, schema]) => ({
      name,
      in: 'path',
      required: true,
      schema,
    }));
    const query = Object.entries(propertiesOf(r.query)).map(([name, schema]) => ({
      name,
      in: 'query',
      required: false,
      schema,
    }));
    const errors = Object.fromEntries(
      ['400', '401', '403', '404', '409'].map((s) => [
        s,
        { description: 'Error', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } },
      ]),
    );
    (paths[path] ??= {})[r.method.toLowerCase()] = {
      summary: r.summary,
      tags: [r.tag],
      'x-permission': r.permission,
      security: [{ bearer: [r.permission] }],
      ...(params.length || query.length ? { parameters: [...params, ...query] } : {}),
      ...(r.stream
        ? {
            requestBody: {
              required: true,
              content: Object.fromEntries(Object.entries(r.stream).map(([type, schema]) => [type, { schema }])),
            },
          }
        : {}),
      ...(r.body
        ? {
            requestBody: {
              required: !r.bodyOptional && (r.method !== 'POST' || Object.keys(propertiesOf(r.body)).length > 0),
              content: { 'application/json': { schema: r.body } },
            },
          }
        : {}),
      responses: {
        [String(r.response.status)]: r.response.schema
          ? {
              description: 'Success',
              content: { [r.response.contentType ?? 'application/json']: { schema: r.response.schema } },
            }
          : { description: 'Done' },
        ...errors,
      },
    };
  }
  return JSON.stringify({
    openapi: '3.1.0',
    info: {
      title: 'Ward management API',
      version: '1',
      description: 'Bearer: a management client_credentials token or a console user token.',
    },
    servers: [{ url: issuer }],
    paths,
    components: {
      schemas: { Error: errorSchema },
      securitySchemes: {
        bearer: {
          type: 'oauth2',
          flows: {
            clientCredentials: {
              tokenUrl: `${issuer}/oauth/token`,
              scopes: Object.fromEntries([...new Set(routes.map((r) => r.permission))].map((p) => [p, p])),
            },
          },
        },
      },
    },
  });
}
