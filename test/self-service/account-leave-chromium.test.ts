// "Download my data" and "Delete my account" on the hosted account page in headless Chromium, in
// English and in French (the browser's language): a sign-in on the hosted login page, the download of
// the JSON file, then the deletion (the password, the confirmation box) and the page that follows; the
// account is gone and the notice arrives at the real SMTP sink in the user's language. The pages run
// under Ward's CSP with no script or console error.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { after, before, describe, it } from 'node:test';
import { launchChromium, type Chromium } from '../helpers/chromium.js';
import { startMfaWard, type MfaWard } from '../helpers/mfa.js';
import { signup } from '../helpers/oauth.js';
import { signedInTab, spaClient } from '../helpers/chromium-sign-in.js';

const WORDS = {
  en: {
    acceptLanguage: 'en-GB,en;q=0.9',
    email: 'Email',
    password: 'Password',
    signIn: 'Sign in',
    title: 'Your account',
    download: 'Download my data',
    deletePassword: 'Your password',
    confirm: 'I understand: delete my account and all its data',
    button: 'Delete my account',
    deleted: 'Your account was deleted',
    subject: /account was deleted/,
  },
  fr: {
    acceptLanguage: 'fr-FR,fr;q=0.9',
    email: 'E-mail',
    password: 'Mot de passe',
    signIn: 'Me connecter',
    title: 'Votre compte',
    download: 'Télécharger mes données',
    deletePassword: 'Votre mot de passe',
    confirm: 'Je comprends : supprimer mon compte et toutes ses données',
    button: 'Supprimer mon compte',
    deleted: 'Votre compte a été supprimé',
    subject: /compte .* a été supprimé/,
  },
};

describe('a user leaves from the account page in Chromium', { timeout: 180_000 }, () => {
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

  for (const [language, t] of Object.entries(WORDS)) {
    it(`downloads the data, then deletes the account, in ${language === 'en' ? 'English' : 'French'}`, async () => {
      const user = await signup(w.ward, 'spa', { locale: language });
      const { page, problems } = await signedInTab(chromium, w.ward.issuer, t.acceptLanguage, t, user, {
        state: `st-leave-${language}`,
      });

      await page.goto(`${w.ward.issuer}/identity/v1/account`);
      await page.getByRole('heading', { name: t.title, exact: true }).waitFor();
      assert.equal(await page.locator('html').getAttribute('lang'), language);

      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('link', { name: t.download }).click(),
      ]);
      assert.match(download.suggestedFilename(), /^my-data-\d{4}-\d{2}-\d{2}\.json$/);
      const data = JSON.parse(await readFile((await download.path())!, 'utf8'));
      assert.equal(data.user.id, user.id);
      assert.equal(data.user.email, user.email);

      await page.getByLabel(t.deletePassword, { exact: true }).fill(user.password);
      await page.getByLabel(t.confirm).check();
      await page.getByRole('button', { name: t.button, exact: true }).click();
      await page.getByRole('heading', { name: t.deleted }).waitFor();
      assert.equal(await w.ward.registry.storage.users.findById(user.id), undefined);
      assert.match((await w.smtp.next(user.email)).subject, t.subject);
      assert.deepEqual(problems, []);
      await page.close();
    });
  }
});
