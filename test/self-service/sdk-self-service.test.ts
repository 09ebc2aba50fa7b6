// Account self-service through the unmodified Core SDK in Node (sendEmailVerification, verifyEmail,
// updateEmail, updatePhoneNumber, sendPhoneNumberVerification, verifyPhoneNumber, requestPasswordReset,
// updatePassword in its three modes), reading the real SMTP sink and the SMS simulator, on SQLite and
// PostgreSQL.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { codeIn, startMfaWard, type MfaWard } from '../helpers/mfa.js';
import { location } from '../helpers/oauth.js';
import { installBrowserShims, type SdkPage } from '../helpers/sdk-shims.js';
import { engines } from '../helpers/databases.js';
import { confirmEmailLink } from '../helpers/email-link.js';

const ORIGIN = 'https://shop.example';
const CALLBACK = 'https://shop.example/callback';
const RESET_PAGE = 'https://shop.example/reset';
type Sdk = typeof import('@reachfive/identity-core');
type Client = ReturnType<Sdk['createClient']>;
type SdkError = { error?: string; errorMessageKey?: string; errorDetails?: unknown };

const linkIn = (text: string) => {
  const m = /https:\/\/\S+/.exec(text);
  if (!m) throw new Error(`no link in: ${text.slice(0, 200)}`);
  return new URL(m[0]);
};

for (const engine of engines()) {
  describe(`account self-service with the Core SDK on ${engine}`, () => {
    let w: MfaWard;
    let page: SdkPage;
    let sdk: Sdk;
    let client: Client;
    let n = 0;
    before(async () => {
      w = await startMfaWard({
        engine,
        account: { self_service: { email_verification: 'send' } },
        clients: [
          {
            client_id: 'shop-web',
            name: 'Shop',
            type: 'public',
            allowed_callback_urls: [CALLBACK, RESET_PAGE],
            allowed_origins: [ORIGIN],
            sso: true,
          },
        ],
      });
      page = installBrowserShims(w.ward, ORIGIN);
      sdk = await import('@reachfive/identity-core');
      client = sdk.createClient({ domain: new URL(w.ward.url).host, clientId: 'shop-web' });
    });
    after(() => w.close());

    /** loginWithPassword, the redirect followed, the code exchanged: the access and refresh tokens. */
    async function signIn(email: string, password: string) {
      const nav = page.nextNavigation();
      await client.loginWithPassword({ email, password, auth: { redirectUri: CALLBACK, requireRefreshToken: true } });
      const res = await page.browser.get(await nav);
      assert.equal(res.status, 302, await res.text());
      const code = location(res).searchParams.get('code')!;
      const auth = await client.exchangeAuthorizationCodeWithPkce({ code, redirectUri: CALLBACK });
      return { accessToken: auth.accessToken!, refreshToken: auth.refreshToken! };
    }

    /** A new user signed up through the SDK (its verification email read off the sink), then signed in. */
    async function newUser() {
      const email = `self-${++n}-${Date.now()}@example.com`;
      const password = 'a long enough password';
      const nav = page.nextNavigation();
      await client.signup({
        data: { email, password, givenName: 'Ada', familyName: 'Lovelace' },
        auth: { redirectUri: CALLBACK },
      });
      await page.browser.get(await nav);
      const mail = await w.smtp.next(email);
      return { email, password, mail, ...(await signIn(email, password)) };
    }

    it('signup sends a verification email; verifyEmail takes its code; a used code is refused', async () => {
      const u = await newUser();
      assert.match(u.mail.subject, /Confirm your email address/);
      assert.match(u.mail.html, /verify-email\/link\?token=/);
      const code = codeIn(u.mail.text);
      let user = (await client.getUser({ accessToken: u.accessToken, fields: 'email,email_verified' })) as Record<
        string,
        unknown
      >;
      assert.equal(user.emailVerified, false);
      await assert.rejects(
        client.verifyEmail({ accessToken: u.accessToken, email: u.email, verificationCode: '000000' }),
        (e: SdkError) => e.errorMessageKey === 'error.invalidVerificationCode',
      );
      await client.verifyEmail({ accessToken: u.accessToken, email: u.email, verificationCode: code });
      user = (await client.getUser({ accessToken: u.accessToken })) as Record<string, unknown>;
      assert.equal(user.emailVerified, true);
      await assert.rejects(
        client.verifyEmail({ accessToken: u.accessToken, email: u.email, verificationCode: code }),
        (e: SdkError) => e.errorMessageKey === 'error.invalidVerificationCode',
      );
      // Nothing left to verify: no email is sent.
      const before = w.smtp.messages.length;
      await client.sendEmailVerification({ accessToken: u.accessToken });
      assert.equal(w.smtp.messages.length, before);
    });

    it('sendEmailVerification: the link confirms the address and goes on to redirect_url; a new link kills the old', async () => {
      const u = await newUser();
      const first = linkIn(u.mail.text);
      await client.sendEmailVerification({ accessToken: u.accessToken, redirectUrl: CALLBACK });
      const link = linkIn((await w.smtp.next(u.email)).text);
      assert.equal((await confirmEmailLink(page.browser, first)).status, 400);
      const res = await confirmEmailLink(page.browser, link);
      assert.equal(res.status, 303);
      assert.equal(res.headers.get('location'), CALLBACK);
      const user = (await client.getUser({ accessToken: u.accessToken })) as Record<string, unknown>;
      assert.equal(user.emailVerified, true);
      // Used once.
      assert.equal((await page.browser.get(`${link.pathname}${link.search}`)).status, 400);
      // A redirect_url that is not one of the client's callback URLs is refused before anything is sent.
      await assert.rejects(
        client.sendEmailVerification({ accessToken: u.accessToken, redirectUrl: 'https://evil.example/' }),
        (e: SdkError) => e.error === 'invalid_request',
      );
    });

    it('updateEmail: the new address confirms before it counts, and the old one is told', async () => {
      const u = await newUser();
      const next = `changed-${n}-${Date.now()}@example.com`;
      await client.updateEmail({ accessToken: u.accessToken, email: next });
      const mail = await w.smtp.next(next);
      assert.match(mail.subject, /new email address/);
      let user = (await client.getUser({ accessToken: u.accessToken })) as Record<string, unknown>;
      assert.equal(user.email, u.email);
      await client.verifyEmail({ accessToken: u.accessToken, email: next, verificationCode: codeIn(mail.text) });
      user = (await client.getUser({ accessToken: u.accessToken })) as Record<string, unknown>;
      assert.equal(user.email, next);
      assert.equal(user.emailVerified, true);
      const notice = await w.smtp.next(u.email);
      assert.match(notice.subject, /email address of your .* account was changed/);
      assert.doesNotMatch(notice.text, new RegExp(next.replace(/[.]/g, '\\.')));
      // The old address no longer signs in; the new one does.
      await assert.rejects(client.loginWithPassword({ email: u.email, password: u.password }));
      await signIn(next, u.password);
      // Another account's address is refused.
      const other = await newUser();
      await assert.rejects(
        client.updateEmail({ accessToken: other.accessToken, email: next }),
        (e: SdkError) => e.errorMessageKey === 'error.email.alreadyInUse',
      );
    });

    it('updatePhoneNumber, then verifyPhoneNumber with the SMS code; sendPhoneNumberVerification when verified sends none', async () => {
      const u = await newUser();
      const phone = `+336${String(10_000_000 + n * 7919).slice(-8)}`;
      await client.updatePhoneNumber({ accessToken: u.accessToken, phoneNumber: phone });
      const sms = await w.sms.next(phone);
      await assert.rejects(
        client.verifyPhoneNumber({ accessToken: u.accessToken, phoneNumber: phone, verificationCode: '123' }),
        (e: SdkError) => e.errorMessageKey === 'error.invalidVerificationCode',
      );
      await client.verifyPhoneNumber({
        accessToken: u.accessToken,
        phoneNumber: phone,
        verificationCode: codeIn(sms.body),
      });
      const user = (await client.getUser({ accessToken: u.accessToken })) as Record<string, unknown>;
      assert.equal(user.phoneNumber, phone);
      assert.equal(user.phoneNumberVerified, true);
      const before = w.sms.messages.length;
      await client.sendPhoneNumberVerification({ accessToken: u.accessToken });
      assert.equal(w.sms.messages.length, before);
    });

    it('requestPasswordReset by email, then updatePassword with the code: sessions and refresh tokens end', async () => {
      const u = await newUser();
      await client.requestPasswordReset({ email: u.email });
      const mail = await w.smtp.next(u.email);
      assert.match(mail.subject, /Reset your .* password/);
      const next = 'another long enough password';
      await assert.rejects(
        client.updatePassword({ email: u.email, verificationCode: codeIn(mail.text), password: 'short' }),
        (e: SdkError) => e.error === 'invalid_request',
      );
      await client.updatePassword({ email: u.email, verificationCode: codeIn(mail.text), password: next });
      await assert.rejects(client.refreshTokens({ refreshToken: u.refreshToken }));
      assert.match((await w.smtp.next(u.email)).subject, /password was changed/);
      await assert.rejects(client.loginWithPassword({ email: u.email, password: u.password }));
      await signIn(u.email, next);
      // The code is spent.
      await assert.rejects(
        client.updatePassword({
          email: u.email,
          verificationCode: codeIn(mail.text),
          password: 'yet another password 1',
        }),
        (e: SdkError) => e.errorMessageKey === 'error.invalidVerificationCode',
      );
    });

    it('requestPasswordReset answers the same for an unknown address and sends nothing', async () => {
      const before = w.smtp.messages.length;
      await client.requestPasswordReset({ email: `nobody-${Date.now()}@example.com` });
      await w.ward.registry.background.drain();
      assert.equal(w.smtp.messages.length, before);
    });

    it("the reset link opens the app's page with user_id and verification_code, for updatePassword", async () => {
      const u = await newUser();
      await client.requestPasswordReset({ email: u.email, redirectUrl: RESET_PAGE });
      const link = linkIn((await w.smtp.next(u.email)).text);
      assert.equal(`${link.origin}${link.pathname}`, RESET_PAGE);
      const userId = link.searchParams.get('user_id')!;
      const verificationCode = link.searchParams.get('verification_code')!;
      await assert.rejects(
        client.updatePassword({ userId: 'someone-else', verificationCode, password: 'a brand new password' }),
        (e: SdkError) => e.errorMessageKey === 'error.invalidVerificationCode',
      );
      await client.updatePassword({ userId, verificationCode, password: 'a brand new password' });
      await signIn(u.email, 'a brand new password');
    });

    it('updatePassword signed in needs the current password; the other sessions end, this one stays', async () => {
      const u = await newUser();
      const other = await signIn(u.email, u.password);
      await assert.rejects(
        client.updatePassword({ accessToken: u.accessToken, oldPassword: 'not it', password: 'a fresh new password' }),
        (e: SdkError) => e.errorMessageKey === 'error.invalidOldPassword',
      );
      await assert.rejects(
        client.updatePassword({ accessToken: u.accessToken, password: 'a fresh new password' }),
        (e: SdkError) => e.error === 'invalid_request',
      );
      await client.updatePassword({
        accessToken: u.accessToken,
        oldPassword: u.password,
        password: 'a fresh new password',
      });
      await client.getUser({ accessToken: u.accessToken });
      await assert.rejects(client.refreshTokens({ refreshToken: other.refreshToken }));
    });

    it('a few wrong codes kill a code, even the right one; a new code kills the previous one', async () => {
      const u = await newUser();
      await client.requestPasswordReset({ email: u.email });
      const first = codeIn((await w.smtp.next(u.email)).text);
      await client.requestPasswordReset({ email: u.email });
      const second = codeIn((await w.smtp.next(u.email)).text);
      const reset = (verificationCode: string) =>
        client.updatePassword({ email: u.email, verificationCode, password: 'one more long password' });
      if (first !== second) await assert.rejects(reset(first));
      for (let i = 0; i < 5; i++) await assert.rejects(reset(second === '000000' ? '111111' : '000000'));
      await assert.rejects(reset(second), (e: SdkError) => e.errorMessageKey === 'error.invalidVerificationCode');
    });

    it('the hosted pages: forgot your password, the emailed link, the reset form', async () => {
      const u = await newUser();
      const form = await page.browser.get('/identity/v1/password/forgot?client_id=shop-web');
      assert.equal(form.status, 200);
      assert.match(await form.text(), /Forgot your password/);
      const sent = await page.browser.postForm('/identity/v1/password/forgot', {
        client_id: 'shop-web',
        email: u.email,
      });
      assert.equal(sent.status, 200);
      const link = linkIn((await w.smtp.next(u.email)).text);
      assert.equal(link.pathname, '/identity/v1/password/reset');
      const shown = await page.browser.get(`${link.pathname}${link.search}`, { 'accept-language': 'fr-FR' });
      assert.match(await shown.text(), /Choisissez un nouveau mot de passe/);
      const fields = {
        user_id: link.searchParams.get('user_id')!,
        verification_code: link.searchParams.get('verification_code')!,
      };
      const differ = await page.browser.postForm('/identity/v1/password/reset', {
        ...fields,
        password: 'hosted new password',
        password_confirmation: 'something else',
      });
      assert.equal(differ.status, 400);
      const done = await page.browser.postForm('/identity/v1/password/reset', {
        ...fields,
        password: 'hosted new password',
        password_confirmation: 'hosted new password',
      });
      assert.equal(done.status, 200);
      assert.match(await done.text(), /password was changed/);
      await signIn(u.email, 'hosted new password');
    });

    it('email verification required: signup answers no tkn and sign-in waits for the link', async () => {
      w.ward.setAccount({ self_service: { email_verification: 'required' } });
      try {
        const email = `required-${Date.now()}@example.com`;
        const result = await client.signup({
          data: { email, password: 'a long enough password' },
          auth: { redirectUri: CALLBACK },
        });
        assert.deepEqual(result, {});
        const link = linkIn((await w.smtp.next(email)).text);
        await assert.rejects(
          client.loginWithPassword({ email, password: 'a long enough password', auth: { redirectUri: CALLBACK } }),
          (e: SdkError) => e.errorMessageKey === 'error.emailNotVerified',
        );
        assert.equal((await confirmEmailLink(page.browser, link)).status, 200);
        await signIn(email, 'a long enough password');
      } finally {
        w.ward.setAccount({ self_service: { email_verification: 'send' } });
      }
    });
  });
}
