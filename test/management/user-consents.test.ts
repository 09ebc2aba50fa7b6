// A user's consents to third-party clients through the management API (docs/consent.md): listed
// (read:users), revoked by a Manager (manage:users, audited) with the client's grants of that user,
// not by a Viewer; an unknown consent or user is a 404. Both engines.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { engines } from '../helpers/databases.js';
import { api, CONSOLE_CLIENT, consoleToken } from '../helpers/management.js';
import { PUBLIC_CLIENT, signup } from '../helpers/oauth.js';
import { startWard, type TestWard } from '../helpers/ward.js';

for (const engine of engines()) {
  describe(`management API: a user's consents on ${engine}`, () => {
    let ward: TestWard;
    before(async () => {
      ward = await startWard({ engine, clients: [CONSOLE_CLIENT, PUBLIC_CLIENT] });
    });
    after(() => ward.close());

    it('lists them; a Viewer cannot revoke, a Manager can, and the grants end with it', async () => {
      const u = await signup(ward);
      const now = ward.clock.now();
      await ward.registry.storage.consents.grant(u.id, 'partner', ['openid', 'profile'], now);
      await ward.registry.storage.tokens.createGrant({
        id: 'g-partner',
        user_id: u.id,
        client_id: 'partner',
        session_id: null,
        scope: 'openid profile',
        auth_time: now,
        amr: '["pwd"]',
        created_at: now,
        expires_at: now + 3_600_000,
        revoked_at: null,
        resource: null,
        step_up_action: null,
      });
      const viewer = api(ward, (await consoleToken(ward, 'viewer')).token);
      const listed = await viewer.get(`/api/v1/users/${u.id}/consents`);
      assert.equal(listed.status, 200);
      assert.equal(listed.body.length, 1);
      assert.equal(listed.body[0].client_id, 'partner');
      assert.deepEqual(listed.body[0].scopes, ['openid', 'profile']);
      assert.equal((await viewer.del(`/api/v1/users/${u.id}/consents/partner`)).status, 403);
      const manager = api(ward, (await consoleToken(ward, 'manager')).token);
      assert.equal((await manager.del(`/api/v1/users/${u.id}/consents/nobody`)).status, 404);
      assert.equal((await manager.del(`/api/v1/users/${u.id}/consents/partner`)).status, 204);
      assert.deepEqual(await ward.registry.storage.consents.listForUser(u.id), []);
      assert.ok((await ward.registry.storage.tokens.findGrant('g-partner'))?.revoked_at, 'the grant is revoked');
      assert.equal((await manager.get(`/api/v1/users/${'0'.repeat(32)}/consents`)).status, 404);
      await ward.registry.events.flush();
      const audit = await ward.registry.storage.audit.list({ action: 'consent.revoked', limit: 10 });
      const done = audit.filter((e) => e.outcome === 'success');
      assert.equal(done.length, 1, 'the revocation is audited');
      assert.equal(done[0]!.target, `user:${u.id}`);
      assert.equal(JSON.parse(done[0]!.details).revoked_grants, 1);
      assert.deepEqual(audit.map((e) => e.outcome).sort(), ['denied', 'failed', 'success'], 'refusals too');
    });
  });
}
