// Clients in the console, in headless Chromium: a Developer creates a confidential HS256 client.
// Obviously bad callback URLs are refused in the browser before any request; a URL only the API
// refuses (userinfo) gets the API's message next to the field and its error_user_msg in the alert.
// The generated secret is shown once in a dismissable panel with a copy button, and never again;
// edits (name, callbacks, origins, SSO, PKCE, grant types) reach the stored client and show progress
// while the request runs; the secret is regenerated and the client deleted after a confirmation.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { PUBLIC_CLIENT } from '../helpers/oauth.js';
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

describe('console: create, edit, secret and delete of a client', { timeout: 180_000 }, () => {
  let h: ConsoleHarness;
  before(async () => {
    h = await startConsole({ clients: [PUBLIC_CLIENT] });
  });
  after(async () => {
    await h?.close();
  });

  it('creates a client with validation, shows its secret once, edits, regenerates and deletes it', async () => {
    const { page, context, close } = await h.signedIn('developer');
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: h.ward.url });
    const field = (name: string) => page.locator(`#e-${name}`);
    try {
      await page.getByRole('link', { name: 'New client' }).click();
      await page.waitForURL(`${h.ward.url}/console/create-client`);
      await idle(page);
      await page.getByLabel('Client ID').fill('billing');
      await page.getByLabel('Name', { exact: true }).fill('Billing backend');
      await page.getByLabel('Application type').selectOption('confidential');
      await page.getByRole('combobox', { name: 'JWT Algorithm' }).selectOption('HS256');
      const callbacks = page.getByLabel('Allowed Callback URLs');
      await callbacks.fill('javascript:alert(1)\nhttp://billing.example/cb\nhttps://billing.example/cb#frag');

      // Obviously bad URLs: refused in the browser, nothing sent.
      let posts = 0;
      page.on('request', (r) => {
        if (r.method() === 'POST' && r.url().endsWith('/api/v1/clients')) posts++;
      });
      await page.getByRole('button', { name: 'Create client' }).click();
      await field('allowed_callback_urls').waitFor();
      const local = await field('allowed_callback_urls').innerText();
      assert.match(local, /javascript:alert\(1\) must not use a javascript:/);
      assert.match(local, /http:\/\/billing\.example\/cb must use https/);
      assert.match(local, /must not contain a fragment/);
      assert.equal(await callbacks.getAttribute('aria-invalid'), 'true');
      assert.equal(
        await page.evaluate(() => document.activeElement?.id),
        'f-allowed_callback_urls',
        'the focus goes to the invalid field',
      );
      assert.match((await callbacks.getAttribute('aria-describedby'))!, /e-allowed_callback_urls/);
      assert.equal(posts, 0, 'no request for obviously bad URLs');
      await shot(page, 'client-create-errors');

      // A URL only the API refuses: its message next to the field, its error_user_msg in the alert.
      await callbacks.fill('https://@billing.example/cb');
      await page.getByRole('button', { name: 'Create client' }).click();
      await page.locator('#error.shown').waitFor();
      assert.equal(posts, 1);
      const refused = await callApi(page, 'POST', '/api/v1/clients', {
        client_id: 'billing',
        type: 'confidential',
        jwt_algorithm: 'HS256',
        allowed_callback_urls: ['https://@billing.example/cb'],
      });
      assert.equal(refused.status, 400);
      assert.equal(
        await page.locator('#error').innerText(),
        refused.body.error_user_msg,
        'the error_user_msg is shown',
      );
      assert.match(await field('allowed_callback_urls').innerText(), /must not contain userinfo/);
      assert.equal(await h.ward.registry.clients.find('billing'), undefined);

      await callbacks.fill('https://billing.example/cb\nhttp://localhost:8080/cb');
      await page.getByLabel('Allowed origins').fill('https://billing.example');
      await page.getByLabel('Single sign-on (SSO)').check();
      await page.getByLabel('Require PKCE').check();
      await page.getByLabel('Client credentials').check();
      await page.getByRole('button', { name: 'Create client' }).click();
      const panel = page.getByRole('region', { name: 'Client secret of billing' });
      await panel.waitFor();
      await statusSays(page, 'Client billing created.');
      assert.equal(await field('allowed_callback_urls').isHidden(), true, 'the field error is gone');
      const created = (await h.ward.registry.clients.find('billing'))!;
      assert.equal(created.type, 'confidential');
      assert.equal(created.jwt_algorithm, 'HS256');
      assert.deepEqual(created.allowed_callback_urls, ['https://billing.example/cb', 'http://localhost:8080/cb']);
      assert.deepEqual(created.allowed_origins, ['https://billing.example']);
      assert.equal(created.sso, true);
      assert.equal(created.pkce_enforced, true);
      assert.equal(created.first_party, true, 'a new client is first-party unless unchecked');
      assert.ok(created.grant_types.includes('client_credentials'));
      const secret = await panel.getByLabel('Client secret').inputValue();
      assert.equal(secret, h.ward.registry.clients.secretOf(created), 'the panel shows the stored secret');
      await shot(page, 'client-secret');
      await panel.getByRole('button', { name: 'Copy secret' }).click();
      await statusSays(page, 'Secret copied to the clipboard.');
      assert.equal(await page.evaluate(() => navigator.clipboard.readText()), secret);
      await panel.getByRole('button', { name: /hide the secret/ }).click();
      await panel.waitFor({ state: 'detached' });
      assert.ok(!(await page.content()).includes(secret), 'the dismissed secret is gone from the page');

      // Never again: the client's page does not show it.
      await page.getByRole('link', { name: 'Open billing' }).click();
      await page.waitForURL(`${h.ward.url}/console/clients/billing`);
      await page.locator('#key-state').filter({ hasText: 'Synced with global' }).waitFor();
      await idle(page);
      assert.ok(!(await page.content()).includes(secret));
      assert.equal(
        await page.getByLabel('Allowed Callback URLs').inputValue(),
        'https://billing.example/cb\nhttp://localhost:8080/cb',
      );
      assert.equal(await page.getByLabel('Single sign-on (SSO)').isChecked(), true);

      // Edit, with progress shown while the request runs.
      await page.getByLabel('Name', { exact: true }).fill('Billing service');
      await page.getByLabel('Allowed origins').fill('https://billing.example\nhttps://admin.billing.example');
      await page.getByLabel('Single sign-on (SSO)').uncheck();
      await page.getByLabel('Require PKCE').uncheck();
      await page.getByLabel('First-party app (no consent page)').uncheck();
      await page.getByLabel('Logo URL').fill('https://billing.example/logo.png');
      await page.getByRole('combobox', { name: 'JWT Algorithm' }).selectOption('RS256');
      let release!: () => void;
      const held = new Promise<void>((r) => {
        release = r;
      });
      await page.route('**/api/v1/clients/billing', async (route) => {
        if (route.request().method() === 'PATCH') await held;
        await route.continue();
      });
      const save = page.getByRole('button', { name: 'Save changes' });
      await save.click();
      await statusSays(page, 'Saving…');
      assert.equal(await save.isDisabled(), true, 'the button is disabled while the request runs');
      assert.equal(await save.getAttribute('aria-busy'), 'true');
      assert.equal(await page.locator('#status').getAttribute('aria-live'), 'polite');
      release();
      await statusSays(page, 'Client saved.');
      assert.equal(await save.isEnabled(), true);
      await page.unroute('**/api/v1/clients/billing');
      const edited = (await h.ward.registry.clients.find('billing'))!;
      assert.equal(edited.name, 'Billing service');
      assert.deepEqual(edited.allowed_origins, ['https://billing.example', 'https://admin.billing.example']);
      assert.equal(edited.sso, false);
      assert.equal(edited.pkce_enforced, false);
      assert.equal(edited.first_party, false, 'made a third-party app');
      assert.equal(edited.logo_uri, 'https://billing.example/logo.png');
      assert.equal(edited.jwt_algorithm, 'RS256');
      assert.equal(h.ward.registry.clients.secretOf(edited), secret, 'an edit keeps the secret');
      await page.getByRole('button', { name: 'Rotate' }).waitFor();
      assert.equal(
        await page.getByRole('button', { name: 'Rotate' }).isEnabled(),
        true,
        'RS256 now: Rotate is enabled',
      );
      await shot(page, 'client-edit');

      // Regenerate the secret: after the confirmation, a new one, shown once.
      await page.getByRole('button', { name: 'Regenerate secret' }).click();
      await confirmDialog(page, 'Regenerate secret');
      const again = page.getByRole('region', { name: 'Client secret of billing' });
      await again.waitFor();
      const fresh = await again.getByLabel('Client secret').inputValue();
      assert.notEqual(fresh, secret);
      assert.equal(
        h.ward.registry.clients.secretOf((await h.ward.registry.clients.find('billing'))!),
        fresh,
        'the old secret is replaced',
      );
      await page.reload();
      await page.locator('#key-state').filter({ hasText: 'Synced with global' }).waitFor();
      assert.equal(
        await page.getByRole('region', { name: 'Client secret of billing' }).count(),
        0,
        'not shown after a reload',
      );
      assert.ok(!(await page.content()).includes(fresh));

      // Delete: Escape cancels (the focus returns to the button), then confirm.
      const del = page.getByRole('button', { name: 'Delete client' });
      await del.click();
      await dialog(page).waitFor();
      await page.keyboard.press('Escape');
      await dialog(page).waitFor({ state: 'detached' });
      assert.equal(
        await page.evaluate(() => document.activeElement?.id),
        'delete-client',
        'the focus returns to the opener',
      );
      assert.ok(await h.ward.registry.clients.find('billing'), 'Escape deletes nothing');
      await del.click();
      await confirmDialog(page, 'Delete client');
      await page.waitForURL(`${h.ward.url}/console/clients`);
      await statusSays(page, 'Client billing deleted.');
      assert.equal(await h.ward.registry.clients.find('billing'), undefined);
      assert.equal(await page.getByRole('link', { name: 'billing' }).count(), 0);
    } finally {
      await close();
    }
  });

  it('a public client: PKCE is always on and client credentials off; HS256 is refused before sending', async () => {
    const { page, close } = await h.signedIn('developer', '/console/create-client');
    try {
      await page.getByLabel('Client ID').fill('mobile');
      await page.getByLabel('Application type').selectOption('public');
      assert.equal(await page.getByLabel('Require PKCE').isChecked(), true);
      assert.equal(await page.getByLabel('Require PKCE').isDisabled(), true);
      assert.equal(await page.getByLabel('Client credentials').isDisabled(), true);
      await page.getByRole('combobox', { name: 'JWT Algorithm' }).selectOption('HS256');
      await page.getByLabel('Allowed Callback URLs').fill('com.example.mobile:/cb');
      await page.getByRole('button', { name: 'Create client' }).click();
      await page.locator('#e-jwt_algorithm').filter({ hasText: 'a public client must use RS256' }).waitFor();
      assert.equal(await h.ward.registry.clients.find('mobile'), undefined);
      await page.getByRole('combobox', { name: 'JWT Algorithm' }).selectOption('RS256');
      await page.getByRole('button', { name: 'Create client' }).click();
      await page.waitForURL(`${h.ward.url}/console/clients/mobile`);
      await statusSays(page, 'Client mobile created.');
      const c = (await h.ward.registry.clients.find('mobile'))!;
      assert.equal(c.type, 'public');
      assert.equal(c.pkce_enforced, true);
      assert.deepEqual(c.allowed_callback_urls, ['com.example.mobile:/cb']);
      assert.equal(
        await page.getByRole('button', { name: 'Regenerate secret' }).isVisible(),
        false,
        'a public client has no secret',
      );
      // The password grant: off by default, opted in from the client page.
      const password = page.getByLabel(/^Password \(/);
      assert.equal(await password.isChecked(), false);
      await password.check();
      await page.getByRole('button', { name: 'Save changes' }).click();
      await statusSays(page, 'Client saved.');
      assert.ok((await h.ward.registry.clients.find('mobile'))!.grant_types.includes('password'));
    } finally {
      await close();
    }
  });

  it('a resource server: no sign-in fields, a secret shown once', async () => {
    const { page, close } = await h.signedIn('developer', '/console/create-client');
    try {
      await page.getByLabel('Client ID').fill('orders-api');
      await page.getByLabel('Allowed Callback URLs').fill('https://orders.example/cb');
      await page.getByLabel('Application type').selectOption('resource_server');
      for (const label of ['Allowed Callback URLs', 'Allowed origins', 'Authorization code', 'Code', 'Require PKCE']) {
        const el = page.getByLabel(label, { exact: true });
        assert.equal(await el.isDisabled(), true, `${label} is off for a resource server`);
      }
      assert.equal(await page.getByLabel('Allowed Callback URLs').inputValue(), '');
      await page.getByRole('button', { name: 'Create client' }).click();
      await page.locator('#secret-value').waitFor();
      await statusSays(page, 'Client orders-api created.');
      const c = (await h.ward.registry.clients.find('orders-api'))!;
      assert.equal(c.type, 'resource_server');
      assert.deepEqual(c.grant_types, []);
      assert.deepEqual(c.allowed_callback_urls, []);
      assert.ok(h.ward.registry.clients.checkSecret(c, await page.locator('#secret-value').inputValue()));
      await page.getByRole('link', { name: 'Open orders-api' }).click();
      await page.waitForURL(`${h.ward.url}/console/clients/orders-api`);
      await idle(page);
      assert.equal(await page.getByLabel('Application type').inputValue(), 'resource_server');
      assert.equal(await page.getByLabel('Authorization code').isDisabled(), true);
      assert.equal(await page.getByRole('button', { name: 'Regenerate secret' }).isVisible(), true);
    } finally {
      await close();
    }
  });
});
