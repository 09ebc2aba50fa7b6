// The hosted self-service pages in headless Chromium: from the login page's "Forgot your password?"
// link, the forgot form, the emailed link (read from the real SMTP sink) opened in the browser, the
// reset form in French (the browser's language), and a sign-in with the new password on the login page.
// The pages run under Ward's CSP with no script error.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { launchChromium, type Chromium } from '../helpers/chromium.js';
import { startMfaWard, type MfaWard } from '../helpers/mfa.js';
import { pkcePair, signup } from '../helpers/oauth.js';

const CB = 'https://app.example/cb';

describe('hosted self-service pages in Chromium', { timeout: 120_000 }, () => {
  let w: MfaWard;
  let chromium: Chromium;
  before(async () => {
    w = await startMfaWard({
      issuerHost: 'id.ward.test',
      clients: [{ client_id: 'spa', type: 'public', allowed_callback_urls: [CB] }],
    });
    chromium = await launchChromium({ loopbackHosts: ['id.ward.test'] });
  });
  after(async () => {
    await chromium?.close();
    await w?.close();
  });

  it('forgot password, the emailed link, the reset form, then a sign-in with the new password', async () => {
    const user = await signup(w.ward, 'spa');
    const page = await chromium.context.newPage();
    const problems: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(m.text());
    });
    page.on('pageerror', (e) => problems.push(e.message));
    const authorize = () =>
      `${w.ward.issuer}/oauth/authorize?${new URLSearchParams({
        client_id: 'spa',
        response_type: 'code',
        redirect_uri: CB,
        scope: 'openid email',
        state: 'st-reset',
        code_challenge: pkcePair().challenge,
        code_challenge_method: 'S256',
        ui_locales: 'fr',
      })}`;
    await page.goto(authorize());
    await page.getByRole('link', { name: 'Mot de passe oublié ?' }).click();
    // The forgot page follows the sign-in's ui_locales.
    await page.getByLabel('E-mail').fill(user.email);
    await page.getByRole('button', { name: 'M’envoyer un lien' }).click();
    await page.getByRole('heading', { name: 'Consultez vos e-mails' }).waitFor();

    const link = /https:\/\/\S+password\/reset\S+/.exec((await w.smtp.next(user.email)).text)![0];
    assert.ok(link.startsWith(w.ward.issuer));
    await page.setExtraHTTPHeaders({ 'accept-language': 'fr-FR,fr;q=0.9' });
    await page.goto(link);
    await page.getByRole('heading', { name: 'Choisissez un nouveau mot de passe' }).waitFor();
    assert.equal(await page.locator('html').getAttribute('lang'), 'fr');
    await page.getByLabel('Nouveau mot de passe', { exact: true }).fill('a brand new passphrase');
    // The strength as the user types, in the page's language (Ward's strength endpoint, for the reset's client).
    await page.waitForFunction(() =>
      ['Très faible', 'Faible', 'Moyen', 'Bon', 'Fort'].includes(
        document.getElementById('strength-text')?.textContent ?? '',
      ),
    );
    await page.getByLabel('Confirmez le nouveau mot de passe').fill('a brand new passphrase');
    await page.getByRole('button', { name: 'Changer mon mot de passe' }).click();
    await page.getByRole('heading', { name: 'Votre mot de passe a été modifié' }).waitFor();
    assert.match((await w.smtp.next(user.email)).subject, /password was changed/);

    await page.goto(authorize());
    await page.getByLabel('E-mail', { exact: true }).first().fill(user.email);
    await page.getByLabel('Mot de passe', { exact: true }).fill('a brand new passphrase');
    const [request] = await Promise.all([
      page.waitForRequest((r) => r.url().startsWith(CB)),
      page.getByRole('button', { name: 'Me connecter', exact: true }).click(),
    ]);
    const back = new URL(request.url());
    assert.equal(back.searchParams.get('state'), 'st-reset');
    assert.ok(back.searchParams.get('code'));
    assert.deepEqual(problems, []);
    await page.close();
  });
});
