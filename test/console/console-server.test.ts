// The console's server side without a browser: the ward-console client exists after start and is
// not rewritten by a second ensureConsoleClient; the pages carry a CSP that allows only same-origin
// scripts (no inline script, no inline handler); the static files are served and unknown ones are
// 404; GET /console/api/me answers the role and permissions of a console user's token (within the
// client's management_scopes), and 401 without a token.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ensureConsoleClient } from '../../src/console/client.js';
import { MANAGEMENT_SCOPES } from '../../src/config/types.js';
import { codeFor, PUBLIC_CLIENT, redeem } from '../helpers/oauth.js';
import { startWard, type TestWard } from '../helpers/ward.js';

describe('console server side', () => {
  let ward: TestWard;
  before(async () => {
    ward = await startWard({ clients: [PUBLIC_CLIENT] });
  });
  after(async () => {
    await ward?.close();
  });

  it('creates the ward-console client once, idempotently', async () => {
    const c = await ward.registry.storage.clients.find('ward-console');
    assert.ok(c);
    assert.equal(c.type, 'public');
    assert.equal(c.jwt_algorithm, 'RS256');
    assert.deepEqual(c.allowed_callback_urls, [`${ward.url}/console/callback`]);
    assert.deepEqual(c.allowed_origins, [ward.url]);
    assert.deepEqual(c.management_scopes, [...MANAGEMENT_SCOPES]);
    await ensureConsoleClient(ward.registry);
    assert.equal((await ward.registry.storage.clients.find('ward-console'))!.updated_at, c.updated_at, 'not rewritten');
  });

  it('serves the pages with a strict CSP and the static script', async () => {
    for (const path of ['/console/login', '/console/callback', '/console/clients', '/console/clients/spa', '/console/settings', '/console/users', '/console/audit']) {
      const res = await ward.fetch(path);
      assert.equal(res.status, 200, path);
      const csp = res.headers.get('content-security-policy') ?? '';
      assert.match(csp, /script-src 'self'/);
      assert.doesNotMatch(csp, /unsafe-inline/);
      const html = await res.text();
      assert.doesNotMatch(html, /<script>|\son[a-z]+=/i, `${path}: no inline script or handler`);
      assert.match(html, /<script src="\/console\/static\/console\.js" defer>/);
    }
    const js = await ward.fetch('/console/static/console.js');
    assert.equal(js.status, 200);
    assert.match(js.headers.get('content-type') ?? '', /text\/javascript/);
    assert.match(await js.text(), /"client_id":"ward-console"/);
    assert.equal((await ward.fetch('/console/static/../client.ts')).status, 404);
    assert.equal((await ward.fetch('/console/static/nothing.js')).status, 404);
    assert.equal((await ward.fetch('/console')).headers.get('location'), '/console/clients');
  });

  it('GET /console/api/me: the role and permissions of the token, 401 without one', async () => {
    assert.equal((await ward.fetch('/console/api/me')).status, 401);
    const { code, verifier, user } = await codeFor(ward, { clientId: 'ward-console', redirectUri: `${ward.url}/console/callback`, scope: 'openid' });
    await ward.registry.storage.users.setRole(user.id, 'developer', ward.clock.now());
    const { body } = await redeem(ward, code, verifier, 'ward-console', `${ward.url}/console/callback`);
    const res = await ward.fetch('/console/api/me', { headers: { authorization: `Bearer ${body.access_token}` } });
    assert.equal(res.status, 200);
    const me = (await res.json()) as { role: string; email: string; permissions: string[] };
    assert.equal(me.role, 'developer');
    assert.equal(me.email, user.email);
    assert.deepEqual(me.permissions, ['read:clients', 'manage:clients', 'manage:keys', 'read:settings', 'read:users', 'read:audit']);
    // A token of a client without management scopes is refused.
    const spa = await codeFor(ward);
    const spaToken = (await redeem(ward, spa.code, spa.verifier)).body.access_token;
    assert.equal((await ward.fetch('/console/api/me', { headers: { authorization: `Bearer ${spaToken}` } })).status, 401);
  });
});
