// The product specification writes the global rotation, the client rotation and the sync as bare calls:
// `POST /api/v1/site/keys`, `POST` / `PUT /api/v1/clients/:clientId/keys`, no body, no Content-Type
// (identity-api.md: "an absent or empty body must be accepted on those three"). The requests are written
// byte by byte on a TLS socket, as curl sends them, so no HTTP client adds a header of its own.
// A body that is present but wrong is still refused with the API's error body. SQLite and PostgreSQL.
import assert from 'node:assert/strict';
import { connect } from 'node:tls';
import { after, before, describe, it } from 'node:test';
import { engines } from '../helpers/databases.js';
import { CONSOLE_CLIENT, api, consoleToken } from '../helpers/management.js';
import { startWard, type TestWard } from '../helpers/ward.js';

const APP = {
  client_id: 'app',
  name: 'App',
  type: 'public',
  jwt_algorithm: 'RS256',
  allowed_callback_urls: ['https://app.example/cb'],
};

/** One request exactly as given (headers and body), on its own connection; the answer's status and JSON body. */
async function raw(ward: TestWard, head: string, body = ''): Promise<{ status: number; body: Record<string, any> }> {
  const { port } = new URL(ward.url);
  const socket = connect({ host: '127.0.0.1', port: Number(port), servername: 'localhost', ca: ward.ca });
  const chunks: Buffer[] = [];
  socket.on('data', (c: Buffer) => chunks.push(c));
  await new Promise((resolve, reject) => socket.once('secureConnect', resolve).once('error', reject));
  // Written, not ended: Node's server drops a request whose connection is half-closed (Connection: close ends it).
  socket.write(`${head.replace(/\n/g, '\r\n')}Host: localhost:${port}\r\nConnection: close\r\n\r\n${body}`);
  await new Promise((resolve, reject) => socket.once('close', resolve).once('error', reject));
  const text = Buffer.concat(chunks).toString('utf8');
  const [statusLine, ...rest] = text.split('\r\n\r\n');
  const payload = rest.join('\r\n\r\n');
  return { status: Number(statusLine!.split(' ')[1]), body: payload ? JSON.parse(payload) : undefined };
}

// The ways "no body" reaches a server: none at all (curl -X POST), Content-Length 0 (most HTTP clients),
// and an empty body declared as JSON (curl -X POST -H 'Content-Type: application/json').
const NO_BODY: Array<[string, string]> = [
  ['no body, no Content-Type', ''],
  ['Content-Length: 0', 'Content-Length: 0\n'],
  ['an empty JSON body', 'Content-Type: application/json\nContent-Length: 0\n'],
  ['an empty form body', 'Content-Type: application/x-www-form-urlencoded\nContent-Length: 0\n'],
];

// Present but wrong: refused in the API's error format, and nothing changes.
const WRONG_BODY: Array<[string, string]> = [
  ['{"force":true}', '{"force":true}'],
  ['null', 'null'],
  ['[]', '[]'],
  ['"x"', '"x"'],
  ['broken JSON', '{'],
  ['blanks', '  '],
];
const json = (body: string) => `Content-Type: application/json\nContent-Length: ${Buffer.byteLength(body)}\n`;

for (const engine of engines()) {
  describe(`key calls with no body, as the specification writes them (${engine})`, () => {
    let ward: TestWard;
    let auth: string;
    let admin: ReturnType<typeof api>;
    before(async () => {
      ward = await startWard({ engine, clients: [APP, CONSOLE_CLIENT] });
      const { token } = await consoleToken(ward, 'developer');
      auth = `Authorization: Bearer ${token}\n`;
      admin = api(ward, token);
    });
    after(() => ward.close());

    type Key = { kid: string; status: string };
    const current = (keys: Key[]) => keys.find((k) => k.status === 'current')?.kid;
    const globalKid = async () => current((await admin.get('/api/v1/site/keys')).body.keys as Key[]);
    const appKeys = async () => (await admin.get('/api/v1/clients/app/keys')).body as { state: string; keys: Key[] };
    const appKid = async () => current((await appKeys()).keys);

    for (const [name, headers] of NO_BODY) {
      it(`POST /api/v1/site/keys with ${name} rotates the global pair`, async () => {
        const old = await globalKid();
        const res = await raw(ward, `POST /api/v1/site/keys HTTP/1.1\n${auth}${headers}`);
        assert.equal(res.status, 201, JSON.stringify(res.body));
        assert.notEqual(res.body.kid, old);
        assert.equal(await globalKid(), res.body.kid);
      });

      it(`POST /api/v1/clients/:clientId/keys with ${name} gives the client a new pair`, async () => {
        const old = await appKid();
        const res = await raw(ward, `POST /api/v1/clients/app/keys HTTP/1.1\n${auth}${headers}`);
        assert.equal(res.status, 201, JSON.stringify(res.body));
        assert.equal(res.body.key_set, 'client:app');
        assert.notEqual(res.body.kid, old);
        assert.equal((await appKeys()).state, 'client_specific');
        assert.equal(await appKid(), res.body.kid);
      });

      it(`PUT /api/v1/clients/:clientId/keys with ${name} syncs the client back to the global pair`, async () => {
        assert.equal((await admin.post('/api/v1/clients/app/keys', {})).status, 201);
        assert.equal((await appKeys()).state, 'client_specific');
        const res = await raw(ward, `PUT /api/v1/clients/app/keys HTTP/1.1\n${auth}${headers}`);
        assert.equal(res.status, 200, JSON.stringify(res.body));
        assert.equal(res.body.state, 'synced_with_global');
        assert.equal((await appKeys()).state, 'synced_with_global');
      });
    }

    it('refuses a body that is present but wrong on the three calls, in the error format, no change', async () => {
      assert.equal((await admin.post('/api/v1/clients/app/keys', {})).status, 201);
      const [site, app] = [await globalKid(), await appKid()];
      const calls = ['POST /api/v1/site/keys', 'POST /api/v1/clients/app/keys', 'PUT /api/v1/clients/app/keys'];
      for (const line of calls) {
        for (const [name, body] of WRONG_BODY) {
          const res = await raw(ward, `${line} HTTP/1.1\n${auth}${json(body)}`, body);
          assert.equal(res.status, 400, `${line} with ${name}`);
          assert.equal(res.body.error, 'invalid_request', `${line} with ${name}`);
          assert.ok(res.body.error_message_key, `${line} with ${name}: ${JSON.stringify(res.body)}`);
        }
      }
      assert.equal(await globalKid(), site);
      assert.equal(await appKid(), app);
      assert.equal((await appKeys()).state, 'client_specific');
    });

    it('still asks for the credential and the permission before anything else', async () => {
      assert.equal((await raw(ward, 'POST /api/v1/site/keys HTTP/1.1\n')).status, 401);
      const viewer = (await consoleToken(ward, 'viewer')).token;
      assert.equal((await raw(ward, `POST /api/v1/site/keys HTTP/1.1\nAuthorization: Bearer ${viewer}\n`)).status, 403);
    });

    it('keeps refusing an empty JSON body where a body is required', async () => {
      const res = await raw(ward, `POST /api/v1/clients HTTP/1.1\n${auth}${json('')}`);
      assert.equal(res.status, 400);
      assert.ok(res.body.error_message_key);
    });

    it('describes the body of the three calls as optional in the OpenAPI document', async () => {
      type Doc = { paths: Record<string, Record<string, { requestBody?: { required: boolean } }>> };
      const doc = (await (await ward.fetch('/api/v1/openapi.json')).json()) as Doc;
      assert.equal(doc.paths['/api/v1/site/keys']!.post!.requestBody!.required, false);
      assert.equal(doc.paths['/api/v1/clients/{clientId}/keys']!.post!.requestBody!.required, false);
      assert.equal(doc.paths['/api/v1/clients/{clientId}/keys']!.put!.requestBody!.required, false);
      assert.equal(doc.paths['/api/v1/clients/{clientId}/secret']!.post!.requestBody!.required, false, 'unchanged');
      assert.equal(doc.paths['/api/v1/clients/{clientId}']!.patch!.requestBody!.required, true, 'unchanged');
    });
  });
}
