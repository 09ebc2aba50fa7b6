// Consents to accept again at sign-in in headless Chromium, in English and French (the browser's
// language): a user who agreed to version 1 signs in on the hosted login page after version 2 was
// published with `require_reconsent`, sees the new title and description, is stopped by Continue with
// the required box unchecked (the page says why), checks it, continues and the app's callback gets a
// code that redeems; the new version is recorded in the page's language, the unchecked optional one as
// declined. No script or console error under Ward's CSP.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { launchChromium, type Chromium } from '../helpers/chromium.js';
import { APP_CALLBACK as CB, codeAtCallback, passwordSignIn, watchedTab } from '../helpers/chromium-sign-in.js';
import { redeem, signup } from '../helpers/oauth.js';
import { startWard, type TestWard } from '../helpers/ward.js';

const v1 = (title: string) => ({ version_id: 1, texts: [{ language: 'en', title }] });
const V1 = [
  { key: 'terms', consent_type: 'opt-in', required: true, versions: [v1('Terms v1')] },
  { key: 'newsletter', consent_type: 'opt-in', versions: [v1('Newsletter v1')] },
];
const V2 = [
  {
    ...V1[0],
    versions: [
      v1('Terms v1'),
      {
        version_id: 2,
        require_reconsent: true,
        texts: [
          { language: 'en', title: 'Terms of use, 2025', description: 'We now keep your orders for ten years.' },
          { language: 'fr', title: 'Conditions générales 2025', description: 'Nous gardons vos commandes dix ans.' },
        ],
      },
    ],
  },
  {
    ...V1[1],
    versions: [
      v1('Newsletter v1'),
      {
        version_id: 2,
        require_reconsent: true,
        texts: [
          { language: 'en', title: 'Weekly newsletter', description: 'Every Monday.' },
          { language: 'fr', title: 'Lettre hebdomadaire', description: 'Chaque lundi.' },
        ],
      },
    ],
  },
];

const WORDS = {
  en: {
    accept: 'en-GB,en;q=0.9',
    email: 'Email',
    password: 'Password',
    signIn: 'Sign in',
    heading: 'Before you continue to Boutique',
    terms: 'Terms of use, 2025 (required)',
    termsText: 'We now keep your orders for ten years.',
    news: 'Weekly newsletter (optional)',
    cont: 'Continue',
    stopped: /cannot be completed without your agreement to: Terms of use, 2025/,
  },
  fr: {
    accept: 'fr-FR,fr;q=0.9',
    email: 'E-mail',
    password: 'Mot de passe',
    signIn: 'Me connecter',
    heading: 'Avant de continuer vers Boutique',
    terms: 'Conditions générales 2025 (obligatoire)',
    termsText: 'Nous gardons vos commandes dix ans.',
    news: 'Lettre hebdomadaire (facultatif)',
    cont: 'Continuer',
    stopped: /ne peut pas aboutir sans votre accord pour : Conditions générales 2025/,
  },
} as const;

describe('consents to accept again in Chromium', { timeout: 180_000 }, () => {
  let ward: TestWard;
  let chromium: Chromium;
  before(async () => {
    ward = await startWard({
      issuerHost: 'id.ward.test',
      clients: [{ client_id: 'spa', name: 'Boutique', type: 'public', allowed_callback_urls: [CB], sso: true }],
      account: { rate_limits: { signup: { limit: null }, login: { limit: null } } },
    });
    chromium = await launchChromium({ loopbackHosts: ['id.ward.test'] });
  });
  after(async () => {
    await chromium?.close();
    await ward?.close();
  });

  for (const [language, t] of Object.entries(WORDS)) {
    it(`shows the updated consents after the password, stops without the required one, then signs in (${language})`, async () => {
      ward.setAccount({ consents: V1 });
      const user = await signup(ward, 'spa', { consents: { terms: { granted: true }, newsletter: { granted: true } } });
      ward.setAccount({ consents: V2 });
      await chromium.context.clearCookies();
      const problems: string[] = [];
      const page = await watchedTab(chromium, t.accept, problems);
      const verifier = await passwordSignIn(page, ward.issuer, t, user);

      await page.getByRole('heading', { name: t.heading }).waitFor();
      assert.equal(await page.locator('html').getAttribute('lang'), language);
      assert.ok(await page.getByText(t.termsText, { exact: true }).isVisible());
      const terms = page.getByLabel(t.terms, { exact: true });
      const news = page.getByLabel(t.news, { exact: true });
      assert.equal(await terms.isChecked(), false);
      assert.equal(await news.isChecked(), false);

      await page.getByRole('button', { name: t.cont, exact: true }).click();
      await page.getByRole('alert').waitFor();
      assert.match((await page.getByRole('alert').textContent()) ?? '', t.stopped);
      assert.equal(
        (await ward.registry.storage.userConsents.ofUser(user.id)).find((c) => c.key === 'terms')?.version_id,
        1,
      );

      await page.getByLabel(t.terms, { exact: true }).check();
      await page.getByRole('button', { name: t.cont, exact: true }).click();
      const { res, body } = await redeem(ward, await codeAtCallback(page), verifier, 'spa', CB);
      assert.equal(res.status, 200, JSON.stringify(body));

      const stored = await ward.registry.storage.userConsents.ofUser(user.id);
      assert.deepEqual(
        stored.map((c) => [c.key, c.version_id, c.granted, c.language, c.reporter]),
        [
          ['newsletter', 2, false, language, 'end_user'],
          ['terms', 2, true, language, 'end_user'],
        ],
      );
      // The refusal page's own 403 is the only console line: no script or CSP error.
      assert.deepEqual(
        problems.filter((p) => !p.includes('status of 403')),
        [],
      );
      assert.equal(problems.length, 1, problems.join(' | '));
      await page.close();
    });
  }
});
