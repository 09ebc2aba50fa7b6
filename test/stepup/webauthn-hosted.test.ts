// Issue 38, items 3 and 4: the hosted second-factor page of a user with a security key, an SMS and an
// email factor (HTTP with a cookie jar, a software authenticator, both engines): the factors are listed
// most secure first (the key, then SMS, then email), the key is asked first, and once the user answered
// with another factor that one is preselected at the next sign-in; the key still answers from there.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { decodeJwt } from 'jose';
import { engines } from '../helpers/databases.js';
import { codeIn, giveFactors, postJson, startMfaWard, type MfaWard } from '../helpers/mfa.js';
import { PUBLIC_CLIENT, location, redeem } from '../helpers/oauth.js';
import { passwordOnLoginPage as passwordAlone, pageField } from '../helpers/hosted-login.js';
import { SoftAuthenticator } from '../helpers/soft-authenticator.js';
import { OPEN, bearer, plainToken, type User } from './support.js';

const field = pageField;

for (const engine of engines()) {
  describe(`hosted second-factor page with a security key (${engine})`, () => {
    let m: MfaWard;
    let origin: string;
    before(async () => {
      m = await startMfaWard({
        engine,
        clients: [PUBLIC_CLIENT],
        account: { ...OPEN, mfa_required: 'always', passkeys: { enabled: true } },
      });
      origin = new URL(m.ward.issuer).origin;
    });
    after(() => m.close());

    async function signIn(user: User) {
      const { browser, pkce, res } = await passwordAlone(m.ward, user, 'k');
      assert.equal(res.status, 200);
      return { browser, pkce, html: await res.text() };
    }

    const common = (html: string) => ({
      interaction: field(html, 'interaction'),
      csrf: field(html, 'csrf'),
      step_up: field(html, 'step_up'),
    });

    /** The page's options, in the wire shape the software authenticator reads. */
    function optionsIn(html: string) {
      const o = JSON.parse(/var o = (.*);\n/.exec(html)![1]!) as Record<string, any>;
      return { challenge: o.challenge, rp_id: o.rpId, allow_credentials: o.allowCredentials, uv: o.userVerification };
    }

    it('lists the key first, remembers the factor used last, and the key answers from there', async () => {
      const { user, access } = await plainToken(m);
      const key = new SoftAuthenticator({ userVerified: false });
      const o = await postJson(
        m.ward,
        '/identity/v1/webauthn/registration-options',
        { origin, friendly_name: 'Key' },
        bearer(access),
      );
      const reg = await postJson(
        m.ward,
        '/identity/v1/webauthn/registration',
        key.create(o.body.options.public_key, origin),
        bearer(access),
      );
      assert.equal(reg.status, 204, JSON.stringify(reg.body));
      assert.match((await m.smtp.next(user.email)).text, /passkey was added/);
      await giveFactors(m.ward, user.id, { email: user.email, phone: '+33612345678' });

      // First sign-in: the key is asked (nothing sent), then SMS, then email.
      const first = await signIn(user);
      assert.match(first.html, /id="use-key"/);
      const sms = first.html.indexOf('Send the code by SMS instead');
      const email = first.html.indexOf('Send the code by email instead');
      assert.ok(sms > 0 && email > sms, 'SMS before email');
      assert.equal(optionsIn(first.html).uv, 'discouraged');
      // The user answers with the email code instead.
      const sent = await first.browser.postForm('/oauth/authorize/mfa', {
        ...common(first.html),
        auth_type: 'email',
        action: 'resend',
      });
      const emailHtml = await sent.text();
      const code = codeIn((await m.smtp.next(user.email)).text, m.ward.registry.account().verification_code_length);
      const ok = await first.browser.postForm('/oauth/authorize/mfa', {
        ...common(emailHtml),
        challenge_id: field(emailHtml, 'challenge_id'),
        auth_type: 'email',
        verification_code: code,
        action: 'verify',
      });
      assert.equal(ok.status, 303);
      assert.equal(await m.ward.registry.storage.lastFactors.find(user.id), 'email');

      // Next sign-in: email is preselected (a code sent), the key one click away.
      const second = await signIn(user);
      assert.match(second.html, /We sent a code to your email address/);
      assert.match(second.html, /Use my security key or passkey instead/);
      await m.smtp.next(user.email);
      const switched = await second.browser.postForm('/oauth/authorize/mfa', {
        ...common(second.html),
        auth_type: 'webauthn',
        action: 'switch',
      });
      const keyHtml = await switched.text();
      assert.match(keyHtml, /id="use-key"/);
      const assertion = key.get(optionsIn(keyHtml), origin);
      const done = await second.browser.postForm('/oauth/authorize/mfa', {
        ...common(keyHtml),
        auth_type: 'webauthn',
        assertion: JSON.stringify(assertion),
        action: 'verify',
      });
      assert.equal(done.status, 303);
      const { body } = await redeem(m.ward, location(done).searchParams.get('code')!, second.pkce.verifier);
      assert.deepEqual(decodeJwt(body.id_token!).amr, ['pwd', 'mfa', 'hwk']);

      // The key preselected again; its used assertion answers no other sign-in.
      const third = await signIn(user);
      assert.match(third.html, /id="use-key"/);
      const replay = await third.browser.postForm('/oauth/authorize/mfa', {
        ...common(third.html),
        auth_type: 'webauthn',
        assertion: JSON.stringify(assertion),
        action: 'verify',
      });
      assert.equal(replay.status, 401);
      assert.match(await replay.text(), /role="alert"/);

      // Passkey origins that leave Ward's own out: the page offers no key (a code is sent instead).
      m.ward.setAccount({ passkeys: { enabled: true, origins: ['https://app.example'] } });
      try {
        const fourth = await signIn(user);
        assert.doesNotMatch(fourth.html, /use-key|security key/);
        assert.match(fourth.html, /We sent a code to your email address/);
        await m.smtp.next(user.email);
      } finally {
        m.ward.setAccount({ passkeys: { enabled: true, origins: [] } });
      }
    });
  });
}
