// An administrator invites a user (no password), or sends a user a password reset: the user gets an
// email from the real SMTP sink with a link to Ward's reset page, chooses a password there, and signs
// in; the email is then verified. The invitation and a password are exclusive. Both engines.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Browser } from '../helpers/browser.js';
import { engines } from '../helpers/databases.js';
import { api, CONSOLE_CLIENT, consoleToken } from '../helpers/management.js';
import { startMfaWard, type MfaWard } from '../helpers/mfa.js';
import { PUBLIC_CLIENT, passwordLogin, signup } from '../helpers/oauth.js';

for (const engine of engines()) {
  describe(`management API: inviting a user on ${engine}`, () => {
    let w: MfaWard;
    before(async () => {
      w = await startMfaWard({ engine, clients: [CONSOLE_CLIENT, PUBLIC_CLIENT] });
    });
    after(() => w.close());

    it("writes the invitation in the account's default_language (the administrator's request names none)", async () => {
      const manager = api(w.ward, (await consoleToken(w.ward, 'manager')).token);
      w.ward.setAccount({ default_language: 'es' });
      try {
        const email = `invitado-${Date.now()}@example.com`;
        const made = await manager.post('/api/v1/users', { email, given_name: 'Grace', invite: true });
        assert.equal(made.status, 201, JSON.stringify(made.body));
        const mail = await w.smtp.next(email);
        assert.match(mail.subject, /Le han invitado a/);
      } finally {
        w.ward.setAccount({ default_language: 'en' });
      }
    });

    it('creates the user without a password and emails a link to choose one', async () => {
      const manager = api(w.ward, (await consoleToken(w.ward, 'manager')).token);
      const email = `invited-${Date.now()}@example.com`;
      const made = await manager.post('/api/v1/users', { email, given_name: 'Grace', invite: true });
      assert.equal(made.status, 201, JSON.stringify(made.body));
      assert.equal(made.body.has_password, false);
      const mail = await w.smtp.next(email);
      assert.match(mail.subject, /You are invited/);
      const link = new URL(/https:\/\/\S+password\/reset\S+/.exec(mail.text)![0]);
      const browser = new Browser(w.ward);
      assert.equal((await browser.get(`${link.pathname}${link.search}`)).status, 200);
      const password = 'an invited user passphrase';
      const done = await browser.postForm('/identity/v1/password/reset', {
        user_id: link.searchParams.get('user_id')!,
        verification_code: link.searchParams.get('verification_code')!,
        password,
        password_confirmation: password,
      });
      assert.equal(done.status, 200);
      assert.ok(await passwordLogin(w.ward, email, password));
      assert.equal((await w.ward.registry.storage.users.findByEmail(email))?.email_verified, true);
    });

    it('sends a password reset: audited, only by a Manager, the old password works until the new one is set', async () => {
      const manager = api(w.ward, (await consoleToken(w.ward, 'manager')).token);
      const viewer = api(w.ward, (await consoleToken(w.ward, 'viewer')).token);
      const user = await signup(w.ward);
      assert.equal((await viewer.post(`/api/v1/users/${user.id}/password-reset`, {})).status, 403);
      assert.equal((await manager.post(`/api/v1/users/${'0'.repeat(32)}/password-reset`, {})).status, 404);
      const first = await manager.post(`/api/v1/users/${user.id}/password-reset`, {});
      assert.equal(first.status, 204, JSON.stringify(first.body));
      const stale = new URL(/https:\/\/\S+password\/reset\S+/.exec((await w.smtp.next(user.email)).text)![0]);
      assert.equal((await manager.post(`/api/v1/users/${user.id}/password-reset`, {})).status, 204);
      const mail = await w.smtp.next(user.email);
      assert.match(mail.subject, /password/i);
      assert.ok(await passwordLogin(w.ward, user.email, user.password), 'nothing changed yet');
      const browser = new Browser(w.ward);
      // A new message kills the previous one.
      assert.equal((await browser.get(`${stale.pathname}${stale.search}`)).status, 400);
      const link = new URL(/https:\/\/\S+password\/reset\S+/.exec(mail.text)![0]);
      const password = 'a reset by the administrator';
      const done = await browser.postForm('/identity/v1/password/reset', {
        user_id: user.id,
        verification_code: link.searchParams.get('verification_code')!,
        password,
        password_confirmation: password,
      });
      assert.equal(done.status, 200);
      assert.ok(await passwordLogin(w.ward, user.email, password));
      const audit = await w.ward.registry.storage.audit.list({
        action: 'user.password_reset_sent',
        target: `user:${user.id}`,
        limit: 5,
      });
      assert.equal(audit.filter((e) => e.outcome === 'success').length, 2);
      const phoneOnly = await manager.post('/api/v1/users', {
        phone_number: '+33612349876',
        password: 'a phone only passphrase',
      });
      const noEmail = await manager.post(`/api/v1/users/${phoneOnly.body.id}/password-reset`, {});
      assert.equal(noEmail.status, 400);
      assert.equal(noEmail.body.error_message_key, 'error.mfa.noEmail');
    });

    it('refuses an invitation with a password, without an email, and a user with neither', async () => {
      const manager = api(w.ward, (await consoleToken(w.ward, 'manager')).token);
      const both = await manager.post('/api/v1/users', {
        email: 'a@example.com',
        password: 'x long password 1',
        invite: true,
      });
      assert.equal(both.status, 400);
      const noEmail = await manager.post('/api/v1/users', { phone_number: '+33612340000', invite: true });
      assert.equal(noEmail.status, 400);
      const neither = await manager.post('/api/v1/users', { email: 'b@example.com' });
      assert.equal(neither.status, 400);
      assert.equal(await w.ward.registry.storage.users.findByEmail('b@example.com'), undefined);
    });
  });
}
