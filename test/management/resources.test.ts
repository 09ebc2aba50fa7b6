// /api/v1/resources (issue #39 item 3): administrators register API resources (identifier URI, name,
// scopes, token format, access token lifetime); each change is audited, bad input is a 400 that says
// which field, a second resource with the same identifier a 409, a caller without manage:clients 403,
// and the routes are in the OpenAPI document. SQLite, and PostgreSQL when configured.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { engines } from '../helpers/databases.js';
import { api } from '../helpers/management.js';
import { PUBLIC_CLIENT, tokenRequest } from '../helpers/oauth.js';
import { startWard, type TestWard } from '../helpers/ward.js';

const SECRET = 'resource-manager-secret-of-40-characters!';
const MANAGER = {
  client_id: 'ops',
  type: 'confidential',
  client_secret: SECRET,
  grant_types: ['client_credentials'],
  management_scopes: ['manage:clients', 'read:clients', 'read:audit'],
};
const READER_SECRET = 'resource-reader-secret-of-40-characters!!';
const READER = { ...MANAGER, client_id: 'viewer', client_secret: READER_SECRET, management_scopes: ['read:clients'] };

async function tokenOf(ward: TestWard, clientId: string, secret: string): Promise<string> {
  const res = await tokenRequest(ward, {
    grant_type: 'client_credentials',
    client_id: clientId,
    client_secret: secret,
  });
  return ((await res.json()) as { access_token: string }).access_token;
}

for (const engine of engines()) {
  describe(`API resources: the management API (${engine})`, () => {
    let ward: TestWard;
    let admin: ReturnType<typeof api>;
    let reader: ReturnType<typeof api>;
    before(async () => {
      ward = await startWard({ engine, clients: [PUBLIC_CLIENT, MANAGER, READER] });
      admin = api(ward, await tokenOf(ward, 'ops', SECRET));
      reader = api(ward, await tokenOf(ward, 'viewer', READER_SECRET));
    });
    after(() => ward.close());

    it('creates, reads, lists, changes and removes a resource, each change audited', async () => {
      const made = await admin.post('/api/v1/resources', {
        identifier: 'https://api.example.com/orders',
        name: 'Orders API',
        scopes: ['orders:read', 'orders:write', 'orders:read'],
      });
      assert.equal(made.status, 201, JSON.stringify(made.body));
      assert.equal(made.body.identifier, 'https://api.example.com/orders');
      assert.deepEqual(made.body.scopes, ['orders:read', 'orders:write'], 'duplicates dropped');
      assert.equal(made.body.token_format, 'jwt', 'jwt by default');
      assert.equal(made.body.access_token_ttl, null, "the account's lifetime by default");
      const id = made.body.id as string;

      const read = await reader.get(`/api/v1/resources/${id}`);
      assert.equal(read.status, 200);
      assert.equal(read.body.name, 'Orders API');
      const listed = await reader.get('/api/v1/resources');
      assert.ok((listed.body.resources as Array<{ id: string }>).some((r) => r.id === id));

      const changed = await admin.patch(`/api/v1/resources/${id}`, { token_format: 'opaque', access_token_ttl: 600 });
      assert.equal(changed.status, 200, JSON.stringify(changed.body));
      assert.equal(changed.body.token_format, 'opaque');
      assert.equal(changed.body.access_token_ttl, 600);
      assert.equal(
        (await admin.patch(`/api/v1/resources/${id}`, { access_token_ttl: null })).body.access_token_ttl,
        null,
      );

      assert.equal((await admin.del(`/api/v1/resources/${id}`)).status, 204);
      assert.equal((await admin.get(`/api/v1/resources/${id}`)).status, 404);
      assert.equal((await admin.del(`/api/v1/resources/${id}`)).status, 404);

      await ward.registry.events.flush();
      for (const action of ['resource.created', 'resource.updated', 'resource.deleted']) {
        const audit = await admin.get(`/api/v1/audit?action=${action}&target=${encodeURIComponent(`resource:${id}`)}`);
        assert.equal(audit.status, 200, JSON.stringify(audit.body));
        assert.ok((audit.body.events as unknown[]).length >= 1, `${action} is audited`);
      }
    });

    it('refuses bad input with a 400 naming the field, and a taken identifier with a 409', async () => {
      const bad: Array<[Record<string, unknown>, string]> = [
        [{ identifier: 'api.example.com/orders', name: 'x' }, 'identifier'],
        [{ identifier: 'https://api.example.com/#frag', name: 'x' }, 'identifier'],
        [{ identifier: 'https://user:pw@api.example.com/', name: 'x' }, 'identifier'],
        [{ identifier: 'javascript:alert(1)', name: 'x' }, 'identifier'],
        [{ identifier: 'https://api.example.com/a', name: 'x', scopes: ['openid'] }, 'scopes'],
        [{ identifier: 'https://api.example.com/a', name: 'x', scopes: ['has space'] }, 'scopes'],
        [{ identifier: 'https://api.example.com/a', name: 'x', token_format: 'paseto' }, 'token_format'],
        [{ identifier: 'https://api.example.com/a', name: 'x', access_token_ttl: 5 }, 'access_token_ttl'],
        [{ identifier: 'https://api.example.com/a' }, 'name'],
        [{ identifier: 'https://api.example.com/a', name: 'x', extra: 1 }, 'extra'],
      ];
      for (const [body, field] of bad) {
        const res = await admin.post('/api/v1/resources', body);
        assert.equal(res.status, 400, `${JSON.stringify(body)}: ${JSON.stringify(res.body)}`);
        assert.equal(typeof res.body.error_message_key, 'string');
        assert.ok(JSON.stringify(res.body).includes(field), `${field} named in ${JSON.stringify(res.body)}`);
      }
      const first = await admin.post('/api/v1/resources', { identifier: 'https://api.example.com/dup', name: 'A' });
      assert.equal(first.status, 201);
      const again = await admin.post('/api/v1/resources', { identifier: 'https://api.example.com/dup', name: 'B' });
      assert.equal(again.status, 409);
      assert.equal(again.body.error_message_key, 'error.resource.exists');
      const other = await admin.post('/api/v1/resources', { identifier: 'https://api.example.com/other', name: 'C' });
      const renamed = await admin.patch(`/api/v1/resources/${other.body.id as string}`, {
        identifier: 'https://api.example.com/dup',
      });
      assert.equal(renamed.status, 409);
    });

    it('needs manage:clients to change and read:clients to read; the routes are in the OpenAPI document', async () => {
      const refused = await reader.post('/api/v1/resources', { identifier: 'https://api.example.com/r', name: 'R' });
      assert.equal(refused.status, 403);
      const anonymous = await ward.fetch('/api/v1/resources');
      assert.equal(anonymous.status, 401);
      const doc = (await (await ward.fetch('/api/v1/openapi.json')).json()) as { paths: Record<string, object> };
      assert.ok(doc.paths['/api/v1/resources'], 'listed in OpenAPI');
      assert.ok(doc.paths['/api/v1/resources/{resourceId}'], 'listed in OpenAPI');
    });
  });
}
