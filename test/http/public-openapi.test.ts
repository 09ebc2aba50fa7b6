// The public identity API is described at /identity/v1/openapi.json from the routes Fastify registered
// and the schemas they declare. Every route of src/http/routes/ is in it (read from the source, so a new
// route that is not is a failure), and the routes that declare schemas bring their request and answer.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { startWard, type TestWard } from '../helpers/ward.js';

interface Operation {
  parameters?: { name: string; in: string }[];
  requestBody?: { content: Record<string, { schema: { properties?: Record<string, unknown> } }> };
  responses: Record<string, { content?: Record<string, { schema: { properties?: Record<string, unknown> } }> }>;
}
type Doc = { openapi: string; paths: Record<string, Record<string, Operation>> };

/** Every (method, path) the route files register, as written in them. */
function declaredRoutes(): { method: string; path: string }[] {
  const dir = 'src/http/routes';
  const out: { method: string; path: string }[] = [];
  for (const f of readdirSync(dir).filter((n) => n.endsWith('.ts'))) {
    const src = readFileSync(`${dir}/${f}`, 'utf8');
    for (const m of src.matchAll(/app\.(get|post|put|patch|delete)(?:<[^>]*>)?\(\s*'([^']+)'/g))
      out.push({ method: m[1]!, path: m[2]! });
  }
  return out;
}

const openApiPath = (url: string) => url.replace(/:([A-Za-z_]+)/g, '{$1}');

describe('the public identity API description', () => {
  let ward: TestWard;
  let doc: Doc;
  before(async () => {
    ward = await startWard();
    const res = await ward.fetch('/identity/v1/openapi.json');
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /application\/json/);
    doc = (await res.json()) as Doc;
  });
  after(() => ward.close());

  it('lists every route of src/http/routes with its method', () => {
    const routes = declaredRoutes();
    assert.ok(routes.length > 30, `only ${routes.length} routes read from the source`);
    assert.equal(doc.openapi, '3.1.0');
    for (const { method, path } of routes)
      assert.ok(doc.paths[openApiPath(path)]?.[method], `${method.toUpperCase()} ${path} is not described`);
    assert.equal(
      Object.keys(doc.paths).some((p) => p.startsWith('/api/') || p.startsWith('/console')),
      false,
      'the management API and the console have their own description',
    );
  });

  it('describes the request and the answer of the routes that declare them', () => {
    const token = doc.paths['/oauth/token']!.post!;
    assert.ok(token.requestBody?.content['application/x-www-form-urlencoded']?.schema.properties?.grant_type);
    assert.ok(token.requestBody?.content['application/json']?.schema.properties?.code_verifier);
    assert.ok(token.responses['200']?.content?.['application/json']?.schema.properties?.access_token);
    const config = doc.paths['/identity/v1/config']!.get!;
    assert.deepEqual(
      config.parameters?.map((p) => `${p.in}:${p.name}`),
      ['query:client_id', 'query:lang'],
    );
    assert.ok(config.responses['200']?.content?.['application/json']?.schema.properties?.pkce_enforced);
    const device = doc.paths['/identity/v1/mfa/trusteddevices/{id}']!.delete!;
    assert.deepEqual(
      device.parameters?.map((p) => `${p.in}:${p.name}`),
      ['path:id'],
    );
    const discovery = doc.paths['/.well-known/openid-configuration']!.get!;
    assert.ok(discovery.responses['200']?.content?.['application/json']?.schema.properties?.jwks_uri);
    const metrics = doc.paths['/metrics']!.get!;
    assert.deepEqual(Object.keys(metrics.responses['200']?.content ?? {}), ['text/plain'], 'Prometheus text, not JSON');
    // Every operation says how it refuses.
    for (const ops of Object.values(doc.paths))
      for (const op of Object.values(ops)) assert.ok(op.responses['4XX'], 'an operation without its refusal');
  });
});
