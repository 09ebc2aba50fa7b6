// The account setting `mfa_enrollment: required` at the HTTP level, both engines: a user without a
// second factor is asked after the password to set up an authenticator app (QR code and URI), may
// skip it ("Later") while the grace count lasts, counting down, then no more; the app's first code,
// computed by the independent `otpauth` library from the URI on the page, ends the sign-in with amr
// otp after the recovery codes shown once; or a code sent to the verified email address instead. The SDK's password login continues to that page; where
// no page can be shown the sign-in is refused with mfa_enrollment_required. The last recovery code
// used prompts a new set, on the hosted page and in the JSON answer.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { decodeJwt } from 'jose';
import * as OTPAuth from 'otpauth';
import { Browser } from '../helpers/browser.js';
import { engines } from '../helpers/databases.js';
import { codeIn, postJson, startMfaWard, type MfaWard } from '../helpers/mfa.js';
import { PUBLIC_CLIENT, authorizeUrl, location, pkcePair, redeem, signup } from '../helpers/oauth.js';
import { passwordOnLoginPage as passwordAlone, postEnrolPage, pageField } from '../helpers/hosted-login.js';
import { OPEN, plainToken, type User } from '../stepup/support.js';
import { enrolTotp, signInWith, totpAt, verifyFactor, totpStepUp } from '../stepup/totp-support.js';

const field = pageField;
const uriOf = (html: string) => /<code id="enrol-uri">([^<]*)<\/code>/.exec(html)?.[1]?.replace(/&amp;/g, '&') ?? '';
/** The code the otpauth library computes from the page's otpauth:// URI, at `ms`. */
const codeOfUri = (uri: string, ms: number) => (OTPAuth.URI.parse(uri) as OTPAuth.TOTP).generate({ timestamp: ms });

for (const engine of engines()) {
  describe(`mfa_enrollment: required (${engine})`, () => {
    let m: MfaWard;
    before(async () => {
      const mobile = { ...PUBLIC_CLIENT, client_id: 'mobile', grant_types: ['authorization_code', 'password'] };
      m = await startMfaWard({
        engine,
        clients: [PUBLIC_CLIENT, mobile],
        account: { ...OPEN, mfa_required: 'always' },
      });
    });
    after(() => m.close());
    const required = (grace: number) =>
      m.ward.setAccount({ mfa_enrollment: 'required', mfa_enrollment_grace_skips: grace });

    const passwordOnLoginPage = (user: User, extra: Record<string, string> = {}) =>
      passwordAlone(m.ward, user, 'en-1', extra);
    const post = postEnrolPage;
    const amrOf = async (res: Awaited<ReturnType<Browser['get']>>, verifier: string) => {
      assert.equal(res.status, 303);
      const cb = location(res);
      assert.equal(cb.searchParams.get('state'), 'en-1');
      const { body } = await redeem(m.ward, cb.searchParams.get('code')!, verifier);
      return decodeJwt(body.id_token!).amr as string[];
    };
    const events = async (userId: string, name: string) => {
      await m.ward.registry.events.flush();
      const rows = await m.ward.registry.db.db
        .selectFrom('audit_events')
        .selectAll()
        .where('action', '=', name)
        .execute();
      return rows.filter((e) => JSON.stringify(e).includes(userId));
    };

    it('asks to enrol after the password, counts the skips down, then enrols with a code of the URI', async () => {
      m.ward.setAccount({ mfa_enrollment: 'optional' });
      const user = await signup(m.ward);
      required(2);
      for (const left of [2, 1]) {
        const { browser, pkce, res } = await passwordOnLoginPage(user);
        assert.equal(res.status, 200, 'the enrolment page, no code yet');
        const html = await res.text();
        assert.match(html, /Protect your account with a second factor/);
        assert.match(html, /<svg/);
        assert.match(uriOf(html), /^otpauth:\/\/totp\//);
        assert.match(html, left === 1 ? /once more/ : /2 more times/);
        const later = await post(browser, html, 'later');
        assert.deepEqual(await amrOf(later, pkce.verifier), ['pwd'], 'skipped: the password alone');
      }
      const { browser, pkce, res } = await passwordOnLoginPage(user);
      const html = await res.text();
      assert.match(html, /can no longer be put off/);
      assert.doesNotMatch(html, /value="later"/);
      const refused = await post(browser, html, 'later');
      assert.equal(refused.status, 403, 'no skip left');
      const again = await refused.text();
      assert.equal(uriOf(again), uriOf(html), 'the same secret shown again');

      const uri = uriOf(again);
      const right = codeOfUri(uri, m.ward.clock.now());
      const wrong = await post(browser, again, 'verify', {
        verification_code: right === '000000' ? '111111' : '000000',
      });
      assert.equal(wrong.status, 401);
      const wrongHtml = await wrong.text();
      assert.match(wrongHtml, /wrong or has expired/);
      const ok = await post(browser, wrongHtml, 'verify', { verification_code: right });
      assert.equal(ok.status, 200, 'the recovery codes page');
      const codesHtml = await ok.text();
      assert.equal((codesHtml.match(/<li><code>/g) ?? []).length, 10, 'ten recovery codes, shown once');
      const done = await post(browser, codesHtml, 'continue');
      assert.deepEqual(await amrOf(done, pkce.verifier), ['pwd', 'mfa', 'otp']);
      assert.notEqual((await post(browser, codesHtml, 'continue')).status, 303, 'the old handle is spent');

      // The next sign-in asks the new factor (mfa_required: always), and a replayed code is refused.
      const next = await passwordOnLoginPage(user);
      const mfaHtml = await next.res.text();
      assert.match(mfaHtml, /authenticator app shows/);
      const replay = await next.browser.postForm('/oauth/authorize/mfa', {
        interaction: field(mfaHtml, 'interaction'),
        csrf: field(mfaHtml, 'csrf'),
        step_up: field(mfaHtml, 'step_up'),
        challenge_id: '',
        auth_type: 'totp',
        verification_code: right,
        action: 'verify',
      });
      assert.equal(replay.status, 401, 'a code used once is refused again');

      assert.equal((await events(user.id, 'mfa.enrollment_required_shown')).length, 3);
      assert.equal((await events(user.id, 'mfa.enrollment_skipped')).length, 2);
      assert.equal((await events(user.id, 'mfa.enrollment_completed')).length, 1);
    });

    it('offers the verified email address instead: a code sent there, typed back, ends the sign-in', async () => {
      m.ward.setAccount({ mfa_enrollment: 'optional' });
      const user = await signup(m.ward);
      required(0);
      const first = await passwordOnLoginPage(user);
      assert.doesNotMatch(await first.res.text(), /Get codes by email/, 'an unverified address is not offered');
      await m.ward.registry.storage.users.markVerified(user.id, 'email', user.email, m.ward.clock.now());
      const { browser, pkce, res } = await passwordOnLoginPage(user);
      const html = await res.text();
      assert.match(html, new RegExp(`Get codes by email at ${user.email.replace(/[.]/g, '\\.')} instead`));
      const sent = await post(browser, html, 'email');
      assert.equal(sent.status, 200);
      const sentHtml = await sent.text();
      assert.match(sentHtml, /We sent a code to/);
      const code = codeIn((await m.smtp.next(user.email)).text);
      assert.ok(code);
      const bad = await post(browser, sentHtml, 'verify_sent', {
        channel: 'email',
        verification_code: code === '000000' ? '111111' : '000000',
      });
      assert.equal(bad.status, 401);
      const badHtml = await bad.text();
      assert.match(badHtml, /wrong or has expired/);
      const ok = await post(browser, badHtml, 'verify_sent', { channel: 'email', verification_code: code });
      assert.deepEqual(await amrOf(ok, pkce.verifier), ['pwd', 'mfa', 'email']);
      const factors = await m.ward.registry.storage.mfaCredentials.listOfUser(user.id);
      assert.deepEqual(
        factors.filter((f) => f.verified_at !== null).map((f) => [f.type, f.destination]),
        [['email', user.email]],
      );
      assert.equal((await events(user.id, 'mfa.enrollment_completed')).length, 1);
    });

    it('speaks French; with no grace there is no Later', async () => {
      m.ward.setAccount({ mfa_enrollment: 'optional' });
      const user = await signup(m.ward);
      required(0);
      const { res } = await passwordOnLoginPage(user, { ui_locales: 'fr' });
      const html = await res.text();
      assert.match(html, /Protégez votre compte avec un second facteur/);
      assert.match(html, /ne peut plus attendre/);
      assert.doesNotMatch(html, /value="later"/);
    });

    it("continues the SDK's password login on the hosted page; refuses where no page can be shown", async () => {
      m.ward.setAccount({ mfa_enrollment: 'optional' });
      const user = await signup(m.ward);
      required(1);
      const login = async () => {
        const l = await postJson(m.ward, '/identity/v1/password/login', {
          client_id: 'spa',
          email: user.email,
          password: user.password,
        });
        assert.equal(l.status, 200, JSON.stringify(l.body));
        assert.equal(l.body.mfa_required, undefined, 'no factor to step up with');
        return l.body.tkn as string;
      };
      const params = (extra: Record<string, string>) => ({
        client_id: 'spa',
        response_type: 'code',
        redirect_uri: 'https://app.example/cb',
        scope: 'openid',
        state: 'en-1',
        code_challenge: pkcePair().challenge,
        code_challenge_method: 'S256',
        ...extra,
      });
      const page = await new Browser(m.ward).get(authorizeUrl(params({ tkn: await login() })));
      assert.equal(page.status, 200);
      assert.match(await page.text(), /Protect your account with a second factor/);

      const none = await new Browser(m.ward).get(authorizeUrl(params({ tkn: await login(), prompt: 'none' })));
      assert.equal(none.status, 302);
      const cb = location(none);
      assert.equal(cb.searchParams.get('error'), 'interaction_required');
      assert.equal((await events(user.id, 'mfa.enrollment_refused')).length, 1);

      // The password grant answers tokens itself: refused with the error key while the enrolment is owed.
      const grant = await m.ward.fetch('/oauth/token', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'password',
          client_id: 'mobile',
          username: user.email,
          password: user.password,
        }),
      });
      const body = (await grant.json()) as Record<string, unknown>;
      assert.equal(grant.status, 400, JSON.stringify(body));
      assert.equal(body.error_message_key, 'error.mfa.enrollmentRequired');
    });

    it('prompts a new set after the last recovery code: the hosted page and the JSON answer', async () => {
      m.ward.setAccount({ mfa_enrollment: 'optional' });
      const { user, access } = await plainToken(m);
      const { secret, recoveryCodes } = await enrolTotp(m, access);
      const db = m.ward.registry.db.db;
      const keep = async (n: number) => {
        const rows = await db
          .selectFrom('mfa_recovery_codes')
          .select('id')
          .where('user_id', '=', user.id)
          .where('used_at', 'is', null)
          .execute();
        for (const row of rows.slice(n))
          await db.updateTable('mfa_recovery_codes').set({ used_at: 1 }).where('id', '=', row.id).execute();
      };
      // JSON: one code left of two, then none.
      await keep(2);
      const unused = async () =>
        (
          await db
            .selectFrom('mfa_recovery_codes')
            .select('id')
            .where('user_id', '=', user.id)
            .where('used_at', 'is', null)
            .execute()
        ).length;
      assert.equal(await unused(), 2);
      let left = 2;
      for (const code of recoveryCodes) {
        if (left === 0) break;
        const s = await totpStepUp(m, user);
        const v = await verifyFactor(m, s.token, 'recovery_code', code);
        if (v.status !== 200) continue; // one of the codes marked used above
        left--;
        assert.equal(v.body.recovery_codes_left, left);
        assert.equal(v.body.recovery_codes_renew, left === 0);
      }
      assert.equal(left, 0);
      m.ward.clock.advance(30_000);
      const app = await signInWith(m, user, 'totp', totpAt(secret, m.ward.clock.now()));
      assert.deepEqual(app.amr, ['pwd', 'mfa', 'otp']);

      // Hosted: a new set, then the last of it used on the second-factor page.
      const fresh = await postJson(
        m.ward,
        '/identity/v1/mfa/recovery-codes',
        {},
        { authorization: `Bearer ${app.access}` },
      );
      assert.equal(fresh.status, 200, JSON.stringify(fresh.body));
      const codes = fresh.body.recovery_codes as string[];
      await keep(1);
      const { browser, pkce, res } = await passwordOnLoginPage(user, { ui_locales: 'fr' });
      const mfaHtml = await res.text();
      let offer: Awaited<ReturnType<Browser['get']>> | null = null;
      for (const code of codes) {
        const r = await browser.postForm('/oauth/authorize/mfa', {
          interaction: field(mfaHtml, 'interaction'),
          csrf: field(mfaHtml, 'csrf'),
          step_up: field(mfaHtml, 'step_up'),
          challenge_id: '',
          auth_type: 'recovery_code',
          verification_code: code,
          action: 'verify',
        });
        if (r.status === 200) {
          offer = r;
          break;
        }
      }
      assert.ok(offer, 'the last code accepted');
      const offerHtml = await offer.text();
      assert.match(offerHtml, /Plus de codes de secours/);
      const made = await post(browser, offerHtml, 'new_codes');
      const madeHtml = await made.text();
      assert.equal((madeHtml.match(/<li><code>/g) ?? []).length, 10);
      assert.equal(await unused(), 10);
      const done = await post(browser, madeHtml, 'continue');
      assert.deepEqual(await amrOf(done, pkce.verifier), ['pwd', 'mfa']);
    });
  });
}
