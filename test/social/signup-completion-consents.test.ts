// Consents when a social login creates a user (issue 37, item 1), against the Google simulator, on
// SQLite and PostgreSQL: an account with a required consent sends every new identity to "Complete your
// profile", which offers the active consents as the signup page does (a checkbox each, in the page's
// language); without the required one nothing is created (the problem next to its box); with it the
// user is created with the version and language shown, reporter end_user, kept in the history and
// audited. The app's own completion page posts `consents.<key>=true|false`, accepted the same way; a
// value that is neither is refused.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Browser } from '../helpers/browser.js';
import { engines } from '../helpers/databases.js';
import { startGoogleSim, type GoogleSim } from '../helpers/google-sim.js';
import { PUBLIC_CLIENT, authorizeUrl, location, pkcePair } from '../helpers/oauth.js';
import { startWard, type TestWard } from '../helpers/ward.js';

const APP_PAGE = 'https://app.example/other';
const CONSENTS = [
  {
    key: 'terms',
    consent_type: 'opt-in',
    required: true,
    versions: [
      { version_id: 1, texts: [{ language: 'en', title: 'Terms v1' }] },
      {
        version_id: 2,
        texts: [
          { language: 'en', title: 'Terms of use', description: 'The rules of the shop.' },
          { language: 'fr', title: 'Conditions générales', description: 'Les règles de la boutique.' },
        ],
      },
    ],
  },
  {
    key: 'newsletter',
    consent_type: 'opt-in',
    versions: [{ version_id: 1, texts: [{ language: 'en', title: 'Newsletter' }] }],
  },
  {
    key: 'old_offers',
    consent_type: 'opt-in',
    status: 'archived',
    versions: [{ version_id: 1, texts: [{ language: 'en', title: 'Old offers' }] }],
  },
];

const field = (html: string, name: string) => new RegExp(`name="${name}" value="([^"]*)"`).exec(html)?.[1] ?? '';

for (const engine of engines()) {
  describe(`consents at a social signup's completion (${engine})`, () => {
    let google: GoogleSim;
    let ward: TestWard;
    let n = 0;
    before(async () => {
      google = await startGoogleSim();
      ward = await startWard({
        engine,
        clients: [PUBLIC_CLIENT],
        account: {
          consents: CONSENTS,
          rate_limits: { login: { limit: null }, signup: { limit: null } },
        },
        socialProviders: [
          { preset: 'google', issuer: google.issuer, client_id: google.clientId, client_secret: google.clientSecret },
        ],
      });
    });
    after(async () => {
      await ward?.close();
      await google?.close();
    });

    /** A new Google identity with a verified email (nothing but the consents is missing). */
    function newGoogleUser() {
      const sub = `g-consents-${engine}-${++n}`;
      google.account = {
        sub,
        email: `${sub}@gmail.example`,
        email_verified: true,
        given_name: 'Grace',
        family_name: 'Hopper',
      };
      return sub;
    }

    /** Signs in with Google from the hosted flow; Ward's answer to the callback: the completion page's URL. */
    async function toCompletion(browser: Browser): Promise<URL> {
      const start = await browser.get(
        authorizeUrl({
          client_id: 'spa',
          response_type: 'code',
          redirect_uri: 'https://app.example/cb',
          scope: 'openid email',
          state: 'soc',
          code_challenge: pkcePair().challenge,
          code_challenge_method: 'S256',
          provider: 'google',
        }),
      );
      const callback = location(await browser.get(location(start).toString()));
      const res = await browser.get(callback.toString());
      assert.equal(res.status, 302, await res.text());
      const url = location(res);
      assert.ok(url.searchParams.get('signup_token'), `not sent to a completion page: ${url}`);
      return url;
    }

    const userOf = async (sub: string) => (await ward.registry.storage.identities.find('google', sub))?.user_id;
    const consentsOf = async (userId: string) =>
      Object.fromEntries(
        (await ward.registry.storage.userConsents.ofUser(userId)).map((c) => [
          c.key,
          [c.granted, c.version_id, c.language, c.reporter],
        ]),
      );

    it('offers the active consents on the completion page; the required one is enforced, then recorded', async () => {
      const sub = newGoogleUser();
      const browser = new Browser(ward);
      const url = await toCompletion(browser);
      const page = await browser.get(`${url.pathname}${url.search}`);
      assert.equal(page.status, 200);
      const html = await page.text();
      assert.match(html, /name="consents\.terms" value="true" required/);
      assert.match(html, /Terms of use<\/label>/);
      assert.match(html, /The rules of the shop\./);
      assert.match(html, /Newsletter \(optional\)/);
      assert.doesNotMatch(html, /Old offers|Terms v1/, 'archived definitions and old versions are not offered');
      assert.doesNotMatch(html, /name="email"/, 'the provider verified the email');

      const token = url.searchParams.get('signup_token')!;
      const post = (form: Record<string, string>) =>
        browser.postForm('/identity/v1/signup/complete', { signup_token: token, csrf: field(html, 'csrf'), ...form });
      const refused = await post({ 'consents.newsletter': 'true' });
      assert.equal(refused.status, 400);
      const refusedHtml = await refused.text();
      assert.match(refusedHtml, /<p class="error" id="c-terms-error">This field is required\.<\/p>/);
      assert.match(refusedHtml, /name="consents\.newsletter" value="true" checked/, 'the answer is kept');
      assert.equal(await userOf(sub), undefined, 'nothing created');

      const ok = await post({ 'consents.terms': 'true' });
      assert.equal(ok.status, 303, await ok.text());
      assert.ok(location(ok).searchParams.get('code'));
      const userId = (await userOf(sub))!;
      assert.deepEqual(await consentsOf(userId), { terms: [true, 2, 'en', 'end_user'] }, 'an unchecked box: nothing');
      const history = await ward.registry.storage.userConsents.history(userId);
      assert.deepEqual(
        history.map((h) => [h.key, h.granted, h.reporter]),
        [['terms', true, 'end_user']],
      );
      await ward.registry.events.flush();
      const audit = await ward.registry.db.db
        .selectFrom('audit_events')
        .selectAll()
        .where('action', '=', 'user.consents_changed')
        .execute();
      assert.ok(audit.some((e) => JSON.stringify(e).includes(userId) && JSON.stringify(e).includes('end_user')));
      assert.ok(
        ward.logs.some((l) => l.includes('"event":"social.profile_incomplete"') && l.includes('consents.terms')),
        'the token names the missing consent',
      );
    });

    it('records the version and language shown on a French page', async () => {
      const sub = newGoogleUser();
      const browser = new Browser(ward);
      const url = await toCompletion(browser);
      const fr = { 'accept-language': 'fr-FR,fr;q=0.9' };
      const html = await (await browser.get(`${url.pathname}${url.search}`, fr)).text();
      assert.match(html, /Conditions générales<\/label>/);
      assert.match(html, /Les règles de la boutique\./);
      assert.match(html, /Newsletter \(facultatif\)/);
      const ok = await browser.postForm(
        '/identity/v1/signup/complete',
        {
          signup_token: url.searchParams.get('signup_token')!,
          csrf: field(html, 'csrf'),
          'consents.terms': 'true',
          'consents.newsletter': 'true',
        },
        fr,
      );
      assert.equal(ok.status, 303, await ok.text());
      assert.deepEqual(await consentsOf((await userOf(sub))!), {
        newsletter: [true, 1, 'en', 'end_user'],
        terms: [true, 2, 'fr', 'end_user'],
      });
    });

    it("accepts the consents the app's own completion page posts; refuses a value that is no answer", async () => {
      ward.setAccount({ social_signup: { email_required: false, completion_url: APP_PAGE } });
      try {
        const sub = newGoogleUser();
        const browser = new Browser(ward);
        const url = await toCompletion(browser);
        assert.equal(`${url.origin}${url.pathname}`, APP_PAGE);
        const token = url.searchParams.get('signup_token')!;
        /** The app page's cross-site form POST, parked, then the browser's GET that resumes it. */
        const postFromApp = async (form: Record<string, string>) => {
          const parked = await browser.postForm(
            '/identity/v1/signup/complete',
            { signup_token: token, ...form },
            { origin: 'https://app.example' },
            'none',
          );
          assert.equal(parked.status, 303, await parked.text());
          return browser.get(location(parked).toString(), {}, 'lax');
        };
        const wrong = await postFromApp({ 'consents.terms': 'maybe' });
        assert.equal(wrong.status, 400);
        assert.match(await wrong.text(), /id="c-terms-error">This value is not valid: it must be true or false\./);
        assert.equal(await userOf(sub), undefined);

        const ok = await postFromApp({ 'consents.terms': 'true', 'consents.newsletter': 'false' });
        assert.equal(ok.status, 302, await ok.text());
        assert.ok(location(ok).searchParams.get('code'));
        assert.deepEqual(await consentsOf((await userOf(sub))!), {
          newsletter: [false, 1, 'en', 'end_user'],
          terms: [true, 2, 'en', 'end_user'],
        });
      } finally {
        ward.setAccount({ social_signup: { email_required: false, completion_url: null } });
      }
    });
  });
}
