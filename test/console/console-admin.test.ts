// Site keys, account settings, users and the audit log in the console, in headless Chromium: a
// Developer rotates the global pair (the new kid is published) and revokes the replaced key with the
// keyboard alone in the confirmation dialog; a Manager changes request limits and lifetimes (the
// account settings change) and a value out of bounds is refused before sending; an Administrator
// disables and enables a user and gives a role (a Manager sees no role select); the audit log pages
// older / newer through events of one millisecond and filters by actor, target and since / until.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { PUBLIC_CLIENT, signup } from '../helpers/oauth.js';
import {
  callApi,
  confirmDialog,
  dialog,
  idle,
  shot,
  startConsole,
  statusSays,
  type ConsoleHarness,
} from './browser.js';

describe('console: site keys, settings, users, audit', { timeout: 180_000 }, () => {
  let h: ConsoleHarness;
  before(async () => {
    h = await startConsole({ clients: [PUBLIC_CLIENT] });
  });
  after(async () => {
    await h?.close();
  });

  const jwksKids = async () =>
    ((await (await h.ward.fetch('/jwks.json')).json()) as { keys: Array<{ kid: string }> }).keys.map((k) => k.kid);
  const rowOf = (page: Page, kid: string) => page.locator(`#site-keys-table tbody tr[data-kid="${kid}"]`);

  it('a Developer rotates the site key and revokes the replaced one with the keyboard', async () => {
    const { page, close } = await h.signedIn('developer', '/console/site-keys');
    try {
      const before = (await h.ward.registry.keyOps.listSet('global')).find((k) => k.status === 'current')!.kid;
      await rowOf(page, before).filter({ hasText: 'Current' }).waitFor();
      await page.getByRole('button', { name: 'Rotate site key' }).click();
      await statusSays(page, /New global key \S+ is current/);
      const kid = /New global key (\S+) is current/.exec(await page.locator('#status').innerText())![1]!;
      assert.notEqual(kid, before);
      assert.ok((await jwksKids()).includes(kid), 'the new global kid is published');
      await rowOf(page, kid).filter({ hasText: 'Current' }).waitFor();
      await rowOf(page, before).filter({ hasText: 'Previous' }).waitFor();
      await shot(page, 'site-keys');

      // Keyboard only: the dialog takes the focus (on Cancel), Tab reaches the confirming button, Enter presses it.
      await page.getByRole('button', { name: `Revoke key ${before}` }).focus();
      await page.keyboard.press('Enter');
      await dialog(page).waitFor();
      assert.equal(
        await page.evaluate(() => document.activeElement?.textContent),
        'Cancel',
        'the focus moved into the dialog',
      );
      const labelled = await page.evaluate(() => {
        const d = document.querySelector('dialog')!;
        return {
          title: document.getElementById(d.getAttribute('aria-labelledby')!)?.textContent,
          desc: document.getElementById(d.getAttribute('aria-describedby')!)?.textContent,
        };
      });
      assert.equal(labelled.title, `Revoke key ${before}?`);
      assert.match(labelled.desc!, /leaves the JWKS of the site/);
      await page.keyboard.press('Tab');
      assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Revoke key');
      await page.keyboard.press('Enter');
      await statusSays(page, `Global key ${before} revoked.`);
      assert.ok(!(await jwksKids()).includes(before), 'the revoked global key left /jwks.json');
      await rowOf(page, before).filter({ hasText: 'Revoked' }).waitFor();
    } finally {
      await close();
    }
  });

  it('a Manager changes request limits and lifetimes; a value out of bounds is refused before sending', async () => {
    const { page, close } = await h.signedIn('manager', '/console/settings');
    try {
      await page.waitForFunction(
        () => (document.getElementById('s-refresh_token_ttl') as HTMLInputElement).value !== '',
      );
      const fill = async (label: string, value: string) => page.getByLabel(label, { exact: true }).fill(value);
      await fill('Code lifetime (seconds)', '5');
      let patches = 0;
      page.on('request', (r) => {
        if (r.method() === 'PATCH') patches++;
      });
      await page.getByRole('button', { name: 'Save settings' }).click();
      await page.locator('#error.shown').filter({ hasText: 'Code lifetime (seconds)' }).waitFor();
      assert.equal(await page.getByLabel('Code lifetime (seconds)').getAttribute('aria-invalid'), 'true');
      assert.equal(patches, 0);
      await fill('Code lifetime (seconds)', '120');
      await fill('Login: requests per window', '7');
      await fill('Login: window (seconds)', '60');
      await fill('Signup: requests per window', '');
      await fill('Token: requests per window', '100');
      await fill('Token: window (seconds)', '10');
      await fill('Codes per user: count', '5');
      await fill('Codes per user: window (seconds)', '3600');
      await fill('Wrong codes per user: count', '12');
      await fill('Refresh token', '86400');
      await fill('Authorization code', '120');
      await fill('Session', '7200');
      await fill('Session idle timeout', '1800');
      await fill('Step-up token lifetime (seconds)', '300');
      await fill('Minimum password length', '10');
      await fill('Minimum strength (zxcvbn score, 0 to 4; 0: no rule)', '3');
      assert.equal(await page.getByLabel('Refuse the most common passwords').isChecked(), true);
      await page.getByLabel('Refuse the most common passwords').uncheck();
      await fill('Breached-password range API URL', 'http://127.0.0.1:9/range/');
      await fill('Breach check timeout (milliseconds)', '1500');
      await page.getByLabel('Passkeys on').check();
      await fill('Relying-party ID (domain)', 'example.com');
      await fill('Allowed origins (one per line)', 'https://example.com\nhttps://shop.example.com');
      await page.getByLabel('A passkey with user verification counts as multi-factor').uncheck();
      await fill('Passkey challenge lifetime (seconds)', '120');
      await page.getByRole('button', { name: 'Save settings' }).click();
      await statusSays(page, 'Settings saved.');
      assert.deepEqual(h.ward.registry.account().passkeys, {
        enabled: true,
        rp_id: 'example.com',
        rp_name: 'Ward',
        origins: ['https://example.com', 'https://shop.example.com'],
        user_verification_is_mfa: false,
        recovery_replaces: true,
        challenge_ttl: 120,
      });
      // An origin off the relying-party ID: the API's refusal is shown, nothing changes.
      await fill('Allowed origins (one per line)', 'https://example.org');
      await page.getByRole('button', { name: 'Save settings' }).click();
      await page.locator('#error.shown').filter({ hasText: 'example.org' }).waitFor();
      assert.deepEqual(h.ward.registry.account().passkeys.origins, ['https://example.com', 'https://shop.example.com']);
      await fill('Allowed origins (one per line)', 'https://example.com\nhttps://shop.example.com');
      // Custom fields: a JSON list; text that is no JSON is refused before sending, the API checks the rest.
      await fill('Custom fields (JSON list)', '[{"name": "loyalty_id",');
      await page.getByRole('button', { name: 'Save settings' }).click();
      await page.locator('#error.shown').filter({ hasText: 'Custom fields' }).waitFor();
      await fill('Custom fields (JSON list)', '[{"name": "Bad Name", "data_type": "string"}]');
      await page.getByRole('button', { name: 'Save settings' }).click();
      await page.locator('#error.shown').filter({ hasText: 'custom_fields' }).waitFor();
      const tier = { name: 'tier', data_type: 'list', values: ['silver', 'gold'], writable: 'admin' };
      await fill('Custom fields (JSON list)', JSON.stringify([tier]));
      const saved = page.waitForResponse((r) => r.request().method() === 'PATCH' && r.status() === 200);
      await page.getByRole('button', { name: 'Save settings' }).click();
      await saved;
      assert.deepEqual(h.ward.registry.account().custom_fields, [{ ...tier, required: false }]);
      const a = h.ward.registry.account();
      assert.equal(a.verification_code_ttl, 120);
      assert.deepEqual(a.rate_limits.login, { limit: 7, window_seconds: 60 });
      assert.equal(a.rate_limits.signup.limit, null, 'an empty limit means no limit');
      assert.deepEqual(a.rate_limits.token, { limit: 100, window_seconds: 10 });
      assert.deepEqual(a.verification_requests_per_user, { limit: 5, window_seconds: 3600 });
      assert.equal(a.verification_failures_per_user.limit, 12);
      assert.equal(a.refresh_token_ttl, 86400);
      assert.equal(a.authorization_code_ttl, 120);
      assert.equal(a.session_ttl, 7200);
      assert.equal(a.session_idle_ttl, 1800);
      assert.equal(a.step_up_ttl, 300);
      assert.equal(a.password_min_length, 10);
      assert.equal(a.password_min_strength, 3);
      assert.equal(a.password_refuse_common, false);
      assert.equal(a.password_refuse_user_info, true);
      assert.equal(a.password_breach_check_url, 'http://127.0.0.1:9/range/');
      assert.equal(a.password_breach_check_timeout_ms, 1500);
      await page.reload();
      await page.waitForFunction(
        () => (document.getElementById('s-rate_limits-login-limit') as HTMLInputElement).value === '7',
      );
      assert.equal(await page.getByLabel('Signup: requests per window').inputValue(), '');
      assert.equal(await page.getByLabel('Refuse the most common passwords').isChecked(), false);
      assert.equal(
        await page.getByLabel("Refuse passwords that contain the user's email address or name").isChecked(),
        true,
      );
      await shot(page, 'settings');
    } finally {
      await close();
    }
  });

  it('an Administrator disables, enables and gives a role to a user; a Manager has no role select', async () => {
    const target = await signup(h.ward);
    const { page, close } = await h.signedIn('administrator', '/console/users');
    try {
      await page.getByLabel('Search users by email, phone, name or id').fill(target.email);
      await page.getByRole('button', { name: 'Search' }).click();
      await page
        .locator('#users-table tbody tr')
        .filter({ hasText: target.email })
        .filter({ hasText: 'Active' })
        .waitFor();
      await shot(page, 'users');
      await page.getByRole('link', { name: target.email }).click();
      await page.waitForURL(`${h.ward.url}/console/users/${target.id}`);
      await idle(page);
      await page.getByRole('button', { name: 'Disable user' }).click();
      await confirmDialog(page, 'Disable user');
      await statusSays(page, 'User disabled');
      assert.equal((await h.ward.registry.users.find(target.id))!.disabled, true);
      await page.getByRole('button', { name: 'Enable user' }).click();
      await statusSays(page, 'User enabled.');
      assert.equal((await h.ward.registry.users.find(target.id))!.disabled, false);

      await page.getByLabel('Role', { exact: true }).selectOption('developer');
      await page.getByRole('button', { name: 'Save role' }).click();
      await statusSays(page, 'Role saved: Developer.');
      assert.equal((await h.ward.registry.users.find(target.id))!.role, 'developer');
      await shot(page, 'user');
    } finally {
      await close();
    }
    const manager = await h.signedIn('manager', `/console/users/${target.id}`);
    try {
      await manager.page.getByRole('button', { name: 'Disable user' }).waitFor();
      assert.equal(
        await manager.page.getByLabel('Role', { exact: true }).count(),
        0,
        'only an Administrator sees the role select',
      );
      const forged = await callApi(manager.page, 'PUT', `/api/v1/users/${target.id}/role`, { role: 'administrator' });
      assert.equal(forged.status, 403);
    } finally {
      await manager.close();
    }
  });

  it('the audit log pages older / newer and filters by actor, target and since / until', async () => {
    const { page, userId, close } = await h.signedIn('administrator', '/console/audit');
    try {
      h.ward.clock.advance(120_000);
      const t1 = h.ward.clock.now();
      for (let i = 0; i < 30; i++) assert.equal((await callApi(page, 'GET', '/api/v1/site/keys')).status, 200);
      const all = (await callApi(page, 'GET', `/api/v1/audit?actor=${userId}&action=keys.read&limit=100`)).body
        .events as Array<{ id: string }>;
      assert.equal(all.length, 30);
      // The browser's local time as a datetime-local value (no named helper inside evaluate: tsx would wrap it).
      const local = (ms: number) =>
        page.evaluate((t) => {
          const d = new Date(t);
          return [d.getFullYear(), d.getMonth() + 1, d.getDate(), d.getHours(), d.getMinutes(), d.getSeconds()]
            .map((n) => String(n).padStart(2, '0'))
            .reduce((out, v, i) => out + (i === 0 ? '' : i < 3 ? '-' : i === 3 ? 'T' : ':') + v, '');
        }, ms);
      const ids = () =>
        page.locator('#audit-table tbody tr').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-id')));
      const cells = (n: number) => page.locator(`#audit-table tbody tr td:nth-child(${n})`).allInnerTexts();

      await page.getByLabel('Action').fill('keys.read');
      await page.getByLabel('Actor (user or client id)').fill(userId);
      await page.getByLabel('Since').fill(await local(t1 - 60_000));
      await page.getByLabel('Per page').selectOption('25');
      await page.getByRole('button', { name: 'Filter' }).click();
      await page.locator('#audit-page').filter({ hasText: 'Page 1, 25 events' }).waitFor();
      const first = await ids();
      assert.deepEqual(
        first,
        all.slice(0, 25).map((e) => e.id),
      );
      assert.ok((await cells(3)).every((t) => t === `user ${userId}`));
      const older = page.getByRole('button', { name: 'Older' }),
        newer = page.getByRole('button', { name: 'Newer' });
      assert.equal(await newer.isDisabled(), true);
      await older.click();
      await page.locator('#audit-page').filter({ hasText: 'Page 2, 5 events' }).waitFor();
      assert.deepEqual(
        await ids(),
        all.slice(25).map((e) => e.id),
        'the older page continues exactly after the first',
      );
      assert.equal(await older.isDisabled(), true, 'no older page');
      await shot(page, 'audit');
      await newer.click();
      await page.locator('#audit-page').filter({ hasText: 'Page 1, 25 events' }).waitFor();
      assert.deepEqual(await ids(), first);

      // Until just before t1: none of the 30 reads; a target filter: only that target.
      await page.getByLabel('Since').fill('');
      await page.getByLabel('Until').fill(await local(t1 - 60_000));
      await page.getByLabel('Action').fill('');
      await page.getByRole('button', { name: 'Filter' }).click();
      await page.locator('#audit-page').filter({ hasText: 'Page 1' }).waitFor();
      await page.waitForFunction(
        (known) =>
          ![...document.querySelectorAll('#audit-table tbody tr')].some((r) =>
            known.includes(r.getAttribute('data-id')!),
          ),
        all.map((e) => e.id),
      );
      assert.ok(!(await cells(2)).includes('keys.read'));
      await page.getByLabel('Until').fill('');
      await page.getByLabel('Actor (user or client id)').fill('');
      await page.getByLabel('Target (e.g. client:backend)').fill('/api/v1/site/keys');
      await page.getByRole('button', { name: 'Filter' }).click();
      await page.locator('#audit-page').filter({ hasText: 'Page 1, 25 events' }).waitFor();
      assert.ok((await cells(4)).every((t) => t === '/api/v1/site/keys'));
    } finally {
      await close();
    }
  });
});
