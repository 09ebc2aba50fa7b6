// Issue 38, item 4: a security key or passkey registered on the page of a required enrolment (HTTP with a
// cookie jar, a software authenticator, both engines). `action=key` starts a registration ceremony bound
// to the sign-in in progress; its credential (`key_verify`) ends the sign-in with amr mfa + hwk after the
// recovery codes, and the user is not asked to enrol again; those codes answer the second-factor page. Refused: a credential on a challenge Ward did
// not mint, one made on another sign-in's page, the same one again (replay), a post with no live
// interaction, and the enrolment's challenge at the JSON registration.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { decodeJwt } from 'jose';
import {
  ceremonyOptionsIn,
  pageField,
  passwordOnLoginPage as signInOnPage,
  postEnrolPage,
} from '../helpers/hosted-login.js';
import { engines } from '../helpers/databases.js';
import { giveFactors, postJson, startMfaWard, type MfaWard } from '../helpers/mfa.js';
import { PUBLIC_CLIENT, location, redeem, signup } from '../helpers/oauth.js';
import { SoftAuthenticator } from '../helpers/soft-authenticator.js';
import { OPEN, bearer, plainToken, type User } from '../stepup/support.js';

const field = pageField;
const optionsIn = ceremonyOptionsIn;

for (const engine of engines()) {
  describe(`a security key at a required enrolment (${engine})`, () => {
    let m: MfaWard;
    let origin: string;
    before(async () => {
      m = await startMfaWard({
        engine,
        clients: [PUBLIC_CLIENT],
        account: {
          ...OPEN,
          mfa_required: 'always',
          passkeys: { enabled: true },
          mfa_enrollment: 'required',
          mfa_enrollment_grace_skips: 0,
        },
      });
      origin = new URL(m.ward.issuer).origin;
    });
    after(() => m.close());

    const passwordOnLoginPage = (user: User) => signInOnPage(m.ward, user, 'ek');
    const post = postEnrolPage;
    /** The enrolment page after the password, then the page of the key's ceremony. */
    async function keyPage(user: User) {
      const signIn = await passwordOnLoginPage(user);
      assert.equal(signIn.res.status, 200);
      const html = await signIn.res.text();
      assert.match(html, /id="use-key"/, 'a key is offered');
      const started = await post(signIn.browser, html, 'key');
      assert.equal(started.status, 200);
      const keyHtml = await started.text();
      assert.match(keyHtml, /id="create-key"/);
      return { ...signIn, html: keyHtml, options: optionsIn(keyHtml) };
    }
    const events = async (userId: string, name: string) => {
      await m.ward.registry.events.flush();
      const rows = await m.ward.registry.db.db
        .selectFrom('audit_events')
        .selectAll()
        .where('action', '=', name)
        .execute();
      return rows.filter((e) => JSON.stringify(e).includes(userId));
    };

    it('registers the key, shows the recovery codes, and ends the sign-in with amr mfa hwk', async () => {
      const user = await signup(m.ward);
      const { browser, pkce, html, options } = await keyPage(user);
      assert.equal(options.rp.id, new URL(m.ward.issuer).hostname);
      const key = new SoftAuthenticator({ userVerified: false });
      const credential = JSON.stringify(key.create(options, origin));
      const codes = await post(browser, html, 'key_verify', { credential });
      assert.equal(codes.status, 200);
      const codesHtml = await codes.text();
      assert.equal((codesHtml.match(/<li><code>/g) ?? []).length, 10, 'ten recovery codes, shown once');
      const done = await post(browser, codesHtml, 'continue');
      assert.equal(done.status, 303);
      const cb = location(done);
      const { body } = await redeem(m.ward, cb.searchParams.get('code')!, pkce.verifier);
      assert.deepEqual(decodeJwt(body.id_token!).amr, ['pwd', 'mfa', 'hwk']);
      const keys = await m.ward.registry.storage.passkeys.listOfUser(user.id);
      assert.equal(keys.length, 1);
      assert.equal(keys[0]!.friendly_name, 'Security key');
      assert.equal(await m.ward.registry.storage.recoveryCodes.countUnused(user.id), 10);
      const completed = await events(user.id, 'mfa.enrollment_completed');
      assert.equal(completed.length, 1);
      assert.match(JSON.stringify(completed[0]), /webauthn/);
      assert.equal((await events(user.id, 'passkey.added')).length, 1);

      // The key counts as a factor: the next sign-in is not asked to enrol again, but (mfa_required
      // always) for the key, registered as a second factor.
      const next = await passwordOnLoginPage(user);
      assert.equal(next.res.status, 200, 'the second-factor page');
      const nextHtml = await next.res.text();
      assert.match(nextHtml, /id="use-key"/);
      assert.doesNotMatch(nextHtml, /id="create-key"/, 'no enrolment page');

      // With an email factor too, the second-factor page offers the key first and takes a recovery code.
      await giveFactors(m.ward, user.id, { email: user.email });
      const mfa = await passwordOnLoginPage(user);
      assert.equal(mfa.res.status, 200);
      const mfaHtml = await mfa.res.text();
      assert.match(mfaHtml, /id="use-key"/);
      assert.match(mfaHtml, /id="recovery-code"/);
      const recoveryCode = /<li><code>([^<]+)<\/code>/.exec(codesHtml)![1]!;
      const used = await mfa.browser.postForm('/oauth/authorize/mfa', {
        interaction: field(mfaHtml, 'interaction'),
        csrf: field(mfaHtml, 'csrf'),
        step_up: field(mfaHtml, 'step_up'),
        challenge_id: '',
        auth_type: 'recovery_code',
        verification_code: recoveryCode,
        action: 'verify',
      });
      assert.equal(used.status, 303);
      const { body: after } = await redeem(m.ward, location(used).searchParams.get('code')!, mfa.pkce.verifier);
      assert.deepEqual(decodeJwt(after.id_token!).amr, ['pwd', 'mfa']);
      assert.equal(await m.ward.registry.storage.recoveryCodes.countUnused(user.id), 9);
    });

    it('refuses a foreign challenge, another sign-in’s, a replay and a post with no interaction', async () => {
      const user = await signup(m.ward);
      const key = new SoftAuthenticator({ userVerified: false });
      const a = await keyPage(user);
      const b = await keyPage(user);

      // A challenge Ward never minted.
      const forged = key.create({ ...a.options, challenge: randomBytes(32).toString('base64url') }, origin);
      const f = await post(a.browser, a.html, 'key_verify', { credential: JSON.stringify(forged) });
      assert.equal(f.status, 400);
      const fHtml = await f.text();
      assert.match(fHtml, /id="use-key"/, 'the enrolment page again');

      // A credential made on sign-in A's page, posted on sign-in B's: refused, and its challenge is spent.
      const ofA = JSON.stringify(key.create(a.options, origin));
      const cross = await post(b.browser, b.html, 'key_verify', { credential: ofA });
      assert.equal(cross.status, 400);
      const replay = await post(a.browser, a.html, 'key_verify', { credential: ofA });
      assert.equal(replay.status, 400, 'a challenge is used once');

      // Malformed credential JSON: a refusal, not a 500.
      const bad = await post(b.browser, b.html, 'key_verify', { credential: '{not json' });
      assert.equal(bad.status, 400);

      // No live interaction (a made-up handle): the expired page, nothing stored.
      const c = await keyPage(user);
      const none = await c.browser.postForm('/oauth/authorize/enrol', {
        interaction: 'nothing-like-a-handle',
        csrf: field(c.html, 'csrf'),
        action: 'key_verify',
        credential: JSON.stringify(key.create(c.options, origin)),
      });
      assert.notEqual(none.status, 303);
      assert.doesNotMatch(await none.text(), /recovery-codes/);
      assert.equal((await m.ward.registry.storage.passkeys.listOfUser(user.id)).length, 0);

      // The enrolment's challenge is not one of the JSON registration's (another ceremony).
      m.ward.setAccount({ mfa_enrollment: 'optional' });
      const { user: other, access } = await plainToken(m);
      m.ward.setAccount({ mfa_enrollment: 'required' });
      const d = await keyPage(other);
      const api = await postJson(
        m.ward,
        '/identity/v1/webauthn/registration',
        key.create(d.options, origin),
        bearer(access),
      );
      assert.equal(api.status, 400, JSON.stringify(api.body));
      assert.equal((await m.ward.registry.storage.passkeys.listOfUser(other.id)).length, 0);
      assert.ok((await events(user.id, 'mfa.enrollment_key_refused')).length >= 4);
    });
  });
}
