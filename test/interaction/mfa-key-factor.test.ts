// Issue 38: a key registered as a second factor (the required enrolment page's, passkeys.second_factor)
// counts for `mfa_required: always`: a key-only user is asked for it at sign-in (the hosted page offers
// the key and the recovery codes; the JSON step-up lists `factors` webauthn and recovery_code, `amr` []),
// the key answers it; a passkey registered to sign in (unmarked, the seed's) changes nothing: the
// password login answers `{tkn}` as before. Recovery codes: regenerated with a marked key only, kept when
// the app goes while a marked key remains. A sensitive change of a key-only user needs a fresh step-up.
// HTTP with a software authenticator, both engines.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { decodeJwt } from 'jose';
import { requireFreshStepUp, stepUpRequiredAtLogin } from '../../src/stepup/factors.js';
import { ACCOUNT_PAGE, formsOf, openPage, postPageForm } from '../helpers/account-page.js';
import {
  ceremonyOptionsIn,
  pageField,
  passwordOnLoginPage as signInOnPage,
  postEnrolPage,
} from '../helpers/hosted-login.js';
import { engines } from '../helpers/databases.js';
import { postJson, startMfaWard, type MfaWard } from '../helpers/mfa.js';
import { PUBLIC_CLIENT, location, pkcePair, redeem, signup } from '../helpers/oauth.js';
import { SoftAuthenticator } from '../helpers/soft-authenticator.js';
import { OPEN, stepUpBody, type User } from '../stepup/support.js';

const field = pageField;
const optionsIn = ceremonyOptionsIn;

for (const engine of engines()) {
  describe(`a key registered as a second factor under mfa_required always (${engine})`, () => {
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

    const passwordOnLoginPage = (user: User) => signInOnPage(m.ward, user, 'kf');
    const enrol = postEnrolPage;

    /** A user who enrolled only a security key at the required enrolment page; its recovery codes. */
    async function keyOnlyUser() {
      const user = await signup(m.ward);
      const signIn = await passwordOnLoginPage(user);
      const started = await enrol(signIn.browser, await signIn.res.text(), 'key');
      const html = await started.text();
      const key = new SoftAuthenticator({ userVerified: false });
      const codes = await enrol(signIn.browser, html, 'key_verify', {
        credential: JSON.stringify(key.create(optionsIn(html), origin)),
      });
      assert.equal(codes.status, 200);
      const codesHtml = await codes.text();
      const done = await enrol(signIn.browser, codesHtml, 'continue');
      assert.equal(done.status, 303);
      const recovery = [...codesHtml.matchAll(/<li><code>([^<]+)<\/code>/g)].map((x) => x[1]!);
      return { user, key, recovery, browser: signIn.browser };
    }
    const passwordLogin = (user: User) =>
      postJson(m.ward, '/identity/v1/password/login', {
        client_id: 'spa',
        scope: 'openid',
        email: user.email,
        password: user.password,
      });

    it('marks the enrolment key, asks it at the next hosted sign-in, and the key answers', async () => {
      const { user, key } = await keyOnlyUser();
      const keys = await m.ward.registry.storage.passkeys.listOfUser(user.id);
      assert.equal(keys.length, 1);
      assert.equal(keys[0]!.second_factor, true);
      assert.equal(await m.ward.registry.storage.passkeys.hasSecondFactor(user.id), true);

      const next = await passwordOnLoginPage(user);
      assert.equal(next.res.status, 200, 'the second-factor page, not a code');
      const html = await next.res.text();
      assert.match(html, /id="use-key"/, 'the key is offered');
      assert.match(html, /id="recovery-code"/, 'and the recovery codes');
      assert.doesNotMatch(html, /id="create-key"/, 'no enrolment');
      assert.ok(field(html, 'step_up'), 'a step-up is bound to the page');
      void key;
    });

    it('JSON: mfa_required, factors webauthn and recovery_code, amr [], the key answers', async () => {
      const { user, key } = await keyOnlyUser();
      const login = await passwordLogin(user);
      assert.equal(login.status, 200, JSON.stringify(login.body));
      assert.equal(login.body.mfa_required, true);
      const pkce = pkcePair();
      const s = await postJson(m.ward, '/identity/v1/mfa/stepup', stepUpBody(pkce.challenge, { tkn: login.body.tkn }));
      assert.equal(s.status, 200, JSON.stringify(s.body));
      assert.deepEqual(s.body.amr, [], 'no email or SMS factor for the Core SDK');
      assert.deepEqual(s.body.factors, ['webauthn', 'recovery_code']);
      // No code can be sent: a clear refusal, not a 500.
      const sent = await postJson(m.ward, '/identity/v1/passwordless/start', {
        auth_type: 'email',
        step_up: s.body.token,
      });
      assert.ok(sent.status >= 400 && sent.status < 500, JSON.stringify(sent.body));
      const o = await postJson(m.ward, '/identity/v1/mfa/stepup/webauthn-options', { step_up: s.body.token, origin });
      assert.equal(o.status, 200, JSON.stringify(o.body));
      const v = await postJson(m.ward, '/identity/v1/mfa/stepup/verify', {
        step_up: s.body.token,
        auth_type: 'webauthn',
        credential: key.get(o.body.public_key, origin),
      });
      assert.equal(v.status, 200, JSON.stringify(v.body));
      const { body } = await redeem(m.ward, v.body.code, pkce.verifier);
      assert.deepEqual(decodeJwt(body.id_token!).amr, ['pwd', 'mfa', 'hwk']);
    });

    it('a sign-in with the key itself is not asked again', async () => {
      const { user } = await keyOnlyUser();
      const account = m.ward.registry.account();
      const storage = m.ward.registry.storage;
      assert.equal(await stepUpRequiredAtLogin(storage, account, user.id, ['pwd']), true);
      assert.equal(await stepUpRequiredAtLogin(storage, account, user.id, ['webauthn']), false);
    });

    it('a sensitive change of a key-only user needs a fresh step-up; a seed passkey user needs none', async () => {
      const { user } = await keyOnlyUser();
      const storage = m.ward.registry.storage;
      const now = m.ward.clock.now();
      await assert.rejects(
        requireFreshStepUp({ storage, now }, { userId: user.id, amr: ['pwd'], authTime: now }),
        (e: { id?: string }) => e.id === 'stepUpRequired',
      );
      await requireFreshStepUp({ storage, now }, { userId: user.id, amr: ['pwd', 'mfa', 'hwk'], authTime: now });
      const plain = await signup(m.ward);
      await requireFreshStepUp({ storage, now }, { userId: plain.id, amr: ['pwd'], authTime: now });
    });

    it('a seed user with an unmarked passkey and a password gets today’s answer', async () => {
      const user = await signup(m.ward);
      await m.ward.registry.storage.passkeys.insert({
        id: randomBytes(8).toString('hex'),
        user_id: user.id,
        credential_id: randomBytes(16).toString('base64url'),
        public_key: randomBytes(32).toString('base64url'),
        counter: 0,
        transports: ['internal'],
        backed_up: true,
        device_type: 'multiDevice',
        friendly_name: 'Passkey',
        aaguid: null,
        created_at: Date.now(),
        last_used_at: null,
      });
      const keys = await m.ward.registry.storage.passkeys.listOfUser(user.id);
      assert.equal(keys[0]!.second_factor, false);
      const login = await passwordLogin(user);
      assert.equal(login.status, 200, JSON.stringify(login.body));
      assert.deepEqual(Object.keys(login.body), ['tkn'], 'a plain tkn, no mfa_required');
      const hosted = await passwordOnLoginPage(user);
      assert.equal(hosted.res.status, 303, 'no second-factor page');
      assert.equal(location(hosted.res).searchParams.get('state'), 'kf');
    });

    it('recovery codes: regenerated with a marked key only, kept when the app goes', async () => {
      const { user, browser } = await keyOnlyUser();
      // The account page counts them without an app, and makes them again.
      const page = await openPage(browser);
      assert.equal(page.status, 200);
      assert.match(page.html, /id="recovery-left">[^<]*10/);
      assert.equal(formsOf(page.html, `${ACCOUNT_PAGE}/recovery-codes`).length, 1);
      const made = await postPageForm(browser, page.html, `${ACCOUNT_PAGE}/recovery-codes`, {});
      assert.equal(made.status, 200, made.html.slice(0, 300));
      assert.equal((made.html.match(/<li><code>/g) ?? []).length, 10);
      const sf = m.ward.registry.strongFactors;
      const row = (await m.ward.registry.users.find(user.id))!;
      const fresh = await sf.regenerateRecoveryCodes(row);
      assert.equal(fresh.length, 10);
      assert.equal(await sf.recoveryCodesLeft(user.id), 10);
      // An app added then removed: the codes stay with the key.
      const now = Date.now();
      // (the enrolment page left a pending app: it is turned on here)
      const app = await m.ward.registry.storage.mfaCredentials.insertIfAbsent({
        id: randomBytes(8).toString('hex'),
        user_id: user.id,
        type: 'totp',
        destination: 'authenticator',
        friendly_name: null,
        verified_at: null,
        created_at: now,
      });
      await m.ward.registry.storage.mfaCredentials.markVerified(app.id, now);
      await sf.removeTotp(row);
      assert.equal(await sf.recoveryCodesLeft(user.id), 10);
      // The last marked key removed (no app): the codes go with it.
      const [key] = await m.ward.registry.storage.passkeys.listOfUser(user.id);
      await m.ward.registry.passkeys.remove(row, key!.id);
      assert.equal(await sf.recoveryCodesLeft(user.id), 0);

      // A user with neither an app nor a marked key still gets none.
      const plain = await signup(m.ward);
      await assert.rejects(
        sf.regenerateRecoveryCodes((await m.ward.registry.users.find(plain.id))!),
        /noSecondFactor|second factor|enrol/i,
      );
    });
  });
}
