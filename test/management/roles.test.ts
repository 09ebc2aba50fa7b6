// Management API authentication and the role table: Viewer reads only; Developer manages clients
// and keys; Manager and Administrator also settings; no role or a non-console token: refused.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CONSOLE_CLIENT, api, consoleToken } from '../helpers/management.js';
import { PUBLIC_CLIENT, codeFor, redeem } from '../helpers/oauth.js';
import { startWard, type TestWard } from '../helpers/ward.js';

describe('management API roles', () => {
  let ward: TestWard;
  before(async () => {
    ward = await startWard({
      clients: [
        PUBLIC_CLIENT,
        CONSOLE_CLIENT,
        {
          client_id: 'hs',
          type: 'confidential',
          client_secret: 's'.repeat(40),
          jwt_algorithm: 'HS256',
          allowed_callback_urls: ['https://hs.example/cb'],
        },
      ],
    });
  });
  after(() => ward.close());

  it('refuses calls without a token, with a garbage token, or with a token of a non-console client', async () => {
    assert.equal((await ward.fetch('/api/v1/clients')).status, 401);
    assert.equal((await api(ward, 'not-a-token').get('/api/v1/clients')).status, 401);
    const { code, verifier } = await codeFor(ward);
    const { body } = await redeem(ward, code, verifier);
    const r = await api(ward, body.access_token!).get('/api/v1/clients');
    assert.equal(r.status, 401);
    assert.ok(r.body.error_message_key);
  });

  const matrix: Array<[string, string, string, Record<string, number>]> = [
    [
      'GET',
      '/api/v1/clients',
      'read clients',
      { viewer: 200, developer: 200, manager: 200, administrator: 200, none: 403 },
    ],
    [
      'GET',
      '/api/v1/site/keys',
      'read keys',
      { viewer: 200, developer: 200, manager: 200, administrator: 200, none: 403 },
    ],
    [
      'GET',
      '/api/v1/settings/account',
      'read settings',
      { viewer: 200, developer: 200, manager: 200, administrator: 200, none: 403 },
    ],
    [
      'GET',
      '/api/v1/audit',
      'read audit',
      { viewer: 200, developer: 200, manager: 200, administrator: 200, none: 403 },
    ],
    [
      'POST',
      '/api/v1/clients/spa/keys',
      'rotate a client key',
      { viewer: 403, developer: 201, manager: 201, administrator: 201, none: 403 },
    ],
    [
      'PUT',
      '/api/v1/clients/spa/keys',
      'sync a client key',
      { viewer: 403, developer: 200, manager: 200, administrator: 200, none: 403 },
    ],
    [
      'POST',
      '/api/v1/site/keys',
      'rotate the global key',
      { viewer: 403, developer: 201, manager: 201, administrator: 201, none: 403 },
    ],
    [
      'PATCH',
      '/api/v1/settings/account',
      'change settings',
      { viewer: 403, developer: 403, manager: 200, administrator: 200, none: 403 },
    ],
  ];
  for (const role of ['viewer', 'developer', 'manager', 'administrator', 'none'] as const) {
    it(`enforces the permission table for ${role}`, async () => {
      const { token } = await consoleToken(ward, role === 'none' ? null : role);
      const a = api(ward, token);
      for (const [method, path, what, expected] of matrix) {
        const body = method === 'PATCH' ? { access_token_ttl: 3600 } : method === 'GET' ? undefined : {};
        const r =
          method === 'GET'
            ? await a.get(path)
            : method === 'POST'
              ? await a.post(path, body)
              : method === 'PUT'
                ? await a.put(path, body)
                : await a.patch(path, body);
        assert.equal(r.status, expected[role], `${role} ${what}: ${JSON.stringify(r.body)}`);
        if (r.status === 403) assert.equal(r.body.error_message_key, 'error.management.forbidden');
      }
    });
  }

  it('records denied and successful management actions in the audit log', async () => {
    const viewer = await consoleToken(ward, 'viewer');
    assert.equal((await api(ward, viewer.token).post('/api/v1/site/keys', {})).status, 403);
    const admin = await consoleToken(ward, 'administrator');
    const log = await api(ward, admin.token).get('/api/v1/audit?limit=100');
    assert.equal(log.status, 200);
    const denied = log.body.events.find(
      (e: Record<string, string>) => e.actor_id === viewer.userId && e.outcome === 'denied',
    );
    assert.ok(denied, 'the denied call is audited');
    assert.equal(denied.action, 'key.rotated');
    assert.ok(
      log.body.events.some((e: Record<string, string>) => e.action === 'key.rotated' && e.outcome === 'success'),
    );
    // Reads and refused calls are audited too, with who, what, from where.
    assert.equal((await api(ward, viewer.token).get('/api/v1/clients')).status, 200);
    assert.equal((await api(ward, admin.token).post('/api/v1/clients', { client_id: 'x', bogus: 1 })).status, 400);
    const all = (await api(ward, admin.token).get('/api/v1/audit?limit=100')).body.events as Array<
      Record<string, unknown>
    >;
    const read = all.find((e) => e.actor_id === viewer.userId && e.action === 'clients.read');
    assert.ok(read && read.outcome === 'success' && read.target === '/api/v1/clients' && typeof read.ip === 'string');
    const failed = all.find((e) => e.action === 'client.created' && e.outcome === 'failed');
    assert.deepEqual(failed?.details, { status: 400, error: 'invalid_request' });
    const filtered = await api(ward, admin.token).get(`/api/v1/audit?actor=${viewer.userId}`);
    assert.ok(filtered.body.events.every((e: Record<string, string>) => e.actor_id === viewer.userId));
  });

  it('refuses to rotate the key of an HS256 client, saying to choose RS256 first; 404 for an unknown client', async () => {
    const { token } = await consoleToken(ward, 'developer');
    const hs = await api(ward, token).post('/api/v1/clients/hs/keys', {});
    assert.equal(hs.status, 409);
    assert.match(hs.body.error_description, /choose RS256/);
    assert.equal((await api(ward, token).post('/api/v1/clients/nope/keys', {})).status, 404);
    assert.equal((await api(ward, token).del('/api/v1/clients/nope/jwks/abc')).status, 404);
  });
});
