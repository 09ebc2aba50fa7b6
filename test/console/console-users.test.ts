// An administrator's user actions in the console, in headless Chromium: a Manager creates a user (a
// weak password is refused and its field marked), marks the email verified, sees a locked password
// sign-in and unlocks it, edits the profile and an admin-only custom field (an ill-typed value refused
// and marked), sends a password reset (the mail read from the real SMTP sink), downloads the user's
// data as JSON, and deletes the user after the
// confirmation dialog (Cancel first: nothing deleted). A Manager removes a user's passkey. A Viewer sees
// none of these buttons.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { after, before, describe, it } from 'node:test';
import { PUBLIC_CLIENT } from '../helpers/oauth.js';
import { startSmtpSink, type SmtpSink } from '../helpers/smtp-sink.js';
import { confirmDialog, dialog, idle, shot, startConsole, statusSays, type ConsoleHarness } from './browser.js';

describe('console: create, verify, unlock, export and delete a user', { timeout: 180_000 }, () => {
  let h: ConsoleHarness;
  let smtp: SmtpSink;
  before(async () => {
    smtp = await startSmtpSink();
    h = await startConsole({
      clients: [PUBLIC_CLIENT],
      account: {
        sign_in_delay_after: 2,
        sign_in_lock_after: 3,
        sign_in_lock_seconds: 600,
        custom_fields: [{ name: 'tier', data_type: 'list', values: ['gold', 'silver'], writable: 'admin' }],
      },
      delivery: { smtpUrl: smtp.url },
    });
  });
  after(async () => {
    await h?.close();
    await smtp?.close();
  });

  const login = (email: string, password: string) =>
    h.ward.fetch('/identity/v1/password/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ client_id: 'spa', scope: 'openid', email, password }),
    });

  it('a Manager creates a user, verifies the email, unlocks, exports and deletes them', async () => {
    const { page, close, problems } = await h.signedIn('manager', '/console/users');
    const email = 'created-in-console@example.com';
    const password = 'a long unusual passphrase';
    try {
      await page.getByText('New user').click();
      await page.getByLabel('Email', { exact: true }).fill(email);
      await page.getByLabel('Given name').fill('Ada');
      await page.getByLabel('Password', { exact: true }).fill('password');
      await page.getByRole('button', { name: 'Create user' }).click();
      await page.locator('#error').filter({ hasText: 'most common passwords' }).waitFor();
      assert.equal(await page.getByLabel('Password', { exact: true }).getAttribute('aria-invalid'), 'true');
      assert.equal(await h.ward.registry.storage.users.findByEmail(email), undefined);
      await page.getByLabel('Password', { exact: true }).fill(password);
      await page.getByRole('button', { name: 'Create user' }).click();
      const user = await (async () => {
        await page.waitForURL(/\/console\/users\/[a-f0-9]{32}$/);
        return (await h.ward.registry.storage.users.findByEmail(email))!;
      })();
      assert.ok(user, 'created');
      await statusSays(page, `User created: ${email}.`);
      await idle(page);

      // Verify the email.
      await page.locator('#account-details').filter({ hasText: 'Not verified' }).waitFor();
      await page.getByRole('button', { name: 'Mark email verified' }).click();
      await statusSays(page, 'Email marked verified.');
      assert.equal((await h.ward.registry.users.find(user.id))!.email_verified, true);
      await page.getByRole('button', { name: 'Mark email unverified' }).waitFor();

      // Edit the profile: an ill-typed custom field is refused and marked, then saved.
      await page.getByText('Edit profile').click();
      await page.getByLabel('Nickname').fill('Countess');
      await page.getByLabel('Custom fields (JSON)').fill('{"tier": "bronze"}');
      await page.getByRole('button', { name: 'Save profile' }).click();
      await page.locator('#error').filter({ hasText: 'must be one of gold, silver' }).waitFor();
      assert.equal(await page.getByLabel('Custom fields (JSON)').getAttribute('aria-invalid'), 'true');
      await page.getByLabel('Custom fields (JSON)').fill('{"tier": "gold"}');
      await page.getByRole('button', { name: 'Save profile' }).click();
      await statusSays(page, 'Profile saved.');
      const profile = await h.ward.registry.storage.profiles.find(user.id);
      assert.equal(profile?.nickname, 'Countess');
      assert.deepEqual(profile?.custom_fields, { tier: 'gold' });

      // Send a password reset: the user gets a link to the reset page.
      await page.getByRole('button', { name: 'Send password reset' }).click();
      await statusSays(page, `A password reset link was sent to ${email}.`);
      assert.match((await smtp.next(email)).text, /\/identity\/v1\/password\/reset\?user_id=/);

      // Lock the password sign-in, see it, unlock it.
      for (let i = 0; i < 3; i++) {
        assert.equal((await login(email, 'wrong password')).status, 400);
        h.ward.clock.advance(5000); // past each wait
      }
      assert.equal((await login(email, password)).status, 429);
      await page.reload();
      await idle(page);
      await page.locator('#account-details').filter({ hasText: 'Locked until' }).waitFor();
      await shot(page, 'user-locked');
      await page.getByRole('button', { name: 'Unlock password sign-in' }).click();
      await statusSays(page, 'Password sign-in unlocked.');
      await page.locator('#account-details').filter({ hasText: 'Open' }).waitFor();
      assert.equal((await login(email, password)).status, 200);

      // Export: a JSON download of the user's data.
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('button', { name: 'Export data (JSON)' }).click(),
      ]);
      assert.equal(download.suggestedFilename(), `ward-user-${user.id}.json`);
      const exported = JSON.parse(await readFile((await download.path())!, 'utf8'));
      assert.equal(exported.user.email, email);
      assert.equal(exported.user.email_verified, true);
      await statusSays(page, 'Export downloaded.');

      // Delete: Cancel first (nothing happens), then confirm.
      await page.getByRole('button', { name: 'Delete user' }).click();
      await dialog(page).getByRole('button', { name: 'Cancel' }).click();
      await dialog(page).waitFor({ state: 'detached' });
      assert.ok(await h.ward.registry.users.find(user.id), 'Cancel deletes nothing');
      await page.getByRole('button', { name: 'Delete user' }).click();
      const text = await confirmDialog(page, 'Delete user');
      assert.match(text, /cannot be undone/);
      await page.waitForURL(`${h.ward.url}/console/users`);
      await statusSays(page, `User ${email} deleted.`);
      assert.equal(await h.ward.registry.users.find(user.id), undefined);
      assert.equal((await login(email, password)).status, 400);
      assert.deepEqual(problems, [], 'no script or CSP error');
    } finally {
      await close();
    }
  });

  it("lists a user's passkeys and a Manager removes one after confirming", async () => {
    const made = await h.ward.registry.users.signup({
      email: 'keys@example.com',
      password: 'a long unusual passphrase',
    });
    const key = (id: string, name: string, at: number) => ({
      id,
      user_id: made.id,
      credential_id: `cred-${id}`,
      public_key: 'pQECAyYgASFYIA',
      counter: 0,
      transports: ['internal'],
      backed_up: id === 'pk-synced',
      device_type: id === 'pk-synced' ? 'multiDevice' : 'singleDevice',
      friendly_name: name,
      aaguid: null,
      created_at: at,
      last_used_at: null,
    });
    await h.ward.registry.storage.passkeys.insert(key('pk-synced', 'Phone', h.ward.clock.now()));
    await h.ward.registry.storage.passkeys.insert(key('pk-local', 'Laptop', h.ward.clock.now() + 1));
    const { page, close, problems } = await h.signedIn('manager', `/console/users/${made.id}`);
    try {
      const table = page.locator('#passkeys-table');
      await table.filter({ hasText: 'Laptop' }).waitFor();
      assert.match(await table.innerText(), /Phone\s+Synced/);
      await page.getByRole('button', { name: 'Remove passkey Laptop' }).click();
      await confirmDialog(page, 'Remove passkey');
      await statusSays(page, 'Passkey removed.');
      assert.deepEqual(
        (await h.ward.registry.storage.passkeys.listOfUser(made.id)).map((k) => k.friendly_name),
        ['Phone'],
      );
      const audit = await h.ward.registry.storage.audit.list({ target: `user:${made.id}`, limit: 10 });
      assert.ok(audit.some((e) => e.action === 'user.passkey_removed'));
      assert.deepEqual(problems, [], 'no script or CSP error');
    } finally {
      await close();
    }
  });

  it('a Viewer sees the account state but no action', async () => {
    const made = await h.ward.registry.users.signup({
      email: 'viewed@example.com',
      password: 'a long unusual passphrase',
    });
    const { page, close } = await h.signedIn('viewer', `/console/users/${made.id}`);
    try {
      await page.locator('#account-details').filter({ hasText: 'Not verified' }).waitFor();
      for (const name of ['Delete user', 'Unlock password sign-in', 'Export data (JSON)', 'Mark email verified'])
        assert.equal(await page.getByRole('button', { name }).count(), 0, name);
      await page.goto(`${h.ward.url}/console/users`);
      await idle(page);
      assert.equal(await page.getByText('New user').count(), 0);
    } finally {
      await close();
    }
  });
});
