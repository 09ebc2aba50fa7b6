// The admin console at /console in headless Chromium: console users sign in through Ward's hosted
// login page (the ward-console client, code flow with PKCE S256). A Developer switches an HS256 client
// to RS256, presses Rotate (the new kid is in /jwks.json?client_id=), Account sync (the client's id
// tokens are signed with the global key again) and revokes keys in the confirmation dialog (they
// leave the JWKS; Cancel revokes nothing); a Viewer sees no buttons and a forged API call with its
// token gets 403; a Manager sets MFA required to Always (the next password login of a user with a
// factor answers mfa_required), removes that user's factor and filters the audit log by action.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { decodeProtectedHeader } from 'jose';
import { giveFactors } from '../helpers/mfa.js';
import {
  CONFIDENTIAL_CLIENT,
  CONFIDENTIAL_SECRET,
  PUBLIC_CLIENT,
  codeFor,
  signup,
  tokenRequest,
} from '../helpers/oauth.js';
import {
  callApi,
  confirmDialog,
  dialog,
  shot,
  startConsole,
  status,
  statusSays,
  tokenOf,
  type ConsoleHarness,
} from './browser.js';

describe('the admin console in headless Chromium', { timeout: 180_000 }, () => {
  let h: ConsoleHarness;
  before(async () => {
    h = await startConsole({ clients: [PUBLIC_CLIENT, CONFIDENTIAL_CLIENT] });
  });
  after(async () => {
    await h?.close();
  });

  const jwksKids = async (clientId: string) =>
    (
      (await (await h.ward.fetch(clientId ? `/jwks.json?client_id=${clientId}` : '/jwks.json')).json()) as {
        keys: Array<{ kid: string }>;
      }
    ).keys.map((k) => k.kid);

  it('a Developer switches a client to RS256, rotates, syncs and revokes its key', async () => {
    const { page, close } = await h.signedIn('developer');
    try {
      assert.ok(await tokenOf(page), 'the access token is kept in sessionStorage');
      await page.locator('#clients-table tbody tr').first().waitFor();
      await shot(page, 'clients');
      await page.getByLabel('Search clients by id or name').fill('backend');
      await page.getByRole('button', { name: 'Search' }).click();
      await page.locator('#clients-table tbody tr').filter({ hasText: 'Shop SPA' }).waitFor({ state: 'detached' });
      await page.getByRole('link', { name: 'backend' }).click();
      await page.waitForURL(`${h.ward.url}/console/clients/backend`);
      await page.locator('#key-state').filter({ hasText: 'Synced with global' }).waitFor();
      // HS256: Rotate and Account sync are there but disabled, with the hint.
      assert.equal(await page.getByRole('button', { name: 'Rotate' }).isDisabled(), true);
      assert.equal(await page.getByRole('button', { name: 'Account sync' }).isDisabled(), true);
      assert.match(await page.locator('#key-hint').innerText(), /need RS256/);
      await shot(page, 'client-hs256');

      await page.getByRole('combobox', { name: 'JWT Algorithm' }).selectOption('RS256');
      await page.getByRole('button', { name: 'Save changes' }).click();
      await statusSays(page, 'Client saved.');
      assert.equal((await h.ward.registry.clients.find('backend'))!.jwt_algorithm, 'RS256');
      const rotate = page.getByRole('button', { name: 'Rotate' });
      assert.equal(await rotate.isEnabled(), true);
      assert.equal(await page.getByRole('button', { name: 'Account sync' }).isDisabled(), true, 'nothing to sync yet');

      await rotate.click();
      await statusSays(page, /New key \S+ is current/);
      const kid = /New key (\S+) is current/.exec(await status(page).innerText())![1]!;
      await page.locator('#key-state').filter({ hasText: 'Client-specific' }).waitFor();
      assert.ok((await jwksKids('backend')).includes(kid), 'the new kid is in /jwks.json?client_id=backend');
      await shot(page, 'keys');

      await page.getByRole('button', { name: 'Account sync' }).click();
      await statusSays(page, 'Synced with the global key pair.');
      await page.locator('#key-state').filter({ hasText: 'Synced with global' }).waitFor();
      assert.equal(
        await page.getByRole('button', { name: 'Account sync' }).isDisabled(),
        true,
        'synced: Account sync is disabled again',
      );
      const site = await callApi(page, 'GET', '/api/v1/site/keys');
      const globalKid = (site.body.keys as Array<{ kid: string; status: string }>).find(
        (k) => k.status === 'current',
      )!.kid;
      const { code, verifier } = await codeFor(h.ward, { clientId: 'backend', redirectUri: 'https://api.example/cb' });
      const res = await tokenRequest(h.ward, {
        grant_type: 'authorization_code',
        code,
        client_id: 'backend',
        client_secret: CONFIDENTIAL_SECRET,
        redirect_uri: 'https://api.example/cb',
        code_verifier: verifier,
      });
      const idToken = ((await res.json()) as { id_token: string }).id_token;
      assert.equal(decodeProtectedHeader(idToken).kid, globalKid, 'the client signs with the global key again');
      assert.ok(
        (await jwksKids('backend')).includes(kid),
        "the retired client key stays in the client's JWKS for the grace period",
      );
      assert.ok((await jwksKids('')).includes(kid), 'the replaced key stays published in /jwks.json as previous');

      await page.getByRole('button', { name: `Revoke key ${kid}` }).click();
      const asked = await confirmDialog(page, 'Revoke key');
      await statusSays(page, `Key ${kid} revoked.`);
      assert.match(asked, /Revoke key/);
      assert.ok(!(await jwksKids('')).includes(kid), 'the revoked key left the JWKS');
      assert.equal(await page.getByRole('button', { name: `Revoke key ${kid}` }).count(), 0);

      // Revoking the client's current key: Cancel changes nothing; confirming takes the key out of
      // the client's JWKS and sends the client back to the global pair.
      await page.getByRole('button', { name: 'Rotate' }).click();
      await statusSays(page, /New key \S+ is current/);
      const current = /New key (\S+) is current/.exec(await status(page).innerText())![1]!;
      assert.ok((await jwksKids('backend')).includes(current));
      await page.getByRole('button', { name: `Revoke key ${current}` }).click();
      await confirmDialog(page, 'Cancel');
      await statusSays(page, 'Nothing revoked.');
      assert.ok((await jwksKids('backend')).includes(current), 'a cancelled confirmation revokes nothing');
      await page.getByRole('button', { name: `Revoke key ${current}` }).click();
      await confirmDialog(page, 'Revoke key');
      await statusSays(page, `Key ${current} revoked.`);
      await page.locator('#key-state').filter({ hasText: 'Synced with global' }).waitFor();
      assert.ok(
        !(await jwksKids('backend')).includes(current),
        'the revoked current key left /jwks.json?client_id=backend',
      );
      assert.equal(await dialog(page).count(), 0);
    } finally {
      await close();
    }
  });

  it('a Viewer sees no buttons, every field is read-only, and a forged call with its token gets 403', async () => {
    const { page, close } = await h.signedIn('viewer');
    try {
      assert.equal(await page.getByRole('link', { name: 'New client' }).count(), 0);
      await page.goto(`${h.ward.url}/console/clients/backend`);
      await page
        .locator('#key-state')
        .filter({ hasText: /Synced|Client-specific/ })
        .waitFor();
      await page.locator('#keys-table tbody tr').first().waitFor();
      for (const name of ['Rotate', 'Account sync', 'Save changes', 'Regenerate secret', 'Delete client'])
        assert.equal(await page.getByRole('button', { name }).count(), 0, name);
      assert.equal(await page.getByRole('button', { name: /^Revoke key/ }).count(), 0);
      assert.equal(await page.getByRole('combobox', { name: 'JWT Algorithm' }).isDisabled(), true);
      assert.equal(await page.getByLabel('Allowed Callback URLs').isDisabled(), true);
      assert.match(await page.locator('#key-hint').innerText(), /Read-only/);
      await page.keyboard.press('Tab');
      assert.equal(
        await page.evaluate(() => document.activeElement?.textContent),
        'Skip to content',
        'the skip link comes first in the tab order',
      );
      await shot(page, 'viewer-client');
      const me = await callApi(page, 'GET', '/console/api/me');
      assert.equal(me.body.role, 'viewer');
      assert.deepEqual(me.body.permissions, ['read:clients', 'read:settings', 'read:users', 'read:audit']);
      const forged = await callApi(page, 'POST', '/api/v1/clients/backend/keys', {});
      assert.equal(forged.status, 403);
      assert.ok(forged.body.error_user_msg);
      await page.goto(`${h.ward.url}/console/site-keys`);
      await page.locator('#site-keys-table tbody tr').first().waitFor();
      assert.equal(await page.getByRole('button', { name: 'Rotate site key' }).count(), 0);
      assert.equal(await page.getByRole('button', { name: /^Revoke key/ }).count(), 0);
      await page.goto(`${h.ward.url}/console/settings`);
      await page.waitForFunction(
        () => (document.getElementById('s-access_token_ttl') as HTMLInputElement).value !== '',
      );
      assert.equal(await page.getByRole('button', { name: 'Save settings' }).count(), 0);
      assert.equal(await page.getByLabel('Login: requests per window').isDisabled(), true);
    } finally {
      await close();
    }
  });

  it('a Manager sets MFA required to Always, removes a factor and filters the audit log', async () => {
    const target = await signup(h.ward);
    await giveFactors(h.ward, target.id, { email: target.email });
    const { page, close } = await h.signedIn('manager');
    try {
      await page.getByRole('link', { name: 'Account settings' }).click();
      await page.waitForURL(`${h.ward.url}/console/settings`);
      await page.waitForFunction(
        () => (document.getElementById('s-access_token_ttl') as HTMLInputElement).value !== '',
      );
      await page.getByLabel('MFA required').selectOption('always');
      await page.getByLabel('Code length (digits)').fill('8');
      await page.getByLabel('A new social account needs an email').check();
      await page.getByLabel("The app's completion page URL").fill('https://app.example/complete');
      await page.getByRole('button', { name: 'Save settings' }).click();
      await statusSays(page, 'Settings saved.');
      assert.equal(h.ward.registry.account().mfa_required, 'always');
      assert.equal(h.ward.registry.account().verification_code_length, 8);
      assert.deepEqual(h.ward.registry.account().social_signup, {
        email_required: true,
        completion_url: 'https://app.example/complete',
      });
      const login = await h.ward.fetch('/identity/v1/password/login', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ client_id: 'spa', scope: 'openid', email: target.email, password: target.password }),
      });
      assert.equal(login.status, 200);
      assert.equal(((await login.json()) as { mfa_required?: boolean }).mfa_required, true);

      await page.getByRole('link', { name: 'Users' }).click();
      await page.getByLabel('Search users by email, phone, name or id').fill(target.email);
      await page.getByRole('button', { name: 'Search' }).click();
      await page.locator('#users-table tbody tr').filter({ hasText: target.email }).waitFor();
      await page.getByRole('link', { name: target.email }).click();
      const remove = page.getByRole('button', { name: `Remove factor ${target.email}` });
      await remove.waitFor();
      await remove.click();
      await confirmDialog(page, 'Remove factor');
      await statusSays(page, 'Factor removed.');
      assert.equal((await h.ward.registry.storage.mfaCredentials.listOfUser(target.id)).length, 0);

      await page.getByRole('link', { name: 'Audit log' }).click();
      await page.locator('#audit-table tbody tr').first().waitFor();
      await page.getByLabel('Action').fill('settings.updated');
      await page.getByRole('button', { name: 'Filter' }).click();
      await page.waitForFunction(() =>
        [...document.querySelectorAll('#audit-table tbody tr td:nth-child(2)')].every(
          (td) => td.textContent === 'settings.updated',
        ),
      );
      assert.ok((await page.locator('#audit-table tbody tr').count()) >= 1);
    } finally {
      await close();
    }
  });
});
