// A first social sign-in that lacks what the account requires (an email when social_signup.email_required,
// a required custom field) creates no user: the browser goes to "Complete your profile" with a signup
// token; the unmodified Core SDK's getSignupData (in Node) reads the provider's claims; the form's POST
// (the profile validator: a form error keeps what was typed) creates the user, links the identity and
// ends with a code. The token is single use, short-lived, of its client and of the browser that started;
// the app's own completion page (social_signup.completion_url) gets it and posts to the same endpoint.
// Against the Google simulator, on SQLite and PostgreSQL.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Problems, validateAccount } from '../../src/config/validate.js';
import { Browser } from '../helpers/browser.js';
import { engines } from '../helpers/databases.js';
import { startGoogleSim, type GoogleSim } from '../helpers/google-sim.js';
import { startMfaWard, type MfaWard } from '../helpers/mfa.js';
import { location } from '../helpers/oauth.js';
import { installBrowserShims, type SdkPage } from '../helpers/sdk-shims.js';

const ORIGIN = 'https://shop.example';
const CALLBACK = 'https://shop.example/callback';
const APP_PAGE = 'https://shop.example/complete-profile';
type Sdk = typeof import('@reachfive/identity-core');
type Client = ReturnType<Sdk['createClient']>;
type SdkError = { error?: string; errorMessageKey?: string };

const field = (html: string, name: string) =>
  new RegExp(`name="${name.replace(/\./g, '\\.')}"[^>]* value="([^"]*)"`).exec(html)?.[1]?.replace(/&amp;/g, '&');

for (const engine of engines()) {
  describe(`completing the profile of a first social sign-in on ${engine}`, () => {
    let google: GoogleSim;
    let w: MfaWard;
    let page: SdkPage;
    let sdk: Sdk;
    let shop: Client;
    let n = 0;
    before(async () => {
      google = await startGoogleSim();
      w = await startMfaWard({
        engine,
        account: {
          social_signup: { email_required: true },
          self_service: { email_verification: 'send' },
          rate_limits: { login: { limit: null }, signup: { limit: null } },
        },
        clients: [
          {
            client_id: 'shop-web',
            name: 'Shop',
            type: 'public',
            allowed_callback_urls: [CALLBACK, APP_PAGE],
            allowed_origins: [ORIGIN],
            sso: true,
            scope: 'openid email profile',
          },
          {
            client_id: 'other-web',
            name: 'Other',
            type: 'public',
            allowed_callback_urls: ['https://other.example/cb'],
            allowed_origins: [ORIGIN],
          },
        ],
        socialProviders: [
          { preset: 'google', issuer: google.issuer, client_id: google.clientId, client_secret: google.clientSecret },
        ],
      });
      page = installBrowserShims(w.ward, ORIGIN);
      sdk = await import('@reachfive/identity-core');
      shop = sdk.createClient({ domain: new URL(w.ward.url).host, clientId: 'shop-web' });
    });
    after(async () => {
      await w?.close();
      await google?.close();
    });

    /** A new Google identity (its own subject) with this email, or none. */
    function newGoogleUser(email?: string, verified = true) {
      google.account = {
        sub: `g-${engine}-${++n}`,
        ...(email === undefined ? {} : { email }),
        email_verified: verified,
        given_name: 'Larry',
        family_name: 'Page',
      };
      return google.account.sub;
    }

    /** The SDK's loginWithSocialProvider, through Google and back: Ward's answer to the callback. */
    async function signInWithGoogle(browser = page.browser) {
      const nav = page.nextNavigation();
      await shop.loginWithSocialProvider('google', { redirectUri: CALLBACK });
      const upstream = location(await browser.get(await nav));
      assert.equal(upstream.origin, google.issuer);
      const callback = location(await browser.get(upstream.toString()));
      return browser.get(callback.toString());
    }

    /** Signs in with Google and expects the completion page: its URL's token. */
    async function toCompletion(browser = page.browser): Promise<{ token: string; url: URL }> {
      const res = await signInWithGoogle(browser);
      assert.equal(res.status, 302, await res.text());
      const url = location(res);
      const token = url.searchParams.get('signup_token');
      assert.ok(token, `not sent to a completion page: ${url}`);
      return { token, url };
    }

    async function formOf(url: URL, browser = page.browser, headers: Record<string, string> = {}) {
      const res = await browser.get(`${url.pathname}${url.search}`, headers);
      const html = await res.text();
      return { status: res.status, html, csrf: field(html, 'csrf') ?? '' };
    }

    it('sends an email-less identity to be completed; getSignupData reads it; the form creates the user', async () => {
      const sub = newGoogleUser();
      const { token, url } = await toCompletion();
      assert.equal(`${url.origin}${url.pathname}`, `${w.ward.url}/identity/v1/signup/complete`);
      assert.equal(await w.ward.registry.storage.identities.find('google', sub), undefined, 'no user yet');

      const data = (await shop.getSignupData(token)) as unknown as Record<string, unknown>;
      assert.equal(data.givenName, 'Larry');
      assert.equal(data.familyName, 'Page');
      assert.equal(data.name, 'Larry Page');
      assert.equal(data.email, undefined);
      assert.ok(typeof data.sub === 'string' && data.sub.length > 0);
      assert.deepEqual(await shop.getSignupData(token), data, 'reading spends nothing');

      const form = await formOf(url);
      assert.equal(form.status, 200);
      assert.match(form.html, /Complete your profile for Shop/);
      assert.match(form.html, /You signed in with Google/);
      assert.match(form.html, /name="email"/);
      // An address of another account (the first administrator's): a form error, never a link.
      const taken = await page.browser.postForm('/identity/v1/signup/complete', {
        signup_token: token,
        csrf: form.csrf,
        email: 'admin@ward.local',
      });
      assert.equal(taken.status, 409);
      const takenHtml = await taken.text();
      assert.match(takenHtml, /An account already exists with this identifier/);
      assert.equal(field(takenHtml, 'email'), 'admin@ward.local');
      assert.equal(await w.ward.registry.storage.identities.find('google', sub), undefined);

      const email = `larry-${engine}@example.com`;
      const res = await page.browser.postForm('/identity/v1/signup/complete', {
        signup_token: token,
        csrf: form.csrf,
        email,
      });
      assert.equal(res.status, 303, await res.text());
      const back = location(res);
      assert.equal(`${back.origin}${back.pathname}`, CALLBACK);
      const auth = await shop.exchangeAuthorizationCodeWithPkce({
        code: back.searchParams.get('code')!,
        redirectUri: CALLBACK,
      });
      const claims = auth.idTokenPayload as Record<string, unknown>;
      assert.equal(claims.sub, data.sub, 'the user has the id getSignupData announced');
      assert.equal(claims.email, email);
      assert.equal(claims.authType, 'google');
      const user = await w.ward.registry.storage.users.findById(String(data.sub));
      assert.equal(user?.email_verified, false, 'a typed address is not verified');
      assert.equal((await w.ward.registry.storage.identities.find('google', sub))?.user_id, data.sub);
      assert.match((await w.smtp.next(email)).subject, /Confirm your email address/);
      assert.ok(w.ward.logs.some((l) => l.includes('"event":"social.user_created"') && l.includes('"completed":true')));
      assert.ok(!w.ward.logs.some((l) => l.includes(token)), 'the token is never logged');
      const stored = await w.ward.registry.storage.oneTime.find('signup_token', token);
      assert.equal(stored, undefined, 'the token is stored hashed');

      // Single use: the token is spent, for the SDK and for the form.
      await assert.rejects(
        shop.getSignupData(token),
        (e: SdkError) => e.errorMessageKey === 'error.signupToken.invalid',
      );
      const again = await page.browser.postForm('/identity/v1/signup/complete', {
        signup_token: token,
        csrf: form.csrf,
        email,
      });
      assert.equal(again.status, 400);
      assert.match(await again.text(), /has expired/);

      // The identity is linked: the next sign-in finds the user.
      const next = await signInWithGoogle();
      const code = location(next).searchParams.get('code');
      assert.ok(code, 'signed in at once');
    });

    it('asks for a required custom field; a missing or wrong value is a form error that keeps the input', async () => {
      w.ward.setAccount({
        social_signup: { email_required: true },
        custom_fields: [
          { name: 'loyalty_id', data_type: 'string', required: true },
          { name: 'shoe_size', data_type: 'integer', required: true },
          { name: 'newsletter', data_type: 'boolean' },
        ],
      });
      try {
        const sub = newGoogleUser(`verified-${engine}@gmail.example`);
        const { token, url } = await toCompletion();
        const data = (await shop.getSignupData(token)) as unknown as Record<string, unknown>;
        assert.equal(data.email, `verified-${engine}@gmail.example`);
        assert.equal(data.emailVerified, true);

        const form = await formOf(url);
        assert.match(form.html, /name="custom_fields\.loyalty_id"/);
        assert.match(form.html, /name="custom_fields\.shoe_size"/);
        assert.doesNotMatch(form.html, /name="email"/, 'the provider verified the email');
        assert.doesNotMatch(form.html, /custom_fields\.newsletter/, 'only what is required');

        const wrong = await page.browser.postForm('/identity/v1/signup/complete', {
          signup_token: token,
          csrf: form.csrf,
          'custom_fields.shoe_size': 'forty-two',
        });
        assert.equal(wrong.status, 400);
        const html = await wrong.text();
        assert.match(html, /This field is required/);
        assert.match(html, /This value is not valid: it must be an integer/);
        assert.equal(field(html, 'custom_fields.shoe_size'), 'forty-two', 'what was typed is kept');
        assert.equal(await w.ward.registry.storage.identities.find('google', sub), undefined, 'nothing created');

        const fr = await formOf(url, page.browser, { 'accept-language': 'fr-FR' });
        assert.match(fr.html, /Complétez votre profil pour Shop/);
        assert.match(fr.html, /<html lang="fr">/);

        const ok = await page.browser.postForm('/identity/v1/signup/complete', {
          signup_token: token,
          csrf: field(html, 'csrf')!,
          'custom_fields.loyalty_id': 'L-1',
          'custom_fields.shoe_size': '42',
          'custom_fields.newsletter': 'true',
        });
        assert.equal(ok.status, 303, await ok.text());
        assert.ok(location(ok).searchParams.get('code'));
        const user = await w.ward.registry.storage.users.findById(String(data.sub));
        assert.equal(user?.email_verified, true, "the provider's verified email");
        const profile = await w.ward.registry.storage.profiles.find(String(data.sub));
        assert.deepEqual(profile?.custom_fields, { loyalty_id: 'L-1', shoe_size: 42, newsletter: true });
      } finally {
        w.ward.setAccount({ custom_fields: [] });
      }
    });

    it('refuses a token of another client, an expired one, and answers clear errors', async () => {
      newGoogleUser();
      const { token, url } = await toCompletion();
      const other = sdk.createClient({ domain: new URL(w.ward.url).host, clientId: 'other-web' });
      await assert.rejects(
        other.getSignupData(token),
        (e: SdkError) => e.errorMessageKey === 'error.signupToken.invalid',
      );
      const raw = await w.ward.fetch(`/identity/v1/signup/data?client_id=other-web&token=${token}`);
      assert.equal(raw.status, 404);
      assert.equal(((await raw.json()) as { error: string }).error, 'not_found');
      const missing = await w.ward.fetch('/identity/v1/signup/data?client_id=shop-web');
      assert.equal(
        ((await missing.json()) as { error_message_key: string }).error_message_key,
        'error.missingParameter',
      );
      const unknown = await w.ward.fetch(`/identity/v1/signup/data?client_id=nobody&token=${token}`);
      assert.equal(
        ((await unknown.json()) as { error_message_key: string }).error_message_key,
        'error.client.notFound',
      );

      const form = await formOf(url);
      w.ward.clock.advance(11 * 60_000);
      await assert.rejects(
        shop.getSignupData(token),
        (e: SdkError) => e.errorMessageKey === 'error.signupToken.invalid',
      );
      assert.equal((await formOf(url)).status, 400, 'the page of an expired token');
      const late = await page.browser.postForm('/identity/v1/signup/complete', {
        signup_token: token,
        csrf: form.csrf,
        email: `late-${engine}@example.com`,
      });
      assert.equal(late.status, 400);
      assert.equal(await w.ward.registry.storage.users.findByEmail(`late-${engine}@example.com`), undefined);
    });

    it('binds the token to the browser that started the sign-in', async () => {
      newGoogleUser();
      const { token, url } = await toCompletion();
      const mine = await formOf(url);
      const thief = new Browser(w.ward);
      assert.equal((await formOf(url, thief)).status, 400, 'another browser does not get the page');
      // With the victim's form token (no matching cookie), or its own valid one from its own sign-in.
      const stolen = { signup_token: token, csrf: mine.csrf, email: `thief-${engine}@example.com` };
      assert.equal((await thief.postForm('/identity/v1/signup/complete', stolen)).status, 400);
      newGoogleUser();
      const own = await formOf((await toCompletion(thief)).url, thief);
      const res = await thief.postForm('/identity/v1/signup/complete', { ...stolen, csrf: own.csrf });
      assert.equal(res.status, 400);
      assert.equal(await w.ward.registry.storage.users.findByEmail(stolen.email), undefined);
      // The token is still the starter's.
      const ok = await page.browser.postForm('/identity/v1/signup/complete', {
        ...stolen,
        email: `owner-${engine}@example.com`,
      });
      assert.equal(ok.status, 303, await ok.text());
    });

    it("sends the token to the app's own completion page, which posts the completion cross-site", async () => {
      w.ward.setAccount({ social_signup: { email_required: true, completion_url: APP_PAGE } });
      try {
        newGoogleUser();
        const { token, url } = await toCompletion();
        assert.equal(`${url.origin}${url.pathname}`, APP_PAGE);
        assert.equal(((await shop.getSignupData(token)) as { givenName?: string }).givenName, 'Larry');
        const email = `app-${engine}@example.com`;
        // A cross-site form POST: the SameSite=Lax binding cookie is not sent with it.
        const post = (b: Browser, origin: string) =>
          b.postForm('/identity/v1/signup/complete', { signup_token: token, email }, { origin }, 'none');
        assert.equal((await post(page.browser, 'https://evil.example')).status, 400, 'a foreign page');
        const parked = await post(page.browser, ORIGIN);
        assert.equal(parked.status, 303);
        const resume = location(parked);
        assert.equal(`${resume.origin}${resume.pathname}`, `${w.ward.url}/identity/v1/signup/complete`);
        assert.equal((await new Browser(w.ward).get(resume.toString(), {}, 'lax')).status, 400, 'not this browser');
        const again = location(await post(page.browser, ORIGIN));
        const res = await page.browser.get(again.toString(), {}, 'lax');
        assert.equal(res.status, 302, await res.text());
        const back = location(res);
        assert.equal(`${back.origin}${back.pathname}`, CALLBACK);
        assert.ok(back.searchParams.get('code'));
        assert.ok(await w.ward.registry.storage.users.findByEmail(email));
      } finally {
        w.ward.setAccount({ social_signup: { email_required: true, completion_url: null } });
      }
    });
  });
}

describe('the social_signup setting', () => {
  const check = (social_signup: unknown) => {
    const p = new Problems();
    const out = validateAccount(p, { social_signup });
    return { problems: p.list, out: out.social_signup };
  };

  it('takes a boolean email_required and a web page as completion_url; refuses anything else', () => {
    assert.deepEqual(check(undefined).out, { email_required: false, completion_url: null });
    assert.deepEqual(check({ email_required: true, completion_url: 'https://app.example/complete' }), {
      problems: [],
      out: { email_required: true, completion_url: 'https://app.example/complete' },
    });
    assert.match(check({ email_required: 'yes' }).problems.join(), /email_required: must be true or false/);
    assert.match(check({ completion_url: 'http://app.example/c' }).problems.join(), /completion_url: must use https/);
    assert.match(check({ completion_url: 'https://app.example/c#x' }).problems.join(), /fragment/);
    assert.match(check({ completion_url: 'com.example.app:/c' }).problems.join(), /must be a web page/);
    assert.match(check({ completion_url: 3 }).problems.join(), /must be a URL or null/);
    assert.match(check({ other: 1 }).problems.join(), /social_signup\.other: unknown key/);
  });
});
