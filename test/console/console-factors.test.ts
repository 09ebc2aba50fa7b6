// A user's factors in the console, in headless Chromium (issue 38, item 6): the user page lists every
// factor (email, authenticator app, the passkey in its table) and the recovery codes left; an
// Administrator removes one after the confirmation dialog, then resets all factors of the user: a
// reason is required, the dialog asks, everything is removed, the user is told by email (the real SMTP
// sink), and the audit
// log shows the reset with its reason. A Viewer sees the factors but no action.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { PUBLIC_CLIENT } from '../helpers/oauth.js';
import { giveFactors } from '../helpers/mfa.js';
import { startSmtpSink, type SmtpSink } from '../helpers/smtp-sink.js';
import { totpAt } from '../stepup/totp-support.js';
import { confirmDialog, idle, startConsole, statusSays, type ConsoleHarness } from './browser.js';

describe("console: a user's factors", { timeout: 180_000 }, () => {
  let h: ConsoleHarness;
  let smtp: SmtpSink;
  before(async () => {
    smtp = await startSmtpSink();
    h = await startConsole({ clients: [PUBLIC_CLIENT], delivery: { smtpUrl: smtp.url } });
  });
  after(async () => {
    await h?.close();
    await smtp?.close();
  });

  /** A user with an email factor, a phone factor, an authenticator app (10 recovery codes) and a passkey. */
  async function userWithFactors(email: string) {
    const r = h.ward.registry;
    const made = await r.users.signup({ email, password: 'a long unusual passphrase' });
    const user = (await r.users.find(made.id))!;
    await giveFactors(h.ward, user.id, { email, phone: '+33612345678' });
    const started = await r.strongFactors.startTotp(user);
    await r.strongFactors.confirmTotp(user, totpAt(started.secret, h.ward.clock.now()), 'en');
    await r.storage.passkeys.insert({
      id: `pk-${user.id.slice(0, 8)}`,
      user_id: user.id,
      credential_id: `cred-${user.id}`,
      public_key: 'pQECAyYgASFYIA',
      counter: 0,
      transports: ['internal'],
      backed_up: false,
      device_type: 'singleDevice',
      friendly_name: 'Laptop',
      aaguid: null,
      created_at: h.ward.clock.now(),
      last_used_at: null,
    });
    return user;
  }

  it('an Administrator removes a factor, then resets all of them with a reason', async () => {
    const email = 'lost-phone@example.com';
    const user = await userWithFactors(email);
    const { page, close, problems } = await h.signedIn('administrator', `/console/users/${user.id}`);
    try {
      const table = page.locator('#factors-table');
      await table.filter({ hasText: 'Authenticator app' }).waitFor();
      const text = await table.innerText();
      assert.match(text, new RegExp(`Email\\s+${email}\\s+yes`));
      assert.match(text, /SMS\s+\+33612345678\s+yes/);
      await page.locator('#recovery-codes-left').filter({ hasText: 'Recovery codes: 10 left.' }).waitFor();
      await page.locator('#passkeys-table').filter({ hasText: 'Laptop' }).waitFor();

      await page.getByRole('button', { name: 'Remove factor +33612345678' }).click();
      await confirmDialog(page, 'Remove factor');
      await statusSays(page, 'Factor removed.');
      assert.doesNotMatch(await table.innerText(), /SMS/);

      await page.getByText('Reset all factors', { exact: true }).first().click();
      await page.getByRole('button', { name: 'Reset all factors' }).click();
      await page.locator('#error').filter({ hasText: 'Give the reason' }).waitFor();
      assert.equal(await page.getByLabel('Reason (required)').getAttribute('aria-invalid'), 'true');
      assert.equal((await h.ward.registry.storage.mfaCredentials.listOfUser(user.id)).length, 2, 'nothing reset');

      const reason = 'Identity checked at the front desk with a passport';
      await page.getByLabel('Reason (required)').fill(reason);
      await page.getByRole('button', { name: 'Reset all factors' }).click();
      const asked = await confirmDialog(page, 'Reset all factors');
      assert.match(asked, /Every second factor, passkey and recovery code/);
      await statusSays(page, 'All factors reset: 2 factors, 1 passkeys and 10 recovery codes removed.');
      await page.locator('#factors-table').filter({ hasText: 'No second factor.' }).waitFor();
      await page.locator('#recovery-codes-left').filter({ hasText: 'Recovery codes: 0 left.' }).waitFor();
      const r = h.ward.registry;
      assert.equal((await r.storage.mfaCredentials.listOfUser(user.id)).length, 0);
      assert.equal((await r.storage.passkeys.listOfUser(user.id)).length, 0);
      assert.equal(await r.storage.recoveryCodes.countUnused(user.id), 0);
      const subjects: string[] = [];
      while (!subjects.some((s) => /two-step verification .* was reset/.test(s)))
        subjects.push((await smtp.next(email)).subject);

      await page.getByRole('link', { name: 'Audit log' }).click();
      await page.locator('#audit-table tbody tr').first().waitFor();
      await page.getByLabel('Action').fill('user.factors_reset');
      await page.getByRole('button', { name: 'Filter' }).click();
      const row = page.locator('#audit-table tbody tr').filter({ hasText: 'user.factors_reset' });
      await row.waitFor();
      assert.match(await row.innerText(), new RegExp(`user:${user.id}[\\s\\S]*success[\\s\\S]*reason: ${reason}`));
      assert.deepEqual(problems, [], 'no script or CSP error');
    } finally {
      await close();
    }
  });

  it('a Viewer sees the factors but cannot remove or reset them', async () => {
    const user = await userWithFactors('viewed-factors@example.com');
    const { page, close } = await h.signedIn('viewer', `/console/users/${user.id}`);
    try {
      await page.locator('#factors-table').filter({ hasText: 'Authenticator app' }).waitFor();
      await idle(page);
      assert.equal(await page.getByRole('button', { name: /^Remove factor/ }).count(), 0);
      assert.equal(await page.locator('#reset-factors').count(), 0);
      assert.equal(await page.getByRole('button', { name: 'Reset all factors' }).count(), 0);
    } finally {
      await close();
    }
  });
});
