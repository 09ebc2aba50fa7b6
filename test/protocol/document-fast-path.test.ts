// The JWK Set and discovery are answered before Fastify in their plain case (http/tuning/document-fast-path.ts):
// the answer must be the route's own, byte for byte and header for header, counted at /metrics like
// any request, and every other case (HEAD, a query, a conditional or cross-origin request) must
// still get the route's full behaviour.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Response } from 'undici';
import { installFastPath } from '../../src/http/tuning/document-fast-path.js';
import { metricValue } from '../helpers/metrics.js';
import { PUBLIC_CLIENT } from '../helpers/oauth.js';
import { startWard, type TestWard } from '../helpers/ward.js';

const VARYING = new Set(['date', 'x-request-id', 'vary', 'access-control-allow-origin', 'keep-alive', 'connection']);

function headersOf(res: Response): Record<string, string> {
  const out: Record<string, string> = {};
  res.headers.forEach((v, k) => {
    if (!VARYING.has(k)) out[k] = v;
  });
  return out;
}

describe('JWK Set and discovery: the fast path answers like the route', () => {
  let ward: TestWard;
  before(async () => {
    ward = await startWard({ clients: [PUBLIC_CLIENT] });
  });
  after(() => ward.close());

  for (const path of ['/jwks.json', '/.well-known/openid-configuration']) {
    it(`${path}: same status, headers and body as through Fastify; counted at /metrics`, async () => {
      const series = `ward_http_request_duration_seconds_count{method="GET",route="${path}",status="200"}`;
      const before = metricValue(await (await ward.fetch('/metrics')).text(), series);
      const plain = await ward.fetch(path);
      // A non-matching If-None-Match is the same request for the answer, but goes through Fastify.
      const routed = await ward.fetch(path, { headers: { 'if-none-match': '"not-this-one"' } });
      assert.equal(plain.status, 200);
      assert.equal(routed.status, 200);
      assert.deepEqual(headersOf(plain), headersOf(routed));
      const body = await plain.text();
      assert.equal(body, await routed.text());
      assert.ok(JSON.parse(body));
      assert.match(plain.headers.get('x-request-id')!, /^[0-9a-f-]{36}$/);
      const given = await ward.fetch(path, { headers: { 'x-request-id': 'caller-id-1234' } });
      assert.equal(given.headers.get('x-request-id'), 'caller-id-1234', 'a sane caller id is echoed');
      await given.arrayBuffer();
      const after = metricValue(await (await ward.fetch('/metrics')).text(), series);
      assert.equal(after - before, 3);
    });
  }

  it('conditional, cross-origin, HEAD and client-specific requests keep the route behaviour', async () => {
    const first = await ward.fetch('/jwks.json');
    const etag = first.headers.get('etag')!;
    await first.arrayBuffer();
    const cached = await ward.fetch('/jwks.json', { headers: { 'if-none-match': etag } });
    assert.equal(cached.status, 304);
    const cors = await ward.fetch('/.well-known/openid-configuration', {
      headers: { origin: 'https://anywhere.example' },
    });
    assert.equal(cors.headers.get('access-control-allow-origin'), '*');
    await cors.arrayBuffer();
    const head = await ward.fetch('/jwks.json', { method: 'HEAD' });
    assert.equal(head.status, 200);
    assert.equal(head.headers.get('etag'), etag);
    const unknown = await ward.fetch('/jwks.json?client_id=nobody');
    assert.equal(unknown.status, 404);
    assert.equal(((await unknown.json()) as { error_message_key: string }).error_message_key, 'error.client.notFound');
    const post = await ward.fetch('/jwks.json', { method: 'POST' });
    assert.equal(post.status, 404);
    await post.arrayBuffer();
  });

  it('a key rotation shows at once on the fast path', async () => {
    const before = (await (await ward.fetch('/jwks.json')).json()) as { keys: { kid: string }[] };
    await ward.registry.keyOps.rotateGlobal({ type: 'system', id: 'test', ip: null });
    const after = (await (await ward.fetch('/jwks.json')).json()) as { keys: { kid: string }[] };
    assert.equal(after.keys.length, before.keys.length + 1);
  });
});

describe('installFastPath', () => {
  it('answers what the fast path takes, hands the rest to the server handler, and refuses an ambiguous server', async () => {
    const { createServer } = await import('node:http');
    const server = createServer((_req, res) => res.end('handler'));
    installFastPath(server, (req, res) => {
      if (req.url !== '/fast') return false;
      res.end('fast');
      return true;
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    try {
      assert.equal(await (await fetch(`http://127.0.0.1:${port}/fast`)).text(), 'fast');
      assert.equal(await (await fetch(`http://127.0.0.1:${port}/other`)).text(), 'handler');
      assert.equal(server.listeners('request').length, 1);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
    const two = createServer(() => undefined);
    two.on('request', () => undefined);
    assert.throws(() => installFastPath(two, () => false), /expected one request handler/);
  });
});
