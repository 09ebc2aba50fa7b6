// Magic links and SMS codes as first factors, through the unmodified Core SDK in Node
// (startPasswordless, verifyPasswordless in its default and web_message modes), the real SMTP sink and
// the SMS simulator, on SQLite and PostgreSQL: the link opened elsewhere asks for confirmation; reused,
// expired, foreign-client and too-many-attempts codes are refused; answers do not tell accounts apart.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Browser } from '../helpers/browser.js';
import { engines } from '../helpers/databases.js';
import { codeIn, postJson, startMfaWard, type MfaWard } from '../helpers/mfa.js';
import { authorizeUrl, location, pkcePair } from '../helpers/oauth.js';
import { installBrowserShims, type SdkPage } from '../helpers/sdk-shims.js';

const ORIGIN = 'https://shop.example';
const CALLBACK = 'https://shop.example/callback';
type Sdk = typeof import('@reachfive/identity-core');
type Client = ReturnType<Sdk['createClient']>;
type SdkError = { error?: string; errorMessageKey?: string };
type Auth = { accessToken?: string; idTokenPayload?: { sub?: string } };

const linkIn = (text: string) => {
  const m = /https:\/\/\S+verify\S+/.exec(text);
  if (!m) throw new Error(`no link in: ${text.slice(0, 200)}`);
  return new URL(m[0]);
};

for (const engine of engines()) {
  describe(`passwordless first factors with the Core SDK on ${engine}`, () => {
    let w: MfaWard;
    let page: SdkPage;
    let sdk: Sdk;
    let client: Client;
    let n = 0;
    const CLIENTS = [
      {
        client_id: 'shop-web',
        name: 'Shop',
        type: 'public',
        allowed_callback_urls: [CALLBACK],
        allowed_origins: [ORIGIN],
      },
      { client_id: 'other-web', name: 'Other', type: 'public', allowed_callback_urls: [CALLBACK] },
    ];
    before(async () => {
      w = await startMfaWard({ engine, clients: CLIENTS, account: { passwordless: { magic_link: true, sms: true } } });
      page = installBrowserShims(w.ward, ORIGIN);
      sdk = await import('@reachfive/identity-core');
      client = sdk.createClient({ domain: new URL(w.ward.url).host, clientId: 'shop-web' });
    });
    after(() => w.close());

    async function userWith(field: 'email' | 'phone_number') {
      const id = `${++n}-${Date.now()}`;
      const email = `pl-${id}@example.com`;
      const phone = `+336${String(20_000_000 + n * 104_729).slice(-8)}`;
      const res = await postJson(w.ward, '/identity/v1/signup', {
        client_id: 'shop-web',
        data: { email, phone_number: phone, password: 'a long enough password' },
      });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      return { id: res.body.id as string, email, phone, field };
    }

    async function exchange(callback: URL) {
      assert.equal(`${callback.origin}${callback.pathname}`, CALLBACK);
      const code = callback.searchParams.get('code');
      assert.ok(code, callback.toString());
      return client.exchangeAuthorizationCodeWithPkce({ code, redirectUri: CALLBACK });
    }

    it('a magic link opened in another browser asks who signs in, then signs in there', async () => {
      const u = await userWith('email');
      assert.deepEqual(
        await client.startPasswordless({ authType: 'magic_link', email: u.email }, { redirectUri: CALLBACK }),
        {},
      );
      const mail = await w.smtp.next(u.email);
      assert.match(mail.subject, /Sign in to/);
      const link = linkIn(mail.text);
      const other = new Browser(w.ward);
      const shown = await other.get(`${link.pathname}${link.search}`);
      assert.equal(shown.status, 200);
      const html = await shown.text();
      assert.match(html, /Sign in on this device\?/);
      assert.ok(html.includes(u.email));
      // Opening it again (a mail scanner, a second look) uses nothing.
      assert.equal((await other.get(`${link.pathname}${link.search}`)).status, 200);
      const csrf = /name="csrf" value="([^"]+)"/.exec(html)![1]!;
      const token = link.searchParams.get('verification_code')!;
      const done = await other.postForm(
        '/identity/v1/passwordless/confirm',
        { verification_code: token, csrf },
        { origin: w.ward.url },
      );
      assert.equal(done.status, 303, await done.text());
      const auth = await exchange(location(done));
      assert.equal(auth.idTokenPayload?.sub, u.id);
      assert.equal(auth.idTokenPayload?.emailVerified, true);
      // Used once.
      const again = await other.postForm(
        '/identity/v1/passwordless/confirm',
        { verification_code: token, csrf },
        { origin: w.ward.url },
      );
      assert.equal(again.status, 400);
    });

    it("the emailed code in the SDK's web_message mode: verify-auth-code, then verify answers the AuthResult", async () => {
      const u = await userWith('email');
      await client.startPasswordless({ authType: 'magic_link', email: u.email }, { redirectUri: CALLBACK });
      const code = codeIn((await w.smtp.next(u.email)).text);
      const auth = (await client.verifyPasswordless(
        { authType: 'magic_link', email: u.email, verificationCode: code },
        { useWebMessage: true, redirectUri: CALLBACK },
      )) as Auth;
      assert.ok(auth.accessToken);
      assert.equal(auth.idTokenPayload?.sub, u.id);
      // Reused: refused.
      await assert.rejects(
        client.verifyPasswordless(
          { authType: 'magic_link', email: u.email, verificationCode: code },
          { useWebMessage: true, redirectUri: CALLBACK },
        ),
        (e: SdkError) => e.errorMessageKey === 'error.invalidVerificationCode',
      );
    });

    it('an SMS code in the default mode: the navigation to verify ends at the callback', async () => {
      const u = await userWith('phone_number');
      await client.startPasswordless({ authType: 'sms', phoneNumber: u.phone }, { redirectUri: CALLBACK });
      const code = codeIn((await w.sms.next(u.phone)).body);
      const nav = page.nextNavigation();
      await client.verifyPasswordless(
        { authType: 'sms', phoneNumber: u.phone, verificationCode: code },
        { redirectUri: CALLBACK },
      );
      const res = await page.browser.get(await nav);
      assert.equal(res.status, 302, await res.text());
      const auth = await exchange(location(res));
      assert.equal(auth.idTokenPayload?.sub, u.id);
      assert.deepEqual((await w.ward.registry.users.find(u.id))?.phone_number_verified, true);
    });

    it('too many wrong codes kill the code; a new code kills the old one; an expired code is refused', async () => {
      const u = await userWith('phone_number');
      const start = () =>
        client.startPasswordless({ authType: 'sms', phoneNumber: u.phone }, { redirectUri: CALLBACK });
      const check = (verificationCode: string) =>
        postJson(w.ward, '/identity/v1/verify-auth-code', {
          auth_type: 'sms',
          phone_number: u.phone,
          verification_code: verificationCode,
        });
      await start();
      const first = codeIn((await w.sms.next(u.phone)).body);
      await start();
      const second = codeIn((await w.sms.next(u.phone)).body);
      if (first !== second) assert.equal((await check(first)).status, 400);
      assert.equal((await check(second)).status, 204);
      for (let i = 0; i < 5; i++) await check(second === '000000' ? '111111' : '000000');
      const dead = await check(second);
      assert.equal(dead.status, 400);
      assert.equal(dead.body.error_message_key, 'error.invalidVerificationCode');

      await start();
      const late = codeIn((await w.sms.next(u.phone)).body);
      w.ward.clock.advance(16 * 60_000);
      assert.equal((await check(late)).status, 400);
    });

    it('a navigation that names another client than the one that started is refused, the code kept', async () => {
      const u = await userWith('phone_number');
      await client.startPasswordless({ authType: 'sms', phoneNumber: u.phone }, { redirectUri: CALLBACK });
      const code = codeIn((await w.sms.next(u.phone)).body);
      const q = (clientId: string) =>
        `/identity/v1/passwordless/verify?${new URLSearchParams({ client_id: clientId, auth_type: 'sms', phone_number: u.phone, verification_code: code })}`;
      const foreign = await page.browser.get(q('other-web'));
      assert.equal(foreign.status, 400);
      const ok = await page.browser.get(q('shop-web'));
      assert.equal(ok.status, 302);
    });

    it('answers the same for an unknown address and sends nothing, unless signup is on', async () => {
      const email = `nobody-${Date.now()}@example.com`;
      assert.deepEqual(
        await client.startPasswordless({ authType: 'magic_link', email }, { redirectUri: CALLBACK }),
        {},
      );
      await w.ward.registry.background.drain();
      assert.equal(w.smtp.messages.filter((m) => m.to === email).length, 0);

      w.ward.setAccount({ passwordless: { magic_link: true, sms: true, signup: true } });
      try {
        await client.startPasswordless({ authType: 'magic_link', email }, { redirectUri: CALLBACK });
        const code = codeIn((await w.smtp.next(email)).text);
        const auth = (await client.verifyPasswordless(
          { authType: 'magic_link', email, verificationCode: code },
          { useWebMessage: true, redirectUri: CALLBACK },
        )) as Auth;
        const created = await w.ward.registry.storage.users.findByEmail(email);
        assert.ok(created);
        assert.equal(created.email_verified, true);
        assert.equal(created.password_hash, null);
        assert.equal(auth.idTokenPayload?.sub, created.id);
      } finally {
        w.ward.setAccount({ passwordless: { magic_link: true, sms: true, signup: false } });
      }
    });

    it('the hosted login page: "Email me a sign-in link" (the link in the same browser) and "Text me a code"', async () => {
      const field = (html: string, name: string) => new RegExp(`name="${name}" value="([^"]*)"`).exec(html)![1]!;
      const openLogin = async (browser: Browser) => {
        const res = await browser.get(
          authorizeUrl({
            client_id: 'shop-web',
            response_type: 'code',
            redirect_uri: CALLBACK,
            scope: 'openid email',
            state: 'st-hosted',
            code_challenge: pkcePair().challenge,
            code_challenge_method: 'S256',
          }),
        );
        const html = await res.text();
        assert.match(html, /Email me a sign-in link/);
        assert.match(html, /Text me a code/);
        return { interaction: field(html, 'interaction'), csrf: field(html, 'csrf') };
      };
      const u = await userWith('email');
      const browser = new Browser(w.ward);
      const form = await openLogin(browser);
      const sent = await browser.postForm(
        '/oauth/authorize/passwordless',
        { ...form, auth_type: 'magic_link', email: u.email },
        { origin: w.ward.url },
      );
      assert.equal(sent.status, 200);
      assert.match(await sent.text(), /sign-in link and a code/);
      const link = linkIn((await w.smtp.next(u.email)).text);
      const done = await browser.get(`${link.pathname}${link.search}`);
      assert.equal(done.status, 302, await done.text());
      const back = location(done);
      assert.equal(back.searchParams.get('state'), 'st-hosted');
      assert.ok(back.searchParams.get('code'));

      const p = await userWith('phone_number');
      const other = new Browser(w.ward);
      const form2 = await openLogin(other);
      const page2 = await other.postForm(
        '/oauth/authorize/passwordless',
        { ...form2, auth_type: 'sms', phone_number: p.phone },
        { origin: w.ward.url },
      );
      const html2 = await page2.text();
      const code = codeIn((await w.sms.next(p.phone)).body);
      const post = (verification_code: string) =>
        other.postForm(
          '/oauth/authorize/passwordless/verify',
          {
            interaction: field(html2, 'interaction'),
            csrf: field(html2, 'csrf'),
            auth_type: 'sms',
            phone_number: p.phone,
            verification_code,
          },
          { origin: w.ward.url },
        );
      const wrong = await post(code === '000000' ? '111111' : '000000');
      assert.equal(wrong.status, 400);
      assert.match(await wrong.text(), /The code is wrong/);
      const ok = await post(code);
      assert.equal(ok.status, 303, await ok.text());
      assert.ok(location(ok).searchParams.get('code'));
    });

    it('a method the account has not enabled is refused', async () => {
      w.ward.setAccount({ passwordless: { magic_link: false, sms: true, signup: false } });
      try {
        await assert.rejects(
          client.startPasswordless({ authType: 'magic_link', email: 'a@example.com' }, { redirectUri: CALLBACK }),
          (e: SdkError) => e.errorMessageKey === 'error.passwordless.disabled',
        );
      } finally {
        w.ward.setAccount({ passwordless: { magic_link: true, sms: true, signup: false } });
      }
    });
  });
}
