// An administrator and a user's factors (issue 38, item 6), on both engines over real HTTPS: every factor
// listed, one removed (the user told by email), all reset with a reason (required; kept in the audit
// trail, the user told by email), nothing left after.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { engines } from '../helpers/databases.js';
import { api, CONSOLE_CLIENT, consoleToken } from '../helpers/management.js';
import { giveFactors, type MfaWard, startMfaWard } from '../helpers/mfa.js';
import { PUBLIC_CLIENT, signup } from '../helpers/oauth.js';

for (const engine of engines()) {
  describe(`management API: a user's factors (${engine})`, () => {
    let m: MfaWard;
    before(async () => {
      m = await startMfaWard({
        engine,
        clients: [PUBLIC_CLIENT, CONSOLE_CLIENT],
        account: { rate_limits: { login: { limit: null }, signup: { limit: null }, token: { limit: null } } },
      });
    });
    after(() => m.close());

    it('lists every factor, removes one and resets all with a reason; the user is told each time', async () => {
      const { ward, smtp } = m;
      const admin = await consoleToken(ward, 'manager');
      const manager = api(ward, admin.token);
      const user = await signup(ward);
      await giveFactors(ward, user.id, { email: `second-${user.email}`, phone: '+33600000042' });

      const listed = await manager.get(`/api/v1/users/${user.id}/factors`);
      assert.equal(listed.status, 200);
      assert.deepEqual(listed.body.factors.map((f: { type: string }) => f.type).sort(), ['email', 'sms']);
      assert.equal(listed.body.recovery_codes_left, 0);
      assert.ok(listed.body.factors.every((f: { verified: boolean }) => f.verified));

      const sms = listed.body.factors.find((f: { type: string }) => f.type === 'sms');
      assert.equal((await manager.del(`/api/v1/users/${user.id}/mfa-credentials/${sms.id}`)).status, 204);
      const removed = await smtp.next(user.email);
      assert.match(removed.subject, /second factor was removed/);

      const noReason = await manager.post(`/api/v1/users/${user.id}/factors/reset`, {});
      assert.equal(noReason.status, 400);
      assert.equal(typeof noReason.body.error_message_key, 'string');
      const reset = await manager.post(`/api/v1/users/${user.id}/factors/reset`, {
        reason: 'lost phone; identity checked at the front desk, ticket 4521',
      });
      assert.equal(reset.status, 200);
      assert.deepEqual(reset.body, { removed_factors: 1, removed_passkeys: 0, removed_recovery_codes: 0 });
      const told = await smtp.next(user.email);
      assert.match(told.subject, /two-step verification of your .* account was reset/);
      assert.match(told.text, /an administrator removed every second factor/);

      assert.deepEqual((await manager.get(`/api/v1/users/${user.id}/factors`)).body.factors, []);
      const audit = await ward.registry.storage.audit.list({ action: 'user.factors_reset', limit: 10 });
      const row = audit.find((a) => a.target === `user:${user.id}`);
      assert.ok(row, 'audited');
      assert.equal(row.actor_id, admin.userId);
      assert.equal(JSON.parse(row.details).reason, 'lost phone; identity checked at the front desk, ticket 4521');
      assert.equal(JSON.parse(row.details).factors, 1);
    });

    it('needs the permissions, and a user that exists', async () => {
      const { ward } = m;
      const viewer = api(ward, (await consoleToken(ward, null)).token);
      const user = await signup(ward);
      assert.equal((await viewer.get(`/api/v1/users/${user.id}/factors`)).status, 403);
      const manager = api(ward, (await consoleToken(ward, 'manager')).token);
      assert.equal((await manager.get(`/api/v1/users/${'0'.repeat(32)}/factors`)).status, 404);
      const spec = (await (await ward.fetch('/api/v1/openapi.json')).json()) as { paths: Record<string, unknown> };
      assert.ok(spec.paths['/api/v1/users/{userId}/factors']);
      assert.ok(spec.paths['/api/v1/users/{userId}/factors/reset']);
    });
  });
}
