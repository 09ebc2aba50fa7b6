// The Messenger webhook kit's adapters: the Fastify plugin (a raw-Buffer content-type parser kept
// inside its own context, so the app's JSON routes still parse JSON) and the node:http listener used
// as an Express handler (express.raw() in front: req.body is the Buffer; a parsed body: refused).
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { after, before, describe, it } from 'node:test';
import Fastify from 'fastify';
import { createNodeListener, messengerFastifyPlugin, signBody } from '../../src/messenger-kit/index.js';
import { APP_SECRET, FakeWard, VERIFY_TOKEN, makeKit } from './support.js';

const RAW = Buffer.from(
  '{"object":"page","entry":[{"id":"P","time":1,"messaging":[{"sender":{"id":"psid-é"},"recipient":{"id":"P"},"timestamp":1,"message":{"mid":"m-fy","text":"caf\\u00e9 é"}}]}]}',
);

describe('Messenger webhook kit: adapters', () => {
  let ward: FakeWard;
  before(async () => {
    ward = await new FakeWard().start();
  });
  after(() => ward.close());

  it('Fastify: handshake, raw-body signature check, and the app keeps its own JSON parser', async () => {
    const { kit, rec } = makeKit(ward);
    const app = Fastify();
    app.post('/api/echo', async (req) => ({ got: req.body }));
    await app.register(messengerFastifyPlugin(kit, { path: '/webhook' }));
    try {
      const hs = await app.inject({
        method: 'GET',
        url: `/webhook?hub.mode=subscribe&hub.verify_token=${VERIFY_TOKEN}&hub.challenge=777`,
      });
      assert.equal(hs.statusCode, 200);
      assert.equal(hs.body, '777');
      assert.match(String(hs.headers['content-type']), /^text\/plain/);
      const denied = await app.inject({
        method: 'GET',
        url: '/webhook?hub.mode=subscribe&hub.verify_token=nope&hub.challenge=777',
      });
      assert.deepEqual([denied.statusCode, denied.body], [403, 'Forbidden']);

      const post = (headers: Record<string, string>, payload: Buffer = RAW) =>
        app.inject({ method: 'POST', url: '/webhook', payload, headers });
      const ok = await post({ 'content-type': 'application/json', 'x-hub-signature-256': signBody(RAW, APP_SECRET) });
      assert.deepEqual([ok.statusCode, ok.body], [200, 'EVENT_RECEIVED']);
      const bad = await post({
        'content-type': 'application/json',
        'x-hub-signature-256': signBody(JSON.stringify(JSON.parse(RAW.toString())), APP_SECRET),
      });
      assert.deepEqual([bad.statusCode, bad.body], [403, 'Forbidden']);
      const odd = await post({ 'content-type': 'text/plain', 'x-hub-signature-256': 'sha256=00' });
      assert.equal(odd.statusCode, 403);
      await kit.drain();
      assert.deepEqual(
        rec.messages.map((m) => [m.sender.id, m.message?.text]),
        [['psid-é', 'café é']],
      );

      const echo = await app.inject({ method: 'POST', url: '/api/echo', payload: { a: 1 } });
      assert.deepEqual(echo.json(), { got: { a: 1 } });
    } finally {
      await app.close();
      await kit.close();
    }
  });

  it('Express style: uses a raw Buffer req.body, refuses an already-parsed body, passes other paths to next()', async () => {
    const { kit, rec } = makeKit(ward);
    const listener = createNodeListener(kit, { path: '/webhook' });
    let nextCalls = 0;
    // A tiny stand-in for an Express app: a "body parser" chosen by path, then the listener.
    const server = createServer((req: IncomingMessage & { body?: unknown }, res: ServerResponse) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks);
        if (req.headers['x-parser'] === 'raw') req.body = body;
        if (req.headers['x-parser'] === 'json') req.body = JSON.parse(body.toString());
        listener(req, res, () => {
          nextCalls++;
          res.writeHead(404).end('next');
        });
      });
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    try {
      const send = (parser: string, path = '/webhook') =>
        fetch(base + path, {
          method: 'POST',
          body: RAW,
          headers: {
            'x-parser': parser,
            'content-type': 'application/json',
            'x-hub-signature-256': signBody(RAW, APP_SECRET),
          },
        });
      const raw = await send('raw');
      assert.deepEqual([raw.status, await raw.text()], [200, 'EVENT_RECEIVED']);
      const parsed = await send('json');
      assert.equal(parsed.status, 500);
      assert.match(await parsed.text(), /raw body/);
      const other = await send('raw', '/elsewhere');
      assert.deepEqual([other.status, await other.text(), nextCalls], [404, 'next', 1]);
      const put = await fetch(`${base}/webhook`, { method: 'PUT', headers: { 'x-parser': 'raw' }, body: 'x' });
      assert.deepEqual([put.status, put.headers.get('allow')], [405, 'GET, POST']);
      await kit.drain();
      assert.equal(rec.messages.length, 1);
    } finally {
      server.close();
      await kit.close();
    }
  });

  it('node:http: a body over maxBodyBytes answers 413 and is not queued', async () => {
    const { kit } = makeKit(ward, { autoStart: false });
    const server = createServer(createNodeListener(kit, { maxBodyBytes: 1024 }));
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    try {
      const big = Buffer.alloc(4096, 'a');
      const res = await fetch(`http://127.0.0.1:${(server.address() as { port: number }).port}/`, {
        method: 'POST',
        body: big,
        headers: { 'x-hub-signature-256': signBody(big, APP_SECRET) },
      });
      assert.equal(res.status, 413);
      assert.deepEqual(kit.stats(), { pending: 0, done: 0, failed: 0 });
    } finally {
      server.close();
      await kit.close();
    }
  });
});
