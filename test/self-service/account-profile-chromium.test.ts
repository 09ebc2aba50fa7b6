// "Your profile" on the hosted account page in headless Chromium, in German (the browser's language): a
// sign-in on the hosted login page, then the profile form filled by its labels (a date input, a text area,
// the address, a translated select, a checkbox), a mistake shown beside its field with what was typed
// kept, then saved. The page runs under Ward's CSP with no script or console error.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { launchChromium, type Chromium } from '../helpers/chromium.js';
import { startMfaWard, type MfaWard } from '../helpers/mfa.js';
import { signup } from '../helpers/oauth.js';
import { signedInTab, spaClient } from '../helpers/chromium-sign-in.js';

const GERMAN_LOGIN = { email: 'E-Mail', password: 'Passwort', signIn: 'Anmelden' };

describe('the profile form of the account page in Chromium', { timeout: 120_000 }, () => {
  let w: MfaWard;
  let chromium: Chromium;
  before(async () => {
    w = await startMfaWard({
      issuerHost: 'id.ward.test',
      clients: [spaClient('Laden')],
      account: {
        custom_fields: [
          { name: 'shoe_size', data_type: 'integer', name_translations: [{ lang_code: 'de', label: 'Schuhgröße' }] },
          {
            name: 'tier',
            data_type: 'select',
            values: ['silver', 'gold'],
            name_translations: [{ lang_code: 'de', label: 'Stufe' }],
            value_labels: [{ value: 'gold', label: 'Gold', translations: [{ lang_code: 'de', label: 'Golden' }] }],
          },
          { name: 'newsletter', data_type: 'checkbox', name_translations: [{ lang_code: 'de', label: 'Newsletter' }] },
        ],
      },
    });
    chromium = await launchChromium({ loopbackHosts: ['id.ward.test'] });
  });
  after(async () => {
    await chromium?.close();
    await w?.close();
  });

  it('fills the profile form by its German labels, shows a mistake beside its field, then saves', async () => {
    const user = await signup(w.ward, 'spa');
    const { page, problems } = await signedInTab(chromium, w.ward.issuer, 'de-DE,de;q=0.9', GERMAN_LOGIN, user, {
      state: 'st-profile',
    });

    await page.goto(`${w.ward.issuer}/identity/v1/account`);
    await page.getByRole('heading', { name: 'Ihr Profil' }).waitFor();
    assert.equal(await page.getByLabel('Vorname', { exact: true }).inputValue(), 'Ada');
    await page.getByLabel('Vollständiger Name', { exact: true }).fill('Augusta Ada King');
    await page.getByLabel('Geburtsdatum', { exact: true }).fill('1815-12-10');
    await page.getByLabel('Über Sie', { exact: true }).fill('Mathematikerin.\nGräfin.');
    await page.getByLabel('Straße und Hausnummer', { exact: true }).fill('12 St James Square');
    await page.getByLabel('Ort', { exact: true }).fill('London');
    await page.getByLabel('Stufe', { exact: true }).selectOption({ label: 'Golden' });
    await page.getByLabel('Newsletter: Ja', { exact: true }).check();
    await page.getByLabel('Schuhgröße', { exact: true }).fill('38');
    // A mistake: a birthdate in the future. The form comes back with the message beside the field.
    await page.getByLabel('Geburtsdatum', { exact: true }).fill('2999-01-01');
    await page.getByRole('button', { name: 'Profil speichern' }).click();
    await page.getByRole('alert').filter({ hasText: 'Einige Felder sind ungültig' }).waitFor();
    const birthdate = page.getByLabel('Geburtsdatum', { exact: true });
    assert.equal(await birthdate.getAttribute('aria-invalid'), 'true');
    assert.equal(await birthdate.inputValue(), '2999-01-01', 'what was typed is kept');
    assert.equal(await page.getByLabel('Vollständiger Name', { exact: true }).inputValue(), 'Augusta Ada King');
    assert.ok(await page.getByText('Ein Datum in der Vergangenheit, etwa 1990-12-31.').isVisible());

    await birthdate.fill('1815-12-10');
    await page.getByRole('button', { name: 'Profil speichern' }).click();
    await page.getByRole('status').filter({ hasText: 'Ihr Profil wurde gespeichert.' }).waitFor();
    assert.ok(page.url().endsWith('/identity/v1/account?notice=profile_saved'), page.url());
    assert.equal(await page.getByLabel('Über Sie', { exact: true }).inputValue(), 'Mathematikerin.\nGräfin.');
    assert.equal(await page.getByLabel('Stufe', { exact: true }).inputValue(), 'gold');
    assert.ok(await page.getByLabel('Newsletter: Ja', { exact: true }).isChecked());

    const id = (await w.ward.registry.storage.users.findByEmail(user.email))!.id;
    const p = (await w.ward.registry.storage.profiles.find(id))!;
    assert.equal(p.name, 'Augusta Ada King');
    assert.equal(p.birthdate, '1815-12-10');
    assert.deepEqual(p.addresses, [{ default: true, street_address: '12 St James Square', locality: 'London' }]);
    assert.deepEqual(p.custom_fields, { shoe_size: 38, tier: 'gold', newsletter: true });
    // The refused post's page came with its 400 (Chromium logs the status of a document it loads): no other problem.
    assert.deepEqual(
      problems.filter((p) => !p.includes('status of 400')),
      [],
    );
    assert.equal(problems.length, 1, problems.join('\n'));
    await page.close();
  });
});
