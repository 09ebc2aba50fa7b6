// The hosted account page in headless Chromium, in French (the browser's language): a sign-in on the
// hosted login page, then a change of email address on /identity/v1/account, confirmed by the link
// the real SMTP sink received, opened in the same browser (the app's callback is answered by the
// test). The pages run under Ward's CSP with no script or console error.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { launchChromium, type Chromium } from '../helpers/chromium.js';
import { startMfaWard, type MfaWard } from '../helpers/mfa.js';
import { signup } from '../helpers/oauth.js';
import { signedInTab, spaClient } from '../helpers/chromium-sign-in.js';

const FRENCH_LOGIN = { email: 'E-mail', password: 'Mot de passe', signIn: 'Me connecter' };

describe('the hosted account page in Chromium', { timeout: 120_000 }, () => {
  let w: MfaWard;
  let chromium: Chromium;
  before(async () => {
    w = await startMfaWard({
      issuerHost: 'id.ward.test',
      clients: [spaClient('Boutique')],
    });
    chromium = await launchChromium({ loopbackHosts: ['id.ward.test'] });
  });
  after(async () => {
    await chromium?.close();
    await w?.close();
  });

  it('signs in, then changes the email address from the account page, in French', async () => {
    const user = await signup(w.ward, 'spa');
    const { page, problems } = await signedInTab(chromium, w.ward.issuer, 'fr-FR,fr;q=0.9', FRENCH_LOGIN, user, {
      state: 'st-account',
    });

    await page.goto(`${w.ward.issuer}/identity/v1/account?client_id=spa`);
    await page.getByRole('heading', { name: 'Votre compte' }).waitFor();
    assert.equal(await page.locator('html').getAttribute('lang'), 'fr');
    assert.equal(
      await page.getByRole('link', { name: 'Retour à Boutique' }).getAttribute('href'),
      'https://app.example/',
    );
    const next = `nouvelle-${Date.now()}@example.com`;
    await page.getByLabel('Nouvelle adresse e-mail').fill(next);
    await page.getByRole('button', { name: 'M’envoyer un lien de confirmation' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: `Nous avons envoyé un lien à ${next}` })
      .waitFor();
    assert.ok(page.url().endsWith('/identity/v1/account?notice=email_sent&client_id=spa'), page.url());
    assert.ok(await page.getByText(`${user.email} (non confirmé)`).isVisible(), 'unchanged until confirmed');

    const link = /https:\/\/\S+verify-email\/link\S+/.exec((await w.smtp.next(next)).text)![0];
    assert.ok(link.startsWith(w.ward.issuer));
    await page.goto(link);
    // The link's page confirms nothing by itself (a mail scanner opens links): its button does.
    await page.getByRole('button', { name: 'Confirmer mon adresse' }).click();
    await page.getByRole('heading', { name: 'Adresse e-mail confirmée' }).waitFor();
    await page.goto(`${w.ward.issuer}/identity/v1/account`);
    await page.getByText(`${next} (confirmé)`).waitFor();
    assert.match((await w.smtp.next(user.email)).subject, /email address of your .* account was changed/);
    assert.deepEqual(problems, []);
    await page.close();
  });
});
