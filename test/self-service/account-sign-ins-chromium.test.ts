// "Where you're signed in" on the hosted account page in headless Chromium, in English and in French
// (the browser's language): the user signs in in two browsers (two Chromium profiles), the first sees
// both sessions, this one marked, and signs the other out with its button; the other browser is then
// signed out and the refresh token it was given is refused. The pages run under Ward's CSP with no
// script or console error.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { launchChromium, type Chromium } from '../helpers/chromium.js';
import { startMfaWard, type MfaWard } from '../helpers/mfa.js';
import { redeem, signup, tokenRequest } from '../helpers/oauth.js';
import { APP_CALLBACK as CB, codeAtCallback, passwordSignIn, watchedTab } from '../helpers/chromium-sign-in.js';

const WORDS = {
  en: {
    acceptLanguage: 'en-GB,en;q=0.9',
    email: 'Email',
    password: 'Password',
    signIn: 'Sign in',
    heading: 'Where you’re signed in',
    thisDevice: '(This device)',
    signOut: /^Sign out /,
    ended: 'That session was signed out.',
    alone: 'You are signed in on this device only.',
    signedOut: 'You are not signed in',
    events: 'Recent security events',
  },
  fr: {
    acceptLanguage: 'fr-FR,fr;q=0.9',
    email: 'E-mail',
    password: 'Mot de passe',
    signIn: 'Me connecter',
    heading: 'Où vous êtes connecté',
    thisDevice: '(Cet appareil)',
    signOut: /^Déconnecter /,
    ended: 'Cette session a été déconnectée.',
    alone: 'Vous n’êtes connecté que sur cet appareil.',
    signedOut: 'Vous n’êtes pas connecté',
    events: 'Événements de sécurité récents',
  },
};

describe("the account page's sign-ins in Chromium", { timeout: 180_000 }, () => {
  let w: MfaWard;
  let first: Chromium;
  let second: Chromium;
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
    });
    first = await launchChromium({ loopbackHosts: ['id.ward.test'] });
    second = await launchChromium({ loopbackHosts: ['id.ward.test'] });
  });
  after(async () => {
    await first?.close();
    await second?.close();
    await w?.close();
  });

  /** Signs in on the hosted login page; returns the refresh token of the code the app received. */
  async function signIn(page: Page, t: (typeof WORDS)['en'], user: { email: string; password: string }) {
    const verifier = await passwordSignIn(page, w.ward.issuer, t, user, {
      scope: 'openid email offline_access',
      state: 'st-sessions',
    });
    const { body } = await redeem(w.ward, await codeAtCallback(page), verifier);
    assert.ok(body.refresh_token, JSON.stringify(body));
    return body.refresh_token as string;
  }

  const open = (c: Chromium, t: (typeof WORDS)['en'], problems: string[]) => watchedTab(c, t.acceptLanguage, problems);

  for (const [language, t] of Object.entries(WORDS)) {
    it(`signs the other browser out, in ${language === 'en' ? 'English' : 'French'}`, async () => {
      const user = await signup(w.ward, 'spa', { locale: language });
      const problems: string[] = [];
      const here = await open(first, t, problems);
      const there = await open(second, t, problems);
      await signIn(here, t, user);
      const theirs = await signIn(there, t, user);

      await here.goto(`${w.ward.issuer}/identity/v1/account`);
      const section = here.getByRole('region', { name: t.heading });
      await section.waitFor();
      assert.equal(await section.locator('#sessions > li').count(), 2);
      assert.equal(await section.locator('li[data-session="current"]').getByText(t.thisDevice).count(), 1);
      await section.getByRole('heading', { name: t.events }).waitFor();

      const other = section.locator('li[data-session="other"]').getByRole('button');
      assert.match((await other.getAttribute('aria-label')) ?? '', t.signOut);
      await other.click();
      await here.getByText(t.ended).waitFor();
      assert.equal(await here.locator('#sessions > li').count(), 1);
      await here.getByText(t.alone).waitFor();

      const refused = await tokenRequest(w.ward, {
        grant_type: 'refresh_token',
        refresh_token: theirs,
        client_id: 'spa',
      });
      assert.equal(refused.status, 400, "the other browser's refresh token is refused");
      assert.deepEqual(problems, []);
      // The signed-out page answers 401 (the one console error Chromium reports here).
      const signedOut = await there.goto(`${w.ward.issuer}/identity/v1/account`);
      assert.equal(signedOut?.status(), 401);
      await there.getByRole('heading', { name: t.signedOut }).waitFor();
      await here.close();
      await there.close();
      // Each language starts signed out in both browsers.
      await first.context.clearCookies();
      await second.context.clearCookies();
    });
  }
});
