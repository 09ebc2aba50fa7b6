// Authenticator apps in headless Chromium, in English and in French (the browser's language): the app
// set up on the hosted account page by reading the otpauth:// URI printed beside the QR code, its codes
// computed by the independent `otpauth` library; then signed out, signed in again with the password and
// a code of the app, and a replayed code refused. And `mfa_enrollment: required`: the enrolment page
// shown after the password, "Later" counting down, then the app set up there. No script or console
// error under Ward's CSP.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import * as OTPAuth from 'otpauth';
import type { Page } from 'playwright-core';
import { launchChromium, type Chromium } from '../helpers/chromium.js';
import { startMfaWard, type MfaWard } from '../helpers/mfa.js';
import { signup } from '../helpers/oauth.js';
import {
  APP_CALLBACK as CB,
  codeAtCallback,
  passwordSignIn as signInOnPage,
  watchedTab,
} from '../helpers/chromium-sign-in.js';

const WORDS = {
  en: {
    email: 'Email',
    password: 'Password',
    signIn: 'Sign in',
    setUp: 'Set up an authenticator app',
    appCode: 'Code of your authenticator app',
    turnOn: 'Turn on',
    codeLabel: 'Verification code',
    verify: 'Verify',
    wrong: 'The code is wrong or has expired',
    signedOut: 'You are signed out',
    enrolHeading: 'Protect your account with a second factor',
    enrolCode: 'The code your app shows',
    enable: 'Turn on and continue',
    later: 'Later',
    cont: 'Continue',
  },
  fr: {
    email: 'E-mail',
    password: 'Mot de passe',
    signIn: 'Me connecter',
    setUp: "Configurer une application d'authentification",
    appCode: "Code de votre application d'authentification",
    turnOn: 'Activer',
    codeLabel: 'Code de vérification',
    verify: 'Vérifier',
    wrong: 'Le code est incorrect ou a expiré',
    signedOut: 'Vous êtes déconnecté',
    enrolHeading: 'Protégez votre compte avec un second facteur',
    enrolCode: 'Le code affiché par votre application',
    enable: 'Activer et continuer',
    later: 'Plus tard',
    cont: 'Continuer',
  },
} as const;

describe('authenticator apps in Chromium', { timeout: 180_000 }, () => {
  let w: MfaWard;
  let chromium: Chromium;
  before(async () => {
    w = await startMfaWard({
      issuerHost: 'id.ward.test',
      clients: [
        {
          client_id: 'spa',
          name: 'Boutique',
          type: 'public',
          allowed_callback_urls: [CB],
          allowed_origins: ['https://app.example'],
        },
      ],
      account: { mfa_required: 'always' },
    });
    chromium = await launchChromium({ loopbackHosts: ['id.ward.test'] });
  });
  after(async () => {
    await chromium?.close();
    await w?.close();
  });

  async function openPage(lang: 'en' | 'fr') {
    const problems: string[] = [];
    const page = await watchedTab(chromium, lang === 'fr' ? 'fr-FR,fr;q=0.9' : 'en-GB,en;q=0.9', problems);
    return { page, problems };
  }

  const passwordSignIn = (page: Page, lang: 'en' | 'fr', user: { email: string; password: string }) =>
    signInOnPage(page, w.ward.issuer, WORDS[lang], user, { state: `st-${lang}` });

  const signedIn = codeAtCallback;

  /** The code the otpauth library computes from the URI the page shows (`selector`), at Ward's time. */
  const codeFrom = async (page: Page, selector: string) => {
    const uri = (await page.locator(selector).textContent())!.trim();
    assert.match(uri, /^otpauth:\/\/totp\/.+secret=/);
    const totp = OTPAuth.URI.parse(uri);
    assert.ok(totp instanceof OTPAuth.TOTP);
    assert.equal(totp.algorithm, 'SHA1');
    assert.equal(totp.digits, 6);
    assert.equal(totp.period, 30);
    return (ms = w.ward.clock.now()) => totp.generate({ timestamp: ms });
  };

  for (const lang of ['en', 'fr'] as const) {
    it(`sets the app up on the account page, then signs in with its code; a replay is refused (${lang})`, async () => {
      const t = WORDS[lang];
      const user = await signup(w.ward, 'spa');
      const { page, problems } = await openPage(lang);
      await passwordSignIn(page, lang, user);
      await signedIn(page);

      await page.goto(`${w.ward.issuer}/identity/v1/account?client_id=spa`);
      await page.getByRole('button', { name: t.setUp }).click();
      await page.locator('#app-qr svg').waitFor();
      const code = await codeFrom(page, '#app-uri');
      await page.getByLabel(t.appCode).fill(code());
      await page.getByRole('button', { name: t.turnOn, exact: true }).click();
      await page.locator('#recovery-codes li').first().waitFor();
      assert.equal(await page.locator('#recovery-codes li').count(), 10);

      // Signed out: the next sign-in asks the app's code after the password.
      const signOut = async () => {
        await page.goto(`${w.ward.issuer}/identity/v1/logout`);
        await page.getByRole('heading', { name: t.signedOut }).waitFor();
        const cookies = await chromium.context.cookies(w.ward.issuer);
        assert.ok(!cookies.some((c) => c.name === '__Host-ward_sso' && c.value), 'no session cookie left');
      };
      await signOut();
      w.ward.clock.advance(30_000);
      await passwordSignIn(page, lang, user);
      const used = code();
      await page.getByLabel(t.codeLabel).fill(used);
      await page.getByRole('button', { name: t.verify, exact: true }).click();
      await signedIn(page);

      // The same code again, in another sign-in of the same time step: refused.
      await signOut();
      await passwordSignIn(page, lang, user);
      await page.getByLabel(t.codeLabel).fill(used);
      await page.getByRole('button', { name: t.verify, exact: true }).click();
      await page.getByRole('alert').filter({ hasText: t.wrong }).waitFor();
      assert.ok(!page.url().startsWith(CB));
      // The refused code's page answers 401, which Chromium logs; nothing else may be there.
      assert.deepEqual(
        problems.filter((p) => !p.includes('status of 401')),
        [],
      );
      await page.close();
    });
  }

  it('asks for an app at sign-in under mfa_enrollment: required, Later counting down (fr)', async () => {
    const t = WORDS.fr;
    const user = await signup(w.ward, 'spa');
    w.ward.setAccount({ mfa_enrollment: 'required', mfa_enrollment_grace_skips: 1 });
    try {
      const { page, problems } = await openPage('fr');
      await passwordSignIn(page, 'fr', user);
      await page.getByRole('heading', { name: t.enrolHeading }).waitFor();
      await page.getByText('Vous pouvez encore remettre cela à plus tard une fois.').waitFor();
      await page.getByRole('button', { name: t.later, exact: true }).click();
      await signedIn(page);

      await passwordSignIn(page, 'fr', user);
      await page.getByRole('heading', { name: t.enrolHeading }).waitFor();
      assert.equal(await page.getByRole('button', { name: t.later, exact: true }).count(), 0, 'no skip left');
      await page.locator('#enrol-qr svg').waitFor();
      const code = await codeFrom(page, '#enrol-uri');
      await page.getByLabel(t.enrolCode).fill(code());
      await page.getByRole('button', { name: t.enable, exact: true }).click();
      await page.locator('#recovery-codes li').first().waitFor();
      assert.equal(await page.locator('#recovery-codes li').count(), 10);
      await page.getByRole('button', { name: t.cont, exact: true }).click();
      await signedIn(page);
      assert.deepEqual(problems, []);
      await page.close();
    } finally {
      w.ward.setAccount({ mfa_enrollment: 'optional' });
    }
  });
});
