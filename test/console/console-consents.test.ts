// The console's Consents pages in headless Chromium: a Manager's bad input (a key not in snake_case, a
// language that is not a tag, no title) is refused with the form kept and its fields marked, nothing
// stored; the definition is created, a version 2 published with a second language (a language given
// twice refused first, then a control character in a title that only the API checks, marked on its
// field all the same), seen at once in the remote settings (GET /identity/v1/config consents) in each
// language, archived behind the dialog (gone from the remote settings) and reactivated. Then, on the
// definition made above: a user's page shows their consents and the history (granted by the user at
// signup, withdrawn by an administrator), and a Viewer sees the definitions without a button that
// changes them.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { api } from '../helpers/management.js';
import { codeFor, PUBLIC_CLIENT, redeem, signup } from '../helpers/oauth.js';
import { callApi, confirmDialog, idle, shot, startConsole, statusSays, type ConsoleHarness } from './browser.js';

type RemoteConsent = { key: string; title: string; description: string; version_id: number; language: string };

describe('console: consent definitions', { timeout: 180_000 }, () => {
  let h: ConsoleHarness;
  before(async () => {
    h = await startConsole({ clients: [PUBLIC_CLIENT] });
  });
  after(async () => {
    await h?.close();
  });

  const remote = async (lang: string) =>
    (
      (await (await h.ward.fetch(`/identity/v1/config?client_id=spa&lang=${lang}`)).json()) as {
        consents: RemoteConsent[];
      }
    ).consents.find((c) => c.key === 'newsletter');
  /** The management API as a Manager signed in to the console's client (an administrator's change). */
  const managerApi = async () => {
    const callback = `${h.ward.url}/console/callback`;
    const { code, verifier, user } = await codeFor(h.ward, { clientId: 'ward-console', redirectUri: callback });
    await h.ward.registry.storage.users.setRole(user.id, 'manager', h.ward.clock.now());
    return api(h.ward, (await redeem(h.ward, code, verifier, 'ward-console', callback)).body.access_token as string);
  };
  /** The fieldset of the n-th language (from 1) of a texts editor. */
  const language = (page: Page, form: string, n: number) => page.locator(`${form} fieldset.consent-text`).nth(n - 1);
  const error = (page: Page, text: string) => page.locator('#error').filter({ hasText: text }).waitFor();

  it('a Manager creates a definition, publishes a version, archives and reactivates it', async () => {
    const { page, close, problems } = await h.signedIn('manager', '/console/consents');
    try {
      await page.locator('#consents-table tbody').filter({ hasText: 'No consent definition yet.' }).waitFor();
      await page.getByText('New consent definition').click();
      await page.getByLabel('Key').fill('News Letter');
      await page.getByLabel('Type').selectOption('opt-in');
      const first = language(page, '#nc-form', 1);
      await first.getByLabel('Language', { exact: true }).fill('english!');
      await page.getByRole('button', { name: 'Create definition' }).click();
      await error(page, 'The key must be snake_case');
      await error(page, 'Language 1: the language must be a BCP 47 language tag such as en or fr-FR.');
      await error(page, 'Language 1: the title is required');
      for (const field of [
        page.getByLabel('Key'),
        first.getByLabel('Language', { exact: true }),
        first.getByLabel('Title'),
      ])
        assert.equal(await field.getAttribute('aria-invalid'), 'true');
      assert.equal(await page.getByLabel('Key').inputValue(), 'News Letter', 'the form keeps what was typed');
      assert.deepEqual(h.ward.registry.account().consents, [], 'nothing stored');
      await shot(page, 'consents-refused');

      await page.getByLabel('Key').fill('newsletter');
      await first.getByLabel('Language', { exact: true }).fill('en');
      await first.getByLabel('Title').fill('Our newsletter');
      await first.getByLabel('Description').fill('News from the shop, once a month.');
      await page.getByRole('button', { name: 'Create definition' }).click();
      await page.waitForURL(`${h.ward.url}/console/consents/newsletter`);
      await statusSays(page, 'Consent definition newsletter created.');
      await page
        .locator('#consent-details')
        .filter({ hasText: /Current versionVersion 1/ })
        .waitFor();
      assert.equal((await remote('en'))?.title, 'Our newsletter');

      // Publish version 2: the form holds version 1's texts; a language given twice is refused first.
      const form = '#nv-form';
      assert.equal(await language(page, form, 1).getByLabel('Title').inputValue(), 'Our newsletter');
      await language(page, form, 1).getByLabel('Title').fill('Our monthly newsletter');
      await page.getByRole('button', { name: 'Add a language' }).click();
      const second = language(page, form, 2);
      await second.getByLabel('Language', { exact: true }).fill('EN');
      await second.getByLabel('Title').fill('Notre lettre mensuelle');
      await page.getByRole('button', { name: 'Publish version' }).click();
      await error(page, 'Language 2: EN has a text already: one per language.');
      assert.equal(await second.getByLabel('Language', { exact: true }).getAttribute('aria-invalid'), 'true');
      await second.getByLabel('Language', { exact: true }).fill('fr');
      await second.getByLabel('Description').fill('Les nouvelles de la boutique, une fois par mois.');
      // What only the API checks (a control character: a pasted tab) is marked on its field all the same.
      await second.getByLabel('Title').fill('Notre lettre\tmensuelle');
      await page.getByRole('button', { name: 'Publish version' }).click();
      await error(page, 'Language 2, the title: must not contain control characters.');
      assert.equal(await second.getByLabel('Title').getAttribute('aria-invalid'), 'true');
      assert.equal(h.ward.registry.account().consents[0]?.versions.length, 1, 'nothing stored');
      await second.getByLabel('Title').fill('Notre lettre mensuelle');
      await page.getByLabel('Ask users to accept it again').check();
      await page.getByRole('button', { name: 'Publish version' }).click();
      await statusSays(
        page,
        'Version 2 published: it is the current version now. Users on an older version are asked again at their next sign-in.',
      );
      await page.locator('#versions-table tbody tr[data-version="2"]').filter({ hasText: 'Notre lettre' }).waitFor();
      assert.match(
        (await page.locator('#versions-table tbody tr[data-version="2"] td').first().textContent()) ?? '',
        /asked again/,
      );
      assert.equal(h.ward.registry.account().consents[0]?.versions[1]?.require_reconsent, true, 'stored with the flag');
      assert.equal(await page.getByLabel('Ask users to accept it again').isChecked(), false, 'the form is reset');
      assert.equal(await second.getByLabel('Language', { exact: true }).getAttribute('aria-invalid'), null);
      await shot(page, 'consent-published');

      // The remote settings offer version 2 at once, in each language.
      assert.deepEqual(await remote('fr'), {
        key: 'newsletter',
        title: 'Notre lettre mensuelle',
        description: 'Les nouvelles de la boutique, une fois par mois.',
        consent_type: 'opt-in',
        status: 'active',
        required: false,
        version_id: 2,
        language: 'fr',
      });
      assert.equal((await remote('en'))?.title, 'Our monthly newsletter');
      assert.equal((await remote('en'))?.version_id, 2);

      // Archive behind the dialog: no longer offered; reactivate: offered again.
      await page.getByRole('button', { name: 'Archive' }).click();
      assert.match(await confirmDialog(page, 'Archive'), /no longer offered at signup/);
      await statusSays(page, 'Consent definition archived.');
      assert.equal(await remote('en'), undefined);
      await page.getByRole('button', { name: 'Reactivate' }).click();
      await statusSays(page, 'Consent definition reactivated.');
      assert.equal((await remote('en'))?.version_id, 2);

      await page.getByRole('link', { name: 'Back to the consents' }).click();
      await page
        .locator('#consents-table tbody tr[data-key="newsletter"]')
        .filter({ hasText: 'Our monthly newsletter' })
        .filter({ hasText: 'Version 2' })
        .filter({ hasText: 'en, fr' })
        .filter({ hasText: 'Active' })
        .waitFor();
      const audit = await h.ward.registry.storage.audit.list({ target: 'consent_definition:newsletter', limit: 10 });
      assert.equal(audit.filter((e) => e.outcome === 'success').length, 4, 'create, publish, archive, reactivate');
      assert.deepEqual(problems, [], 'no script or CSP error');
    } finally {
      await close();
    }
  });

  it("a user's page shows their consents and history; a Viewer changes nothing", async () => {
    const { page, close, problems } = await h.signedIn('viewer', '/console/consents');
    try {
      const user = await signup(h.ward, 'spa', {
        consents: { newsletter: { granted: true, consent_version: { version_id: 2, language: 'fr' } } },
      });
      h.ward.clock.advance(60_000);
      const withdrawn = await (await managerApi()).patch(`/api/v1/users/${user.id}`, {
        consents: { newsletter: { granted: false } },
      });
      assert.equal(withdrawn.status, 200, JSON.stringify(withdrawn.body));
      await page.locator('#consents-table tbody tr[data-key="newsletter"]').waitFor();
      assert.equal(await page.getByText('New consent definition').count(), 0);
      await page.getByRole('link', { name: 'newsletter', exact: true }).click();
      await page.locator('#versions-table tbody tr').first().waitFor();
      for (const name of ['Archive', 'Make required', 'Publish version', 'Add a language'])
        assert.equal(await page.getByRole('button', { name }).count(), 0, name);
      const forged = await callApi(page, 'PUT', '/api/v1/consent-definitions/newsletter', {
        consent_type: 'opt-in',
        versions: [{ version_id: 1, texts: [{ language: 'en', title: 'x' }] }],
      });
      assert.equal(forged.status, 403);

      await page.goto(`${h.ward.url}/console/users/${user.id}`);
      await idle(page);
      await page
        .locator('#user-consents-table tbody tr[data-key="newsletter"]')
        .filter({ hasText: 'Our monthly newsletter (newsletter)' })
        .filter({ hasText: 'Not granted' })
        .filter({ hasText: 'An administrator' })
        .waitFor();
      const history = page.locator('#consent-history-table tbody tr');
      assert.equal(await history.count(), 2);
      const rows = await history.evaluateAll((trs) =>
        trs.map((tr) => [...tr.querySelectorAll('td')].slice(1).map((td) => td.textContent)),
      );
      assert.deepEqual(rows, [
        ['Our monthly newsletter (newsletter)', 'Not granted', 'Version 2', 'en', 'An administrator'],
        ['Our monthly newsletter (newsletter)', 'Granted', 'Version 2', 'fr', 'The user'],
      ]);
      await shot(page, 'user-consents');
      assert.deepEqual(problems, [], 'no script or CSP error');
    } finally {
      await close();
    }
  });
});
