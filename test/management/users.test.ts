// Users through the management API (the console's backend): search, view with factors, remove a
// factor, end sessions, disable; roles are given by Administrators only.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { giveFactors } from '../helpers/mfa.js';
import { CONSOLE_CLIENT, api, consoleToken } from '../helpers/management.js';
import { PUBLIC_CLIENT, codeFor, redeem, signup } from '../helpers/oauth.js';
import { startWard, type TestWard } from '../helpers/ward.js';

describe('management API: users', () => {
  let ward: TestWard;
  before(async () => {
    ward = await startWard({
      clients: [PUBLIC_CLIENT, CONSOLE_CLIENT],
      account: { rate_limits: { login: { limit: null }, signup: { limit: null }, token: { limit: null } } },
    });
  });
  after(() => ward.close());

  it('searches and shows a user with their factors; removes a factor', async () => {
    const manager = api(ward, (await consoleToken(ward, 'manager')).token);
    const user = await signup(ward);
    await giveFactors(ward, user.id, { email: user.email, phone: '+33600000001' });
    const found = await manager.get(`/api/v1/users?q=${encodeURIComponent(user.email.slice(0, 10).toUpperCase())}`);
    assert.equal(found.status, 200);
    assert.ok(found.body.users.some((u: { id: string }) => u.id === user.id));
    const one = await manager.get(`/api/v1/users/${user.id}`);
    assert.equal(one.body.mfa_credentials.length, 2);
    const sms = one.body.mfa_credentials.find((c: { type: string }) => c.type === 'sms');
    assert.equal((await manager.del(`/api/v1/users/${user.id}/mfa-credentials/${sms.id}`)).status, 204);
    assert.deepEqual(
      (await manager.get(`/api/v1/users/${user.id}`)).body.mfa_credentials.map((c: { type: string }) => c.type),
      ['email'],
    );
    assert.equal((await manager.get('/api/v1/users/not-an-id')).status, 400);
    assert.equal((await manager.get(`/api/v1/users/${'0'.repeat(32)}`)).status, 404);
  });

  it('ends every session and token of a user, and disables one', async () => {
    const manager = api(ward, (await consoleToken(ward, 'manager')).token);
    const { code, verifier, user } = await codeFor(ward);
    const { body } = await redeem(ward, code, verifier);
    const ui = () => ward.fetch('/identity/v1/userinfo', { headers: { authorization: `Bearer ${body.access_token}` } });
    assert.equal((await ui()).status, 200);
    assert.equal((await manager.post(`/api/v1/users/${user.id}/sessions/revoke`, {})).status, 204);
    assert.equal((await ui()).status, 401);
    const disabled = await manager.patch(`/api/v1/users/${user.id}`, { disabled: true });
    assert.equal(disabled.body.disabled, true);
    const login = await ward.fetch('/identity/v1/password/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ client_id: 'spa', email: user.email, password: user.password }),
    });
    assert.equal(login.status, 400);
  });

  it('lets only an Administrator give roles; a Viewer changes nothing', async () => {
    const target = await signup(ward);
    const viewer = api(ward, (await consoleToken(ward, 'viewer')).token);
    const manager = api(ward, (await consoleToken(ward, 'manager')).token);
    const admin = await consoleToken(ward, 'administrator');
    assert.equal((await viewer.put(`/api/v1/users/${target.id}/role`, { role: 'developer' })).status, 403);
    assert.equal((await viewer.patch(`/api/v1/users/${target.id}`, { disabled: true })).status, 403);
    assert.equal((await manager.put(`/api/v1/users/${target.id}/role`, { role: 'developer' })).status, 403);
    const given = await api(ward, admin.token).put(`/api/v1/users/${target.id}/role`, { role: 'developer' });
    assert.equal(given.status, 200);
    assert.equal(given.body.role, 'developer');
    assert.equal((await api(ward, admin.token).put(`/api/v1/users/${target.id}/role`, { role: 'root' })).status, 400);
    assert.equal((await api(ward, admin.token).put(`/api/v1/users/${admin.userId}/role`, { role: null })).status, 409);
  });
});
