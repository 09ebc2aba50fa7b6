// Clients through the management API: create (a generated secret shown once), read, search, change,
// regenerate a secret, delete; bad input of every kind answers 4xx JSON and changes nothing.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CONSOLE_CLIENT, api, consoleToken, uniqueId } from '../helpers/management.js';
import { PUBLIC_CLIENT, tokenRequest } from '../helpers/oauth.js';
import { startWard, type TestWard } from '../helpers/ward.js';

describe('management API: clients', () => {
  let ward: TestWard;
  let a: ReturnType<typeof api>;
  before(async () => {
    ward = await startWard({ clients: [PUBLIC_CLIENT, CONSOLE_CLIENT] });
    a = api(ward, (await consoleToken(ward, 'developer')).token);
  });
  after(() => ward.close());

  it('creates a confidential client with a generated secret shown once, which then authenticates', async () => {
    const id = uniqueId('svc');
    const created = await a.post('/api/v1/clients', {
      client_id: id,
      name: 'Service',
      type: 'confidential',
      jwt_algorithm: 'HS256',
      allowed_callback_urls: ['https://svc.example/cb'],
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const secret = created.body.client_secret as string;
    assert.ok(secret && secret.length >= 32);
    const read = await a.get(`/api/v1/clients/${id}`);
    assert.equal(read.status, 200);
    assert.equal(read.body.client_secret, undefined, 'never shown again');
    assert.equal(read.body.jwt_algorithm, 'HS256');
    // The secret works at the token endpoint (a wrong grant, but client authentication passes first).
    const res = await tokenRequest(ward, {
      grant_type: 'authorization_code',
      code: 'x',
      client_id: id,
      client_secret: secret,
    });
    assert.equal(((await res.json()) as { error: string }).error, 'invalid_grant');
    const wrong = await tokenRequest(ward, {
      grant_type: 'authorization_code',
      code: 'x',
      client_id: id,
      client_secret: 'w'.repeat(40),
    });
    assert.equal(wrong.status, 401);

    const regenerated = await a.post(`/api/v1/clients/${id}/secret`, {});
    assert.equal(regenerated.status, 200);
    assert.notEqual(regenerated.body.client_secret, secret);
    const old = await tokenRequest(ward, {
      grant_type: 'authorization_code',
      code: 'x',
      client_id: id,
      client_secret: secret,
    });
    assert.equal(old.status, 401, 'the old secret stops working');

    const list = await a.get(`/api/v1/clients?q=${id.slice(0, 8)}`);
    assert.ok(list.body.clients.some((c: { client_id: string }) => c.client_id === id));
    assert.equal((await a.del(`/api/v1/clients/${id}`)).status, 204);
    assert.equal((await a.get(`/api/v1/clients/${id}`)).status, 404);
  });

  it('sets the logout settings: post_logout_redirect_uris and a back-channel URI on a callback origin', async () => {
    const id = uniqueId('rp');
    const created = await a.post('/api/v1/clients', {
      client_id: id,
      type: 'public',
      allowed_callback_urls: ['https://rp.example/cb'],
      post_logout_redirect_uris: ['https://rp.example/bye'],
      backchannel_logout_uri: 'https://rp.example/backchannel?x=1',
      backchannel_logout_session_required: true,
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const read = await a.get(`/api/v1/clients/${id}`);
    assert.deepEqual(read.body.post_logout_redirect_uris, ['https://rp.example/bye']);
    assert.equal(read.body.backchannel_logout_uri, 'https://rp.example/backchannel?x=1');
    assert.equal(read.body.backchannel_logout_session_required, true);
    const elsewhere = await a.patch(`/api/v1/clients/${id}`, { backchannel_logout_uri: 'https://other.example/bcl' });
    assert.equal(elsewhere.status, 400);
    assert.match(JSON.stringify(elsewhere.body.error_details), /backchannel_logout_uri/);
    const fragment = await a.patch(`/api/v1/clients/${id}`, { post_logout_redirect_uris: ['https://rp.example/#x'] });
    assert.equal(fragment.status, 400);
    assert.match(JSON.stringify(fragment.body.error_details), /post_logout_redirect_uris/);
    const cleared = await a.patch(`/api/v1/clients/${id}`, { backchannel_logout_uri: null });
    assert.equal(cleared.status, 200, JSON.stringify(cleared.body));
    assert.equal((await a.get(`/api/v1/clients/${id}`)).body.backchannel_logout_uri, null);
  });

  it('changes a client, and refuses a change the rules forbid', async () => {
    const id = uniqueId('web');
    assert.equal(
      (
        await a.post('/api/v1/clients', {
          client_id: id,
          type: 'public',
          allowed_callback_urls: ['https://w.example/cb'],
        })
      ).status,
      201,
    );
    const patched = await a.patch(`/api/v1/clients/${id}`, {
      name: 'Web',
      allowed_origins: ['https://w.example'],
      sso: true,
    });
    assert.equal(patched.status, 200);
    assert.deepEqual(patched.body.allowed_origins, ['https://w.example']);
    const hs = await a.patch(`/api/v1/clients/${id}`, { jwt_algorithm: 'HS256' });
    assert.equal(hs.status, 400);
    assert.match(hs.body.error_description, /HS256 needs a client secret/);
    const js = await a.patch(`/api/v1/clients/${id}`, { allowed_callback_urls: ['JavaScript:alert(1)'] });
    assert.equal(js.status, 400);
    assert.equal(
      (await a.get(`/api/v1/clients/${id}`)).body.allowed_callback_urls[0],
      'https://w.example/cb',
      'nothing changed',
    );
    const conf = await a.patch(`/api/v1/clients/${id}`, { type: 'confidential' });
    assert.equal(conf.status, 200);
    assert.ok(conf.body.client_secret, 'switching to confidential shows the new secret once');
  });

  it('creates a resource server (a generated secret, introspection only) and opts a client in to the password grant', async () => {
    const id = uniqueId('api');
    const created = await a.post('/api/v1/clients', { client_id: id, name: 'Orders API', type: 'resource_server' });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    assert.equal(created.body.type, 'resource_server');
    assert.deepEqual(created.body.grant_types, []);
    assert.deepEqual(created.body.response_types, []);
    const secret = created.body.client_secret as string;
    assert.ok(secret && secret.length >= 32, 'a generated secret, shown once');
    const introspected = await ward.fetch('/oauth/introspect', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ client_id: id, client_secret: secret, token: 'x' }).toString(),
    });
    assert.deepEqual(await introspected.json(), { active: false }, 'it authenticates at the introspection endpoint');
    const grant = await a.patch(`/api/v1/clients/${id}`, { grant_types: ['client_credentials'] });
    assert.equal(grant.status, 400);
    assert.match(grant.body.error_description, /resource server may only introspect/);
    const regenerated = await a.post(`/api/v1/clients/${id}/secret`, {});
    assert.equal(regenerated.status, 200);
    assert.ok(regenerated.body.client_secret);

    const app = uniqueId('app');
    const opted = await a.post('/api/v1/clients', {
      client_id: app,
      type: 'public',
      allowed_callback_urls: ['https://app.example/cb'],
      grant_types: ['authorization_code', 'password'],
    });
    assert.equal(opted.status, 201, JSON.stringify(opted.body));
    assert.deepEqual(opted.body.grant_types, ['authorization_code', 'password']);
    const bad = await a.patch(`/api/v1/clients/${app}`, { grant_types: ['password', 'device_code'] });
    assert.equal(bad.status, 400);
  });

  it('answers bad input with 4xx JSON and changes nothing', async () => {
    const before = (await a.get('/api/v1/clients')).body.clients.length;
    const cases: Array<[string, string, unknown]> = [
      ['POST', '/api/v1/clients', { client_id: 'x1', unknown_field: true }],
      ['POST', '/api/v1/clients', { client_id: 'x2', sso: 'yes' }],
      ['POST', '/api/v1/clients', { client_id: '../../etc/passwd' }],
      ['POST', '/api/v1/clients', { client_id: 'x3', allowed_callback_urls: 'https://a.example/cb' }],
      ['POST', '/api/v1/clients', { client_id: 'x4', name: 'n'.repeat(100_000) }],
      ['POST', '/api/v1/clients', '{"client_id": "x5",'],
      ['POST', '/api/v1/clients', []],
      ['PATCH', '/api/v1/clients/spa', {}],
      ['DELETE', `/api/v1/clients/spa/jwks/${'k'.repeat(10_000)}`, undefined],
      ['DELETE', '/api/v1/clients/spa/jwks/..%2F..%2Fetc', undefined],
      ['GET', '/api/v1/clients/..%2Fspa', undefined],
      ['GET', '/api/v1/audit?limit=abc', undefined],
      ['POST', '/api/v1/site/keys', { force: true }],
    ];
    for (const [method, path, body] of cases) {
      const r =
        method === 'POST'
          ? await a.post(path, body)
          : method === 'PATCH'
            ? await a.patch(path, body)
            : method === 'DELETE'
              ? await a.del(path)
              : await a.get(path);
      assert.ok(r.status >= 400 && r.status < 500, `${method} ${path.slice(0, 60)} -> ${r.status}`);
      assert.ok(
        r.body?.error_message_key,
        `${method} ${path.slice(0, 60)} has error_message_key: ${JSON.stringify(r.body).slice(0, 200)}`,
      );
    }
    assert.equal((await a.get('/api/v1/clients')).body.clients.length, before);
  });

  it('serves an OpenAPI 3.1 description of every management route', async () => {
    const res = await ward.fetch('/api/v1/openapi.json');
    const doc = (await res.json()) as {
      openapi: string;
      paths: Record<string, Record<string, { 'x-permission': string }>>;
    };
    assert.equal(doc.openapi, '3.1.0');
    assert.equal(doc.paths['/api/v1/clients/{clientId}/keys']!.post!['x-permission'], 'manage:keys');
    assert.ok(doc.paths['/api/v1/clients/{clientId}/jwks/{kid}']!.delete);
    assert.ok(doc.paths['/api/v1/site/keys']!.post);
    assert.ok(doc.paths['/api/v1/settings/account']!.patch);
  });
});
