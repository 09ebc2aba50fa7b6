// The hosted signup page, linked from the login page, on SQLite and PostgreSQL: the same rules as the
// Core SDK's signup (password policy, custom fields, an address already taken), nothing typed lost on
// an error, the sign-in that goes on to the client's callback with a code, the account's email
// verification (required: a "check your email" page, the emailed link, then the login page), the
// language of the request, and the form's binding to the browser and its CSRF token.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Browser } from '../helpers/browser.js';
import { engines } from '../helpers/databases.js';
import { submitLoginPage } from '../helpers/hosted-login.js';
import { startMfaWard, type MfaWard } from '../helpers/mfa.js';
import { PUBLIC_CLIENT, authorizeUrl, location, pkcePair, redeem } from '../helpers/oauth.js';
import { confirmEmailLink } from '../helpers/email-link.js';

const CUSTOM_FIELDS = [
  { name: 'loyalty_number', data_type: 'integer', required: true, writable: 'user' },
  { name: 'newsletter', data_type: 'boolean', required: false, writable: 'user' },
  { name: 'tier', data_type: 'string', required: false, writable: 'admin' },
];
const PASSWORD = 'a long and unusual passphrase';

/** A hidden input's value in a page. */
const hidden = (html: string, name: string) => new RegExp(`name="${name}" value="([^"]*)"`).exec(html)?.[1] ?? '';
const decode = (s: string) => s.replace(/&amp;/g, '&');

for (const engine of engines()) {
  describe(`the hosted signup page (${engine})`, () => {
    let m: MfaWard;
    let n = 0;
    before(async () => {
      m = await startMfaWard({
        engine,
        clients: [PUBLIC_CLIENT],
        account: { custom_fields: CUSTOM_FIELDS, rate_limits: { signup: { limit: null }, login: { limit: null } } },
      });
    });
    after(() => m.close());

    const email = () => `signup-page-${++n}-${engine}@example.com`;

    /** An authorization request in a new browser: the login page, then its "Create an account" link. */
    async function signupPageOf(query: Record<string, string> = {}) {
      const browser = new Browser(m.ward);
      const pkce = pkcePair();
      const login = await browser.get(
        authorizeUrl({
          client_id: 'spa',
          response_type: 'code',
          redirect_uri: 'https://app.example/cb',
          scope: 'openid email profile',
          state: 'st-signup',
          code_challenge: pkce.challenge,
          code_challenge_method: 'S256',
          ...query,
        }),
      );
      assert.equal(login.status, 200);
      const loginHtml = await login.text();
      const href = /href="(\/oauth\/authorize\/signup\?interaction=[^"]+)"/.exec(loginHtml)?.[1];
      assert.ok(href, 'the login page links to the signup page');
      const page = await browser.get(decode(href));
      return { browser, pkce, page, html: await page.text(), loginHtml };
    }

    const submit = (browser: Browser, html: string, fields: Record<string, string>) =>
      browser.postForm('/oauth/authorize/signup', {
        interaction: hidden(html, 'interaction'),
        csrf: hidden(html, 'csrf'),
        ...fields,
      });

    it('shows the form with the custom fields the user may write, and a strength meter', async () => {
      const { page, html } = await signupPageOf();
      assert.equal(page.status, 200);
      assert.match(html, /<h1>Create your account for Shop SPA<\/h1>/);
      assert.match(html, /name="cf_loyalty_number" type="number" value="" required/);
      assert.match(html, /type="checkbox" id="cf_newsletter"/);
      assert.doesNotMatch(html, /cf_tier/, 'a field only administrators write is not on the page');
      assert.match(html, /<meter id="strength"[^>]*data-client="spa"/);
      const csp = page.headers.get('content-security-policy')!;
      assert.match(csp, /connect-src 'self'/);
      assert.match(csp, /script-src 'sha256-/);
    });

    it('creates the account, then the sign-in goes on to the callback with a code', async () => {
      const { browser, pkce, html } = await signupPageOf();
      const address = email();
      const res = await submit(browser, html, {
        email: address,
        password: PASSWORD,
        given_name: 'Ada',
        family_name: 'Lovelace',
        cf_loyalty_number: '1234',
        cf_newsletter: 'true',
      });
      assert.equal(res.status, 303);
      const back = location(res);
      assert.equal(back.origin + back.pathname, 'https://app.example/cb');
      assert.equal(back.searchParams.get('state'), 'st-signup');
      const { res: token, body } = await redeem(m.ward, back.searchParams.get('code')!, pkce.verifier);
      assert.equal(token.status, 200);
      const info = (await (
        await m.ward.fetch('/identity/v1/userinfo', { headers: { authorization: `Bearer ${body.access_token}` } })
      ).json()) as Record<string, unknown>;
      assert.equal(info.email, address);
      assert.equal(info.given_name, 'Ada');
      // The same rules as the SDK's signup: the custom fields are stored with their declared types.
      const user = await m.ward.registry.storage.users.findByEmail(address);
      const profile = await m.ward.registry.storage.profiles.find(user!.id);
      assert.deepEqual(profile!.custom_fields, { loyalty_number: 1234, newsletter: true });
      await m.ward.registry.events.flush();
      const audit = await m.ward.registry.storage.audit.list({ action: 'account.signup', limit: 50 });
      assert.equal(audit.filter((e) => e.actor_id === user!.id).length, 1, 'the signup is audited');
    });

    it('refuses what the rules refuse, on the page, keeping what was typed', async () => {
      const { browser, html } = await signupPageOf();
      const address = email();
      const weak = await submit(browser, html, { email: address, password: 'password', cf_loyalty_number: '7' });
      assert.equal(weak.status, 400);
      const weakHtml = await weak.text();
      assert.match(weakHtml, /role="alert"/);
      assert.match(weakHtml, new RegExp(`name="email" type="email" autocomplete="email" required value="${address}"`));
      assert.match(weakHtml, /name="cf_loyalty_number" type="number" value="7"/);
      assert.doesNotMatch(weakHtml, /value="password"/, 'the password is never sent back');

      const missing = await submit(browser, weakHtml, { email: address, password: PASSWORD, cf_loyalty_number: '' });
      assert.equal(missing.status, 400);
      assert.match(await missing.text(), /loyalty_number: custom_fields\.loyalty_number is required|loyalty_number/);
      const notNumber = await submit(browser, weakHtml, {
        email: address,
        password: PASSWORD,
        cf_loyalty_number: '1.5',
      });
      assert.equal(notNumber.status, 400);
      assert.match(await notNumber.text(), /loyalty_number: must be an integer/);
      assert.equal(await m.ward.registry.storage.users.findByEmail(address), undefined, 'nothing was created');

      const first = await signupPageOf();
      assert.equal(
        (await submit(first.browser, first.html, { email: address, password: PASSWORD, cf_loyalty_number: '1' }))
          .status,
        303,
      );
      const again = await signupPageOf();
      const dup = await submit(again.browser, again.html, {
        email: address,
        password: PASSWORD,
        cf_loyalty_number: '1',
      });
      assert.ok(dup.status >= 400 && dup.status < 500);
      assert.match(await dup.text(), /role="alert"/);
    });

    it('is in French when the request asks for it, the login page too', async () => {
      const { html, loginHtml } = await signupPageOf({ ui_locales: 'fr' });
      assert.match(loginHtml, /Pas encore de compte \? <a href="[^"]+">Créer un compte<\/a>/);
      assert.match(html, /<html lang="fr">/);
      assert.match(html, /Créez votre compte pour Shop SPA/);
      assert.match(html, /data-words="[^"]*Très faible/);
      assert.match(html, /Vous avez déjà un compte \?/);
    });

    it('binds the form to the browser that started the sign-in, and checks its CSRF token', async () => {
      const { html } = await signupPageOf();
      const stranger = new Browser(m.ward);
      const link = `/oauth/authorize/signup?interaction=${encodeURIComponent(decode(hidden(html, 'interaction')))}`;
      assert.equal((await stranger.get(link)).status, 403);
      const stolen = await submit(stranger, html, { email: email(), password: PASSWORD, cf_loyalty_number: '1' });
      assert.equal(stolen.status, 403);
      const own = await signupPageOf();
      const forged = await own.browser.postForm('/oauth/authorize/signup', {
        interaction: hidden(own.html, 'interaction'),
        csrf: 'forged',
        email: email(),
        password: PASSWORD,
        cf_loyalty_number: '1',
      });
      assert.equal(forged.status, 403);
      const foreign = await own.browser.postForm(
        '/oauth/authorize/signup',
        { interaction: hidden(own.html, 'interaction'), csrf: hidden(own.html, 'csrf'), email: email() },
        { origin: 'https://evil.example' },
      );
      assert.equal(foreign.status, 403);
    });
  });

  describe(`the hosted signup page with email verification required (${engine})`, () => {
    let m: MfaWard;
    before(async () => {
      m = await startMfaWard({
        engine,
        clients: [PUBLIC_CLIENT],
        account: { self_service: { email_verification: 'required' } },
      });
    });
    after(() => m.close());

    it('asks to check the mail; the emailed link confirms; then the login page signs in', async () => {
      const browser = new Browser(m.ward);
      const pkce = pkcePair();
      const login = await browser.get(
        authorizeUrl({
          client_id: 'spa',
          response_type: 'code',
          redirect_uri: 'https://app.example/cb',
          scope: 'openid email',
          state: 'st-verify',
          code_challenge: pkce.challenge,
          code_challenge_method: 'S256',
        }),
      );
      const loginHtml = await login.text();
      const href = decode(/href="(\/oauth\/authorize\/signup\?interaction=[^"]+)"/.exec(loginHtml)![1]);
      const html = await (await browser.get(href)).text();
      const address = `verify-first-${engine}@example.com`;
      const res = await browser.postForm('/oauth/authorize/signup', {
        interaction: hidden(html, 'interaction'),
        csrf: hidden(html, 'csrf'),
        email: address,
        password: PASSWORD,
      });
      assert.equal(res.status, 200);
      const sent = await res.text();
      assert.match(sent, /<h1>Check your email<\/h1>/);
      // Before the link: no sign-in.
      const backToLogin = decode(/href="(\/oauth\/authorize\/login\?interaction=[^"]+)"/.exec(sent)![1]);
      const early = await submitLoginPage(browser, await (await browser.get(backToLogin)).text(), address, PASSWORD);
      assert.equal(early.status, 403);

      const mail = await m.smtp.next(address);
      const link = /https?:\/\/\S+verify-email\/link\S+/.exec(mail.text)![0];
      const confirmed = await confirmEmailLink(new Browser(m.ward), new URL(link));
      assert.equal(confirmed.status, 200);
      assert.match(await confirmed.text(), /is confirmed/);

      const page = await browser.get(backToLogin);
      assert.equal(page.status, 200);
      const done = await submitLoginPage(browser, await page.text(), address, PASSWORD);
      assert.equal(done.status, 303);
      const back = location(done);
      assert.equal(back.searchParams.get('state'), 'st-verify');
      const { body } = await redeem(m.ward, back.searchParams.get('code')!, pkce.verifier);
      const claims = JSON.parse(Buffer.from(body.id_token.split('.')[1], 'base64url').toString());
      assert.equal(claims.email_verified, true);
    });
  });
}
