// The hosted second-factor page of a user with an authenticator app, at the HTTP level: after the
// password it asks for the app's code (nothing is sent), refuses a wrong one on the page, ends the
// sign-in with a right one (amr otp), takes a recovery code, and still offers the email code.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { decodeJwt } from 'jose';
import { engines } from '../helpers/databases.js';
import { codeIn, giveFactors, startMfaWard, type MfaWard } from '../helpers/mfa.js';
import { PUBLIC_CLIENT, location, redeem } from '../helpers/oauth.js';
import { passwordOnLoginPage as passwordAlone, pageField } from '../helpers/hosted-login.js';
import { OPEN, plainToken, type User } from './support.js';
import { enrolTotp, totpAt } from './totp-support.js';

const field = pageField;

for (const engine of engines()) {
  describe(`hosted second-factor page with an authenticator app (${engine})`, () => {
    let m: MfaWard;
    before(async () => {
      m = await startMfaWard({ engine, clients: [PUBLIC_CLIENT], account: { ...OPEN, mfa_required: 'always' } });
    });
    after(() => m.close());

    /** The hosted sign-in up to the second-factor page a password alone leads to. */
    async function passwordOnLoginPage(user: User, extra: Record<string, string> = {}) {
      const { browser, pkce, res } = await passwordAlone(m.ward, user, 'hs', extra);
      assert.equal(res.status, 200, 'no redirect on a password alone');
      return { browser, pkce, html: await res.text() };
    }

    const form = (html: string, authType: string, code: string) => ({
      interaction: field(html, 'interaction'),
      csrf: field(html, 'csrf'),
      step_up: field(html, 'step_up'),
      challenge_id: '',
      auth_type: authType,
      verification_code: code,
      action: 'verify',
    });

    it('asks for the app code (nothing sent), refuses a wrong one, ends the sign-in with a right one', async () => {
      const { user, access } = await plainToken(m);
      const { secret } = await enrolTotp(m, access);
      m.ward.clock.advance(30_000);
      const { browser, pkce, html } = await passwordOnLoginPage(user);
      assert.match(html, /authenticator app shows/);
      assert.match(html, /name="auth_type" value="totp"/);
      assert.match(html, /Or a recovery code/);
      const challenges = await m.ward.registry.db.db
        .selectFrom('challenges')
        .selectAll()
        .where('user_id', '=', user.id)
        .where('purpose', '=', 'stepup')
        .execute();
      assert.equal(challenges.length, 0, 'no code was sent');

      const right = totpAt(secret, m.ward.clock.now());
      const bad = await browser.postForm(
        '/oauth/authorize/mfa',
        form(html, 'totp', right === '123456' ? '654321' : '123456'),
      );
      assert.equal(bad.status, 401);
      const badHtml = await bad.text();
      assert.match(badHtml, /wrong or has expired/);
      assert.match(badHtml, /name="auth_type" value="totp"/, 'the app form again');

      const ok = await browser.postForm('/oauth/authorize/mfa', form(badHtml, 'totp', right));
      assert.equal(ok.status, 303);
      const cb = location(ok);
      assert.equal(cb.searchParams.get('state'), 'hs');
      const { body } = await redeem(m.ward, cb.searchParams.get('code')!, pkce.verifier);
      assert.deepEqual(decodeJwt(body.id_token!).amr, ['pwd', 'mfa', 'otp']);
    });

    it('takes a recovery code, in French too', async () => {
      const { user, access } = await plainToken(m);
      const { recoveryCodes } = await enrolTotp(m, access);
      const { browser, pkce, html } = await passwordOnLoginPage(user, { ui_locales: 'fr' });
      assert.match(html, /application d'authentification|application d&#39;authentification/);
      assert.match(html, /code de secours/);
      const ok = await browser.postForm('/oauth/authorize/mfa', form(html, 'recovery_code', recoveryCodes[3]!));
      assert.equal(ok.status, 303);
      const { body } = await redeem(m.ward, location(ok).searchParams.get('code')!, pkce.verifier);
      assert.deepEqual(decodeJwt(body.id_token!).amr, ['pwd', 'mfa']);
    });

    it('offers the email code beside the app, and back to the app', async () => {
      const { user, access } = await plainToken(m);
      const { secret } = await enrolTotp(m, access);
      await giveFactors(m.ward, user.id, { email: user.email });
      assert.match((await m.smtp.next(user.email)).subject, /second factor was added/, "the app's notice");
      m.ward.clock.advance(30_000);

      const { browser, pkce, html } = await passwordOnLoginPage(user);
      assert.match(html, /Send the code by email instead/);
      const sent = await browser.postForm('/oauth/authorize/mfa', { ...form(html, 'email', ''), action: 'resend' });
      const emailHtml = await sent.text();
      assert.match(emailHtml, /We sent a code to your email address/);
      assert.match(emailHtml, /Use my authenticator app instead/);
      const code = codeIn((await m.smtp.next(user.email)).text);
      assert.ok(code);
      const back = await browser.postForm('/oauth/authorize/mfa', { ...form(emailHtml, 'totp', ''), action: 'switch' });
      const appHtml = await back.text();
      assert.match(appHtml, /authenticator app shows/);
      const ok = await browser.postForm(
        '/oauth/authorize/mfa',
        form(appHtml, 'totp', totpAt(secret, m.ward.clock.now())),
      );
      assert.equal(ok.status, 303);
      const { body } = await redeem(m.ward, location(ok).searchParams.get('code')!, pkce.verifier);
      assert.deepEqual(decodeJwt(body.id_token!).amr, ['pwd', 'mfa', 'otp']);
    });
  });
}
