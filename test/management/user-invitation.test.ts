// An administrator invites a user (no password): the user gets an email from the real SMTP sink with a
// link to Ward's reset page, chooses a password there, and signs in; the email is then verified. The
// invitation and a password are exclusive. Both engines.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Browser } from '../helpers/browser.js';
import { engines } from '../helpers/databases.js';
import { api, CONSOLE_CLIENT, consoleToken } from '../helpers/management.js';
import { startMfaWard, type MfaWard } from '../helpers/mfa.js';
import { PUBLIC_CLIENT, passwordLogin } from '../helpers/oauth.js';

for (const engine of engines()) {
  describe(`management API: inviting a user on ${engine}`, () => {
    let w: MfaWard;
    before(async () => {
      w = await startMfaWard({ engine, clients: [CONSOLE_CLIENT, PUBLIC_CLIENT] });
    });
    after(() => w.close());

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
