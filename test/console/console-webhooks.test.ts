// The console's Webhooks page in headless Chromium (issue #35): a Manager registers an endpoint for all
// events against a real loopback receiver, copies the whsec_ secret shown once, sends a test event and
// sees its delivery listed with its attempt; a real action (a sign-up) reaches the receiver too; every
// request the receiver got verifies with the `standardwebhooks` package; the secret is rotated with a
// day's overlap (both secrets verify), the endpoint disabled and enabled, a delivery resent, a range
// replayed, and the endpoint deleted behind the confirmation dialog. The Hooks section creates (secret
// shown once), edits and deletes a hook. A Viewer sees no Webhooks link, no list, no button, and a
// forged call gets 403.
import assert from 'node:assert/strict';
import { after, afterEach, before, beforeEach, describe, it } from 'node:test';
import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { applyConfigEndpoints } from '../../src/webhooks/config-endpoints.js';
import { PUBLIC_CLIENT, signup } from '../helpers/oauth.js';
import { deliverUntil } from '../webhooks/manager.js';
import { Receiver } from '../webhooks/receiver.js';
import { callApi, confirmDialog, idle, shot, startConsole, statusSays, type ConsoleHarness } from './browser.js';

describe('console: webhooks and hooks', { timeout: 180_000 }, () => {
  let h: ConsoleHarness;
  let receiver: Receiver;
  before(async () => {
    h = await startConsole({ clients: [PUBLIC_CLIENT] });
  });
  after(async () => {
    await h?.close();
  });
  beforeEach(async () => {
    receiver = new Receiver();
    await receiver.start();
  });
  afterEach(() => receiver.close());

  const verified = (secret: string) =>
    receiver.received.map((r) => new Webhook(secret).verify(r.body, r.headers as Record<string, string>)) as Array<{
      type: string;
    }>;

  it('a Manager registers an endpoint, tests it, sees the delivery, rotates and deletes it', async () => {
    const { page, close } = await h.signedIn('manager', '/console/webhooks');
    try {
      await page.getByRole('link', { name: 'Webhooks' }).waitFor();
      await page.locator('#new-webhook summary').click();
      await page.getByLabel('URL').first().fill(receiver.url);
      await page.locator('#wn-description').fill('the site');
      await page.getByLabel('All events (*), present and future').first().check();
      await page.getByRole('button', { name: 'Create endpoint' }).click();
      await statusSays(page, `Endpoint ${receiver.url} registered.`);
      const secret = await page.locator('#secret-value').inputValue();
      assert.match(secret, /^whsec_/);
      await shot(page, 'webhooks-created');
      await page.getByRole('button', { name: 'I have stored it: hide the secret' }).click();
      assert.equal(await page.locator('#secret-value').count(), 0, 'the secret is gone once hidden');
      const row = page.locator('#webhooks-table tbody tr').filter({ hasText: receiver.url });
      await row.filter({ hasText: 'All events (*)' }).filter({ hasText: 'No delivery yet' }).waitFor();
      const id = (await row.getAttribute('data-id'))!;
      const listed = await callApi(page, 'GET', `/api/v1/webhooks/${id}`);
      assert.equal(listed.body.secret, undefined, 'never shown again');

      await row.getByRole('link', { name: receiver.url, exact: true }).click();
      await page.waitForURL(`${h.ward.url}/console/webhooks/${id}`);
      await page.locator('#webhook-details').filter({ hasText: 'the site' }).waitFor();
      await page.getByRole('button', { name: 'Send test event' }).click();
      await statusSays(page, 'Test event queued');
      await deliverUntil(h.ward, () => receiver.delivered().some((e) => e.type === 'webhook.test'));
      // A real action reaches it too: a sign-up is user.created.
      await signup(h.ward);
      await deliverUntil(h.ward, () => receiver.delivered().some((e) => e.type === 'user.created'));
      const types = verified(secret).map((e) => e.type);
      assert.ok(types.includes('webhook.test') && types.includes('user.created'), types.join());

      await page.getByRole('button', { name: 'Refresh' }).click();
      await idle(page);
      const test = page.locator('#deliveries-table tbody tr[data-event="webhook.test"]');
      await test.filter({ hasText: 'delivered' }).filter({ hasText: 'HTTP 204' }).waitFor();
      await page.locator('#health').filter({ hasText: 'Healthy' }).waitFor();
      await shot(page, 'webhook-deliveries');

      // Resend the test delivery: a second webhook.test arrives.
      await test
        .first()
        .getByRole('button', { name: /^Resend/ })
        .click();
      await statusSays(page, 'Delivery of webhook.test queued again.');
      await deliverUntil(h.ward, () => receiver.delivered().filter((e) => e.type === 'webhook.test').length >= 2);

      // Rotate with a day's overlap: the new secret is shown once; both secrets verify the next event.
      await page.getByRole('button', { name: 'Rotate secret' }).click();
      assert.match(await confirmDialog(page, 'Rotate secret'), /also signs for one day/);
      await statusSays(page, 'Secret rotated.');
      const fresh = await page.locator('#secret-value').inputValue();
      assert.match(fresh, /^whsec_/);
      assert.notEqual(fresh, secret);
      assert.match(await page.locator('#secret-once').innerText(), /previous secret also signs until/);
      const before = receiver.received.length;
      await page.getByRole('button', { name: 'Send test event' }).click();
      await statusSays(page, 'Test event queued');
      await deliverUntil(h.ward, () => receiver.received.length > before);
      const last = receiver.received.at(-1)!;
      for (const s of [fresh, secret]) new Webhook(s).verify(last.body, last.headers as Record<string, string>);

      // Replay the last hour: the events are queued again.
      const local = (t: number) => new Date(t - new Date(t).getTimezoneOffset() * 60_000).toISOString().slice(0, 19);
      const now = h.ward.clock.now();
      await page.locator('#replay-from').fill(local(now - 3600_000));
      await page.locator('#replay-to').fill(local(now + 3600_000));
      await page.getByRole('button', { name: 'Replay' }).click();
      await statusSays(page, /[1-9]\d* event\(s\) queued again/);

      await page.getByRole('button', { name: 'Disable' }).click();
      await statusSays(page, 'Endpoint disabled.');
      await page
        .locator('#webhook-details')
        .filter({ hasText: /EnabledNo/ })
        .waitFor();
      assert.equal((await h.ward.registry.storage.webhookEndpoints.find(id))?.enabled, 0);
      await page.getByRole('button', { name: 'Enable' }).click();
      await statusSays(page, 'Endpoint enabled.');

      // Edit: only user.created from now on.
      await page.locator('#edit-webhook summary').click();
      await page.locator('#we-all').uncheck();
      await page.locator('#we-ev-user-created').check();
      await page.getByRole('button', { name: 'Save endpoint' }).click();
      await statusSays(page, 'Endpoint saved.');
      assert.deepEqual((await callApi(page, 'GET', `/api/v1/webhooks/${id}`)).body.events, ['user.created']);

      await page.getByRole('button', { name: 'Delete endpoint' }).click();
      assert.match(await confirmDialog(page, 'Delete endpoint'), /stops sending it events/);
      await page.waitForURL(`${h.ward.url}/console/webhooks`);
      await statusSays(page, `Endpoint ${receiver.url} deleted.`);
      assert.equal(await h.ward.registry.storage.webhookEndpoints.find(id), undefined);
    } finally {
      await close();
    }
  });

  it('a Manager creates, edits and deletes a hook; its secret is shown once', async () => {
    const { page, close } = await h.signedIn('manager', '/console/webhooks');
    try {
      await page.locator('#new-hook summary').click();
      await page.locator('#hk-event').selectOption('before.signup');
      await page.locator('#hk-url').fill(receiver.url);
      await page.locator('#hk-policy').selectOption('open');
      await page.getByRole('button', { name: 'Create hook' }).click();
      await statusSays(page, `Hook ${receiver.url} registered.`);
      assert.match(await page.locator('#hook-secret-slot #secret-value').inputValue(), /^whsec_/);
      const row = page.locator('#hooks-table tbody tr').filter({ hasText: receiver.url });
      await row.filter({ hasText: 'before.signup' }).filter({ hasText: 'open' }).waitFor();

      await row.getByRole('button', { name: `Edit hook ${receiver.url}` }).click();
      await page.locator('#hk-timeout').fill('1500');
      await page.getByRole('button', { name: 'Save hook' }).click();
      await statusSays(page, 'Hook saved.');
      await row.filter({ hasText: '1500 ms' }).waitFor();

      // A sign-up calls it: the call is listed.
      await signup(h.ward);
      await row.getByRole('button', { name: `Calls of ${receiver.url}` }).click();
      await page.locator('#hook-calls-table tbody tr').filter({ hasText: 'ms' }).first().waitFor();
      await shot(page, 'hooks');

      await row.getByRole('button', { name: `Delete hook ${receiver.url}` }).click();
      await confirmDialog(page, 'Delete hook');
      await statusSays(page, `Hook ${receiver.url} deleted.`);
      assert.equal((await h.ward.registry.storage.hooks.list()).length, 0);
    } finally {
      await close();
    }
  });

  it("a config file's endpoint shows without the buttons that would change it", async () => {
    // Applied as at a start with a config file declaring it (src/webhooks/config-endpoints.ts).
    const { storage } = h.ward.registry;
    const secret = `whsec_${randomBytes(32).toString('base64')}`;
    await storage.transaction((tx) =>
      applyConfigEndpoints(
        tx,
        h.ward.registry.masterKey,
        h.ward.clock.now(),
        [{ name: 'crm', url: receiver.url, events: ['*'], enabled: true, description: 'from the file', secret }],
        true,
      ),
    );
    h.ward.registry.webhookDelivery.kick();
    const { page, close } = await h.signedIn('manager', '/console/webhooks');
    try {
      const row = page.locator('#webhooks-table tbody tr[data-id="cfg_crm"]');
      await row.filter({ hasText: '(config file)' }).getByRole('link', { name: receiver.url, exact: true }).click();
      await page.waitForURL(`${h.ward.url}/console/webhooks/cfg_crm`);
      await page.locator('#webhook-details').filter({ hasText: 'the config file (change it there)' }).waitFor();
      for (const name of ['Disable', 'Rotate secret', 'Delete endpoint'])
        assert.equal(await page.getByRole('button', { name }).count(), 0, name);
      assert.equal(await page.locator('#edit-webhook').count(), 0);
      await page.getByRole('button', { name: 'Send test event' }).click();
      await statusSays(page, 'Test event queued');
      await deliverUntil(h.ward, () => receiver.delivered().some((e) => e.type === 'webhook.test'));
      const got = receiver.received.at(-1)!;
      new Webhook(secret).verify(got.body, got.headers as Record<string, string>);
    } finally {
      await close();
    }
  });

  it('a Viewer sees no Webhooks link, no list and no button; a forged call gets 403', async () => {
    const { page, close } = await h.signedIn('viewer', '/console/webhooks');
    try {
      await page.locator('#wh-denied').waitFor();
      assert.equal(await page.getByRole('link', { name: 'Webhooks' }).count(), 0);
      assert.equal(await page.locator('main button, main form, main table').count(), 0);
      const forged = await callApi(page, 'POST', '/api/v1/webhooks', { url: receiver.url, events: ['*'] });
      assert.equal(forged.status, 403);
      assert.equal((await callApi(page, 'GET', '/api/v1/hooks')).status, 403);
      await page.goto(`${h.ward.url}/console/webhooks/anything`);
      await idle(page);
      assert.equal(await page.locator('main button, main form').count(), 0);
    } finally {
      await close();
    }
  });
});
