// The hosted account page's "Confirm it's you" with a security key (HTTP with a cookie jar, a software
// authenticator, both engines): the page offers the key, its button starts a step-up whose options the
// page carries (user verification discouraged, the user's key allowed), the assertion confirms, and a
// replayed assertion is refused beside the form.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ACCOUNT_PAGE, formsOf, openPage, postPageForm, signInBrowser } from '../helpers/account-page.js';
import { engines } from '../helpers/databases.js';
import { giveFactors, postJson, startMfaWard, type MfaWard } from '../helpers/mfa.js';
import { PUBLIC_CLIENT } from '../helpers/oauth.js';
import { SoftAuthenticator } from '../helpers/soft-authenticator.js';
import { OPEN, bearer, plainToken } from '../stepup/support.js';

/** The options the page hands its script, in the wire shape the software authenticator reads. */
function optionsIn(html: string): Record<string, unknown> {
  const o = JSON.parse(/var o = (.*);\n/.exec(html)![1]!) as Record<string, any>;
  assert.equal(o.userVerification, 'discouraged');
  return { challenge: o.challenge, rp_id: o.rpId, allow_credentials: o.allowCredentials };
}

for (const engine of engines()) {
  describe(`the account page confirms with a security key (${engine})`, () => {
    let m: MfaWard;
    before(async () => {
      m = await startMfaWard({ engine, clients: [PUBLIC_CLIENT], account: { ...OPEN, passkeys: { enabled: true } } });
    });
    after(() => m.close());

    it('offers the key, confirms with it, and refuses its assertion again', async () => {
      const { user, access } = await plainToken(m);
      const key = new SoftAuthenticator({ userVerified: false });
      const origin = new URL(m.ward.issuer).origin;
      const o = await postJson(
        m.ward,
        '/identity/v1/webauthn/registration-options',
        { origin, friendly_name: 'Key' },
        bearer(access),
      );
      assert.equal(o.status, 200, JSON.stringify(o.body));
      const reg = await postJson(
        m.ward,
        '/identity/v1/webauthn/registration',
        key.create(o.body.options.public_key, origin),
        bearer(access),
      );
      assert.equal(reg.status, 204, JSON.stringify(reg.body));
      await giveFactors(m.ward, user.id, { email: user.email });

      const browser = await signInBrowser(m.ward, user.email, user.password);
      const page = await openPage(browser);
      assert.match(page.html, /Use my security key or passkey instead/);
      assert.match(page.html, /<dd id="security-keys">1, usable as a second factor<\/dd>/);
      const started = await postPageForm(browser, page.html, `${ACCOUNT_PAGE}/step-up/key`, {});
      assert.equal(started.status, 200, started.html);
      assert.ok(formsOf(started.html, `${ACCOUNT_PAGE}/step-up/key/verify`).length === 1);
      const assertion = JSON.stringify(key.get(optionsIn(started.html), origin));
      const done = await postPageForm(browser, started.html, `${ACCOUNT_PAGE}/step-up/key/verify`, { assertion });
      assert.equal(done.status, 303, done.html);
      const after = await openPage(browser);
      assert.doesNotMatch(after.html, /Use my security key or passkey instead/, 'no step-up owed any more');
      const sessions = await m.ward.registry.db.db
        .selectFrom('sessions')
        .select('amr')
        .where('user_id', '=', user.id)
        .execute();
      assert.ok(
        sessions.some((s) => s.amr === JSON.stringify(['pwd', 'mfa', 'hwk'])),
        sessions.map((s) => s.amr).join(' '),
      );

      // The same assertion on a new step-up of the page: refused beside the form.
      const again = await signInBrowser(m.ward, user.email, user.password);
      const second = await postPageForm(again, (await openPage(again)).html, `${ACCOUNT_PAGE}/step-up/key`, {});
      const replay = await postPageForm(again, second.html, `${ACCOUNT_PAGE}/step-up/key/verify`, { assertion });
      assert.equal(replay.status, 400, replay.html);
      assert.match(replay.html, /role="alert"/);
    });
  });
}
