// The hosted signup page in headless Chromium, in French: from the login page's "Créer un compte"
// link, the strength meter that follows the password as it is typed (Ward's own strength endpoint,
// under the page's CSP), the form, and the sign-in that ends at the client's callback with a code.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { launchChromium, type Chromium } from '../helpers/chromium.js';
import { startMfaWard, type MfaWard } from '../helpers/mfa.js';
import { pkcePair } from '../helpers/oauth.js';

const CB = 'https://app.example/cb';

describe('the hosted signup page in Chromium', { timeout: 120_000 }, () => {
  let w: MfaWard;
  let chromium: Chromium;
  before(async () => {
    w = await startMfaWard({
      issuerHost: 'id.ward.test',
      clients: [{ client_id: 'spa', name: 'Boutique', type: 'public', allowed_callback_urls: [CB] }],
      account: {
        password_min_strength: 3,
        custom_fields: [{ name: 'newsletter', data_type: 'boolean', required: false, writable: 'user' }],
      },
    });
    chromium = await launchChromium({ loopbackHosts: ['id.ward.test'] });
  });
  after(async () => {
    await chromium?.close();
    await w?.close();
  });

  it('signs up in French with the strength shown as the user types, then reaches the callback', async () => {
    const page = await chromium.context.newPage();
    const problems: string[] = [];
    // The refused form's page is a 400 document: Chromium logs its load; any other error is a problem.
    page.on('console', (m) => {
      if (m.type() === 'error' && !/status of 400/.test(m.text())) problems.push(m.text());
    });
    page.on('pageerror', (e) => problems.push(e.message));
    await page.goto(
      `${w.ward.issuer}/oauth/authorize?${new URLSearchParams({
        client_id: 'spa',
        response_type: 'code',
        redirect_uri: CB,
        scope: 'openid email',
        state: 'st-signup',
        code_challenge: pkcePair().challenge,
        code_challenge_method: 'S256',
        ui_locales: 'fr',
      })}`,
    );
    await page.getByRole('link', { name: 'Créer un compte' }).click();
    await page.getByRole('heading', { name: 'Créez votre compte pour Boutique' }).waitFor();
    assert.equal(await page.locator('html').getAttribute('lang'), 'fr');

    const strength = page.locator('#strength-text');
    await page.getByLabel('Mot de passe', { exact: true }).fill('password1');
    await page.waitForFunction(() => document.getElementById('strength-text')?.textContent === 'Très faible');
    assert.equal(await page.locator('#strength').evaluate((m) => (m as HTMLMeterElement).value), 0);
    await page.getByLabel('Mot de passe', { exact: true }).fill('velvet orbit lantern quietly 42');
    await page.waitForFunction(() => document.getElementById('strength-text')?.textContent === 'Fort');
    assert.equal(await strength.textContent(), 'Fort');

    // A password the policy refuses comes back with the error, the email kept.
    await page.getByLabel('E-mail').fill('chromium-signup@example.com');
    await page.getByLabel('Mot de passe', { exact: true }).fill('password1');
    await page.getByRole('button', { name: 'Créer mon compte' }).click();
    await page.getByRole('alert').waitFor();
    assert.equal(
      await page.getByRole('alert').textContent(),
      'Le mot de passe ne respecte pas la politique de mots de passe.',
    );
    assert.equal(await page.getByLabel('E-mail').inputValue(), 'chromium-signup@example.com');

    await page.getByLabel('Mot de passe', { exact: true }).fill('velvet orbit lantern quietly 42');
    await page.getByLabel('Prénom (facultatif)').fill('Camille');
    await page.getByLabel('newsletter: Oui').check();
    const [request] = await Promise.all([
      page.waitForRequest((r) => r.url().startsWith(CB)),
      page.getByRole('button', { name: 'Créer mon compte' }).click(),
    ]);
    const back = new URL(request.url());
    assert.equal(back.searchParams.get('state'), 'st-signup');
    assert.ok(back.searchParams.get('code'));
    const user = await w.ward.registry.storage.users.findByEmail('chromium-signup@example.com');
    assert.equal(user?.given_name, 'Camille');
    assert.deepEqual(problems, []);
    await page.close();
  });
});
