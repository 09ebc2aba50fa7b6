// Signing up with the email of a lite profile (docs/profiles.md, "Lite profiles"), through the unmodified
// Core SDK in Node, the signup API and the hosted signup page, on SQLite and PostgreSQL: nothing of the
// profile changes, and nothing of it is shown, until the mailed link is opened and the password typed at
// signup given there, even when the account sends no verification at all; then the profile keeps its id,
// data and consents, takes the password, becomes a full one with its email verified, and the signup only
// fills what it lacked. Another signup's link dies; a wrong password counts against the link's attempts.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { Browser } from '../helpers/browser.js';
import { engines } from '../helpers/databases.js';
import { CONSOLE_CLIENT, api, consoleToken } from '../helpers/management.js';
import { startMfaWard, type MfaWard } from '../helpers/mfa.js';
import { PUBLIC_CLIENT, authorizeUrl, location, pkcePair, signup as signupUser } from '../helpers/oauth.js';
import { installBrowserShims, type SdkPage } from '../helpers/sdk-shims.js';

const ORIGIN = 'https://shop.example';
const CALLBACK = 'https://shop.example/callback';
const PASSWORD = 'the password typed at signup';
const OTHER = 'another long enough password';
const PHONE = `+3377${String(Date.now() % 10_000_000).padStart(7, '0')}`;
type Sdk = typeof import('@reachfive/identity-core');
type SdkError = { errorMessageKey?: string };

const texts = (title: string) => [{ language: 'en', title, description: title }];
const CONSENTS = [
  { key: 'partners', consent_type: 'opt-in', versions: [{ version_id: 1, texts: texts('Partners') }] },
  { key: 'offers', consent_type: 'opt-in', versions: [{ version_id: 1, texts: texts('Offers') }] },
];
const grant = (granted: boolean) => ({ granted, consent_version: { version_id: 1, language: 'en' } });

const hidden = (html: string, name: string) =>
  new RegExp(`name="${name}" value="([^"]*)"`).exec(html)?.[1]?.replace(/&amp;/g, '&') ?? '';
const linkIn = (text: string) => {
  const m = /https:\/\/\S+\/identity\/v1\/signup\/claim\?token=\S+/.exec(text);
  if (!m) throw new Error(`no claim link in: ${text.slice(0, 300)}`);
  return new URL(m[0]);
};

for (const engine of engines())
  describe(`claiming a lite profile by signing up (${engine})`, () => {
    let m: MfaWard;
    let page: SdkPage;
    let sdk: Sdk;
    let admin: ReturnType<typeof api>;
    before(async () => {
      m = await startMfaWard({
        engine,
        account: {
          // A signup would sign in at once, unverified: a claim still waits for the link.
          self_service: { email_verification: 'off' },
          consents: CONSENTS,
          rate_limits: { signup: { limit: null }, login: { limit: null } },
        },
        clients: [
          PUBLIC_CLIENT,
          CONSOLE_CLIENT,
          {
            client_id: 'shop-web',
            name: 'Shop',
            type: 'public',
            allowed_callback_urls: [CALLBACK],
            allowed_origins: [ORIGIN],
            sso: true,
          },
        ],
      });
      page = installBrowserShims(m.ward, ORIGIN);
      sdk = await import('@reachfive/identity-core');
      admin = api(m.ward, (await consoleToken(m.ward, 'manager')).token);
    });
    after(() => m.close());

    const client = () => sdk.createClient({ domain: new URL(m.ward.url).host, clientId: 'shop-web' });
    const storage = () => m.ward.registry.storage;
    const newEmail = () => `lite-${randomBytes(4).toString('hex')}@example.com`;

    /** A lite profile as an import writes one: names, a company, an address, a consent; no credentials. */
    async function liteProfile(): Promise<{ id: string; email: string }> {
      const email = newEmail();
      const line = {
        email,
        lite_only: true,
        given_name: 'Ada',
        company: 'Analytical Engines',
        addresses: [{ default: true, locality: 'Marylebone', country: 'GB' }],
        consents: { partners: grant(true) },
      };
      const res = await m.ward.fetch('/api/v1/users/import?report=all', {
        method: 'POST',
        headers: {
          authorization: `Bearer ${(await consoleToken(m.ward, 'manager')).token}`,
          'content-type': 'application/x-ndjson',
        },
        body: JSON.stringify(line),
      });
      const report = (await res.json()) as { created: number };
      assert.equal(report.created, 1, JSON.stringify(report));
      return { id: (await storage().users.findByEmail(email))!.id, email };
    }

    /** The claim's page in a browser, then its form posted with `password`. */
    async function finish(link: URL, password: string, browser = new Browser(m.ward)) {
      const shown = await browser.get(`${link.pathname}${link.search}`);
      const html = await shown.text();
      if (shown.status !== 200) return { shown, html, res: shown, body: html };
      const res = await browser.postForm(
        '/identity/v1/signup/claim',
        { token: hidden(html, 'token'), csrf: hidden(html, 'csrf'), password },
        { origin: 'null' },
      );
      return { shown, html, res, body: await res.text() };
    }

    async function signIn(email: string, password: string) {
      const nav = page.nextNavigation();
      await client().loginWithPassword({ email, password, auth: { redirectUri: CALLBACK } });
      const res = await page.browser.get(await nav);
      assert.equal(res.status, 302, await res.text());
      const code = location(res).searchParams.get('code')!;
      return (await client().exchangeAuthorizationCodeWithPkce({ code, redirectUri: CALLBACK })).accessToken!;
    }

    it('the SDK signup changes and shows nothing until the link and the signup password finish it', async () => {
      const lite = await liteProfile();
      const result = await client().signup({
        data: {
          email: lite.email,
          password: PASSWORD,
          givenName: 'Mallory',
          familyName: 'Lovelace',
          nickname: 'ada',
          company: 'Someone Else Ltd',
          phoneNumber: PHONE,
          consents: { partners: grant(false), offers: grant(true) },
        },
        auth: { redirectUri: CALLBACK },
      });
      assert.deepEqual(result, {}, 'no tkn, no id: nothing to sign in with yet');
      const before = (await storage().users.findById(lite.id))!;
      assert.equal(before.password_hash, null, 'no password until the address is proven');
      assert.equal(before.given_name, 'Ada');
      assert.equal(before.family_name, null);
      assert.equal((await storage().profiles.find(lite.id))!.lite_only, true);
      await assert.rejects(
        client().loginWithPassword({ email: lite.email, password: PASSWORD, auth: { redirectUri: CALLBACK } }),
        (e: SdkError) => e.errorMessageKey === 'error.invalidEmailOrPassword',
      );

      const mail = await m.smtp.next(lite.email);
      assert.match(mail.subject, /Finish creating your/);
      assert.doesNotMatch(
        `${mail.text}${mail.html}`,
        /Analytical|Ada|Marylebone/,
        "the mail shows nothing of the profile's",
      );
      const link = linkIn(mail.text);
      const wrong = await finish(link, OTHER);
      assert.equal(wrong.shown.status, 200);
      assert.match(wrong.html, new RegExp(lite.email.replace('.', '\\.')));
      assert.doesNotMatch(wrong.html, /Analytical|Ada|Marylebone/, "the page shows nothing of the profile's");
      assert.equal(wrong.res.status, 400);
      assert.match(wrong.body, /This is not the password chosen at signup/);
      assert.equal((await storage().profiles.find(lite.id))!.lite_only, true, 'still lite');

      const done = await finish(link, PASSWORD);
      assert.equal(done.res.status, 200, done.body);
      assert.match(done.body, /Your account is ready/);
      assert.doesNotMatch(done.body, /Analytical|Ada|Marylebone/);
      assert.equal((await finish(link, PASSWORD)).res.status, 400, 'the link works once');

      const accessToken = await signIn(lite.email, PASSWORD);
      const user = (await client().getUser({ accessToken })) as Record<string, any>;
      assert.equal(user.id, lite.id, 'the same profile');
      assert.equal(user.liteOnly, false);
      assert.equal(user.emailVerified, true, 'the link proved the address');
      assert.equal(user.givenName, 'Ada', 'what the profile held is kept');
      assert.equal(user.company, 'Analytical Engines');
      assert.equal(user.familyName, 'Lovelace', 'what it lacked is filled');
      assert.equal(user.nickname, 'ada');
      assert.equal(user.phoneNumber, PHONE, 'a phone number it had none of, unverified');
      assert.equal(user.phoneNumberVerified, false);
      assert.deepEqual(
        (user.addresses as Array<Record<string, unknown>>).map((a) => a.locality),
        ['Marylebone'],
      );
      const consents = (await client().getUser({ accessToken, fields: 'consents' })) as Record<string, any>;
      assert.equal(consents.consents.partners.granted, true, 'a consent it held stays as its owner gave it');
      assert.equal(consents.consents.partners.reporter, 'import');
      assert.equal(consents.consents.offers.granted, true, 'a consent it had no record of is the signup’s');
      assert.equal(consents.consents.offers.reporter, 'end_user');

      const audit = await admin.get(`/api/v1/audit?target=${encodeURIComponent(`user:${lite.id}`)}&limit=50`);
      const actions = (audit.body.events as Array<{ action: string; details: Record<string, unknown> }>).map(
        (e) => e.action,
      );
      assert.ok(actions.includes('user.lite_profile_claimed'), actions.join());
      const updated = (audit.body.events as Array<{ action: string; details: { fields?: string[] } }>).find(
        (e) => e.action === 'user.profile_updated',
      )!;
      assert.deepEqual(updated.details.fields!.sort(), ['family_name', 'lite_only', 'nickname']);
      // A full profile now: its email is in use like any account's.
      await assert.rejects(
        client().signup({ data: { email: lite.email, password: OTHER }, auth: { redirectUri: CALLBACK } }),
        (e: SdkError) => e.errorMessageKey === 'error.email.alreadyInUse',
      );
    });

    it("a stranger's signup is not finished by the owner's click, and the next signup's link replaces it", async () => {
      const lite = await liteProfile();
      const signup = async (password: string) => {
        const res = await m.ward.fetch('/identity/v1/signup', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ client_id: 'shop-web', data: { email: lite.email, password } }),
        });
        assert.equal(res.status, 200);
        assert.deepEqual(await res.json(), {}, 'the same answer whoever signs up, and no id');
        return linkIn((await m.smtp.next(lite.email)).text);
      };
      // Its other identifiers are checked at signup, as any signup's: another user's phone number is a 409.
      const taken = `+3378${String(Date.now() % 10_000_000).padStart(7, '0')}`;
      await signupUser(m.ward, 'spa', { phone_number: taken });
      const holder = await m.ward.fetch('/identity/v1/signup', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          client_id: 'shop-web',
          data: { email: lite.email, password: OTHER, phone_number: taken },
        }),
      });
      assert.equal(holder.status, 409);
      assert.equal(
        ((await holder.json()) as { error_message_key: string }).error_message_key,
        'error.phoneNumber.alreadyInUse',
      );
      const stranger = await signup(OTHER);
      // The owner opens the link they did not ask for: without the stranger's password it does nothing.
      assert.equal((await finish(stranger, PASSWORD)).res.status, 400);
      const owner = await signup(PASSWORD);
      assert.equal((await finish(stranger, OTHER)).res.status, 400, 'the older link died');
      assert.equal((await storage().profiles.find(lite.id))!.lite_only, true);
      // Each wrong password counts: past the link's attempts even the right one is refused.
      const { max_attempts } = m.ward.registry.account().self_service;
      for (let i = 0; i < max_attempts; i++) assert.equal((await finish(owner, OTHER)).res.status, 400);
      const late = await finish(owner, PASSWORD);
      assert.equal(late.shown.status, 200);
      assert.match(late.body, /expired or was already used/);
      assert.equal((await storage().profiles.find(lite.id))!.lite_only, true);
      assert.equal((await storage().users.findById(lite.id))!.password_hash, null);
    });

    it('the hosted signup page answers "check your email" and its link finishes the claim', async () => {
      const lite = await liteProfile();
      const browser = new Browser(m.ward);
      const login = await browser.get(
        authorizeUrl({
          client_id: 'spa',
          response_type: 'code',
          redirect_uri: 'https://app.example/cb',
          scope: 'openid',
          state: 'st',
          code_challenge: pkcePair().challenge,
          code_challenge_method: 'S256',
        }),
      );
      const href = /href="(\/oauth\/authorize\/signup\?interaction=[^"]+)"/.exec(await login.text())![1]!;
      const form = await (await browser.get(href.replace(/&amp;/g, '&'))).text();
      const res = await browser.postForm('/oauth/authorize/signup', {
        interaction: hidden(form, 'interaction'),
        csrf: hidden(form, 'csrf'),
        email: lite.email,
        password: PASSWORD,
        family_name: 'Lovelace',
      });
      assert.equal(res.status, 200);
      const html = await res.text();
      assert.match(html, /Check your email|check your email/i);
      assert.doesNotMatch(html, /Analytical|Ada/);
      assert.equal((await storage().users.findById(lite.id))!.password_hash, null);
      const done = await finish(linkIn((await m.smtp.next(lite.email)).text), PASSWORD);
      assert.equal(done.res.status, 200, done.body);
      const user = (await storage().users.findById(lite.id))!;
      assert.equal(user.email_verified, true);
      assert.equal(user.family_name, 'Lovelace');
      assert.equal((await storage().profiles.find(lite.id))!.lite_only, false);
    });
  });
