// Captcha on the hosted forms, on both engines, against the local siteverify simulator: with
// `hosted_pages` among the account's captcha places and a site key set, the login, signup, passwordless
// and forgot-password forms draw the provider's widget (its element, its script, the CSP sources it
// needs) and their posts are refused without a good token in the provider's form field (the page again,
// with the message in the page's language; nothing signed in, created or sent), and pass with one.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Browser } from '../helpers/browser.js';
import { startCaptchaSim, type CaptchaSim } from '../helpers/captcha-sim.js';
import { engines } from '../helpers/databases.js';
import { startMfaWard, type MfaWard } from '../helpers/mfa.js';
import { PUBLIC_CLIENT, authorizeUrl, pkcePair, signup } from '../helpers/oauth.js';

const hidden = (html: string, name: string) => new RegExp(`name="${name}" value="([^"]*)"`).exec(html)?.[1] ?? '';
const decode = (s: string) => s.replace(/&amp;/g, '&');

for (const engine of engines()) {
  describe(`captcha on the hosted forms (${engine})`, () => {
    let m: MfaWard;
    let sim: CaptchaSim;
    let n = 0;
    before(async () => {
      sim = await startCaptchaSim();
      m = await startMfaWard({
        engine,
        clients: [PUBLIC_CLIENT],
        env: { WARD_CAPTCHA_SECRET: sim.secret },
        account: {
          passwordless: { magic_link: true },
          rate_limits: { login: { limit: null }, signup: { limit: null } },
          captcha: { provider: 'recaptcha', site_key: 'site-key-1', verify_url: sim.url, script_url: sim.scriptUrl },
        },
      });
    });
    after(async () => {
      await m.close();
      await sim.close();
    });

    /** A user signed up through the Core SDK's call (with its captcha). */
    const newUser = () => signup(m.ward, 'spa', {}, { captcha_token: sim.issue() });
    const email = () => `hosted-captcha-${++n}-${engine}@example.com`;

    /** The login page of a new authorization request, in a new browser. */
    async function loginPage(query: Record<string, string> = {}) {
      const browser = new Browser(m.ward);
      const pkce = pkcePair();
      const res = await browser.get(
        authorizeUrl({
          client_id: 'spa',
          response_type: 'code',
          redirect_uri: 'https://app.example/cb',
          scope: 'openid email',
          code_challenge: pkce.challenge,
          code_challenge_method: 'S256',
          ...query,
        }),
      );
      assert.equal(res.status, 200);
      return { browser, res, html: await res.text() };
    }
    const form = (html: string) => ({ interaction: hidden(html, 'interaction'), csrf: hidden(html, 'csrf') });

    it('the login page draws the widget in its forms and lets only its script in', async () => {
      const { res, html } = await loginPage();
      assert.match(html, /<div class="g-recaptcha captcha" data-sitekey="site-key-1"><\/div>\n<button type="submit">/);
      assert.equal(html.match(/class="g-recaptcha captcha"/g)?.length, 2, 'the password form and the magic-link form');
      assert.match(html, new RegExp(`<script src="${sim.scriptUrl}" async defer></script>`));
      const csp = res.headers.get('content-security-policy')!;
      const origin = `${new URL(sim.scriptUrl).origin}/`;
      assert.ok(csp.includes(`frame-src ${origin};`), csp);
      assert.match(csp, new RegExp(`script-src [^;]*${origin.replaceAll('.', '\\.')}`));
      assert.match(csp, /default-src 'none'/);
    });

    it('the password form is refused without a good token, then signs in with one', async () => {
      const user = await newUser();
      const { browser, html } = await loginPage();
      const post = (extra: Record<string, string>) =>
        browser.postForm('/oauth/authorize/login', {
          ...form(html),
          email: user.email,
          password: user.password,
          ...extra,
        });
      const missing = await post({});
      assert.equal(missing.status, 400);
      const page = await missing.text();
      assert.match(page, /Complete the captcha to go on/);
      assert.match(page, /class="g-recaptcha captcha"/, 'the widget is drawn again');
      const forged = await post({ 'g-recaptcha-response': 'forged' });
      assert.equal(forged.status, 400);
      assert.match(await forged.text(), /The captcha could not be verified/);
      const good = await post({ 'g-recaptcha-response': sim.issue() });
      assert.equal(good.status, 303);
      assert.match(good.headers.get('location')!, /^https:\/\/app\.example\/cb\?code=/);
    });

    it('the refusal reads in the page language', async () => {
      const user = await newUser();
      const { browser, html } = await loginPage({ ui_locales: 'fr' });
      const res = await browser.postForm('/oauth/authorize/login', {
        ...form(html),
        email: user.email,
        password: user.password,
      });
      assert.equal(res.status, 400);
      assert.match(await res.text(), /Complétez le captcha pour continuer/);
    });

    it('the signup form creates nothing without a token, and the account with one', async () => {
      const { browser, html } = await loginPage();
      const href = /href="(\/oauth\/authorize\/signup\?interaction=[^"]+)"/.exec(html)![1]!;
      const signupHtml = await (await browser.get(decode(href))).text();
      assert.match(signupHtml, /class="g-recaptcha captcha" data-sitekey="site-key-1"/);
      const address = email();
      const fields = { ...form(signupHtml), email: address, password: 'a long and unusual passphrase' };
      const refused = await browser.postForm('/oauth/authorize/signup', fields);
      assert.equal(refused.status, 400);
      assert.match(await refused.text(), /Complete the captcha/);
      assert.equal(await m.ward.registry.storage.users.findByEmail(address), undefined);
      const created = await browser.postForm('/oauth/authorize/signup', {
        ...fields,
        'g-recaptcha-response': sim.issue(),
      });
      assert.equal(created.status, 303);
      assert.ok(await m.ward.registry.storage.users.findByEmail(address));
    });

    it('the passwordless form sends no code without a token: back to the login page, which says why', async () => {
      const user = await newUser();
      const { browser, html } = await loginPage();
      const fields = { ...form(html), auth_type: 'magic_link', email: user.email };
      const refused = await browser.postForm('/oauth/authorize/passwordless', fields);
      assert.equal(refused.status, 303);
      const back = refused.headers.get('location')!;
      assert.match(back, /^\/oauth\/authorize\/login\?interaction=[^&]+&captcha=missing$/);
      const shown = await browser.get(back);
      assert.equal(shown.status, 400);
      assert.match(await shown.text(), /Complete the captcha to go on/);
      const sent = await browser.postForm('/oauth/authorize/passwordless', {
        ...fields,
        'g-recaptcha-response': sim.issue(),
      });
      assert.equal(sent.status, 200);
      assert.match((await m.smtp.next(user.email)).text, /\d{6}/);
    });

    it('the forgot-password form sends nothing without a token, and the message with one', async () => {
      const user = await newUser();
      const browser = new Browser(m.ward);
      const page = await browser.get('/identity/v1/password/forgot?client_id=spa');
      const pageHtml = await page.text();
      assert.match(pageHtml, /class="g-recaptcha captcha" data-sitekey="site-key-1"/);
      const fields = { client_id: 'spa', email: user.email };
      const refused = await browser.postForm('/identity/v1/password/forgot', fields);
      assert.equal(refused.status, 400);
      assert.match(await refused.text(), /Complete the captcha/);
      const sent = await browser.postForm('/identity/v1/password/forgot', {
        ...fields,
        'g-recaptcha-response': sim.issue(),
      });
      assert.equal(sent.status, 200);
      assert.match((await m.smtp.next(user.email)).subject, /password/i);
    });

    it('without hosted_pages in its places, the hosted forms draw and ask nothing (the SDK still does)', async () => {
      const captcha = m.ward.registry.account().captcha;
      m.ward.setAccount({
        captcha: { ...captcha, applies_to: ['signup', 'password_login', 'passwordless_start', 'password_reset'] },
      });
      try {
        const user = await newUser();
        const { browser, res, html } = await loginPage();
        assert.doesNotMatch(html, /g-recaptcha/);
        assert.doesNotMatch(res.headers.get('content-security-policy')!, /frame-src/);
        const signedIn = await browser.postForm('/oauth/authorize/login', {
          ...form(html),
          email: user.email,
          password: user.password,
        });
        assert.equal(signedIn.status, 303);
      } finally {
        m.ward.setAccount({ captcha });
      }
    });
  });
}
