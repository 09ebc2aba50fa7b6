// Authenticator apps (RFC 6238) through the JSON API, on both engines: enrolment (the secret shown once,
// sealed at rest, enabled by a right code), the second factor of an API sign-in answered with codes
// computed here by node:crypto (totp-support.ts, checked against the RFC's vectors), replay refused,
// one step of drift accepted, wrong codes limited, removal behind a fresh step-up; the audit trail.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { matchTotp } from '../../src/stepup/totp.js';
import { engines } from '../helpers/databases.js';
import { postJson, startMfaWard, type MfaWard } from '../helpers/mfa.js';
import { PUBLIC_CLIENT, pkcePair } from '../helpers/oauth.js';
import { OPEN, assertWrongCode, bearer, del, getJson, plainToken, stepUpBody } from './support.js';
import { enrolTotp, hotp, signInWith, totpAt, totpStepUp, verifyFactor } from './totp-support.js';

describe('RFC 6238 test vectors (SHA-1)', () => {
  // Appendix B: the ASCII key "12345678901234567890", 8 digits; the last 6 are the 6-digit code.
  const key = Buffer.from('12345678901234567890');
  const vectors: Array<[number, string]> = [
    [59, '94287082'],
    [1111111109, '07081804'],
    [1111111111, '14050471'],
    [1234567890, '89005924'],
    [2000000000, '69279037'],
    [20000000000, '65353130'],
  ];
  const keyB32 = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ';

  it("the test's own HOTP/TOTP gives the RFC's codes", () => {
    for (const [t, code] of vectors) assert.equal(hotp(key, Math.floor(t / 30), 8), code, `T=${t}`);
  });

  it("Ward's verifier accepts the RFC's codes at their time, and one step either side only", () => {
    for (const [t, code] of vectors) {
      const ms = t * 1000;
      const step = Math.floor(t / 30);
      assert.equal(matchTotp(keyB32, code.slice(2), ms), step, `T=${t}`);
      assert.equal(matchTotp(keyB32, code.slice(2), ms + 30_000), step, 'one step late');
      assert.equal(matchTotp(keyB32, code.slice(2), ms - 30_000), step, 'one step early');
      assert.equal(matchTotp(keyB32, code.slice(2), ms + 60_000), null, 'two steps late');
      assert.equal(matchTotp(keyB32, code.slice(2), ms - 60_000), null, 'two steps early');
    }
    assert.equal(matchTotp(keyB32, '12345', 59_000), null, 'five digits');
  });
});

for (const engine of engines()) {
  describe(`authenticator apps through the JSON API (${engine})`, () => {
    let m: MfaWard;
    before(async () => {
      m = await startMfaWard({ engine, clients: [PUBLIC_CLIENT], account: { ...OPEN, mfa_required: 'always' } });
    });
    after(() => m.close());

    const status = async (access: string) => {
      const r = await getJson(m, '/identity/v1/mfa/credentials/totp', bearer(access));
      assert.equal(r.status, 200, JSON.stringify(r.body));
      return r.body;
    };

    it('enrols: a 160-bit secret as text, URI and SVG QR code, sealed at rest, enabled only by a right code', async () => {
      const { user, access } = await plainToken(m);
      const e = await postJson(m.ward, '/identity/v1/mfa/credentials/totp', {}, bearer(access));
      assert.equal(e.status, 200, JSON.stringify(e.body));
      const secret = e.body.secret as string;
      assert.match(secret, /^[A-Z2-7]{32}$/, '160 bits in base32');
      const uri = new URL(e.body.otpauth_uri);
      assert.equal(uri.protocol, 'otpauth:');
      assert.equal(uri.host, 'totp');
      assert.equal(uri.searchParams.get('secret'), secret);
      assert.equal(uri.searchParams.get('algorithm'), 'SHA1');
      assert.equal(uri.searchParams.get('digits'), '6');
      assert.equal(uri.searchParams.get('period'), '30');
      assert.ok(decodeURIComponent(uri.pathname).includes(user.email), uri.pathname);
      assert.match(e.body.qr_svg, /^<svg[^>]*xmlns="http:\/\/www.w3.org\/2000\/svg"/);
      assert.doesNotMatch(e.body.qr_svg, /<script|href=/);

      const rows = await m.ward.registry.db.db
        .selectFrom('mfa_totp_secrets')
        .selectAll()
        .where('user_id', '=', user.id)
        .execute();
      assert.equal(rows.length, 1);
      assert.ok(!rows[0]!.secret_sealed.includes(secret), 'the secret is not stored in clear');
      assert.equal((await status(access)).status, 'pending');

      // A pending app is no factor: a second-factor step is not owed yet.
      const list = await getJson(m, '/identity/v1/mfa/credentials', bearer(access));
      assert.deepEqual(list.body.credentials, []);

      const wrongCode = await postJson(
        m.ward,
        '/identity/v1/mfa/credentials/totp/verify',
        { verification_code: totpAt(secret, m.ward.clock.now(), 3) },
        bearer(access),
      );
      assertWrongCode(wrongCode);
      const v = await postJson(
        m.ward,
        '/identity/v1/mfa/credentials/totp/verify',
        { verification_code: totpAt(secret, m.ward.clock.now()) },
        bearer(access),
      );
      assert.equal(v.status, 200, JSON.stringify(v.body));
      assert.equal(v.body.status, 'enabled');
      const codes = v.body.recovery_codes as string[];
      assert.equal(codes.length, 10);
      assert.equal(new Set(codes).size, 10);
      for (const c of codes) assert.match(c, /^[0-9a-z]{5}-[0-9a-z]{5}$/);
      const s = await status(access);
      assert.equal(s.status, 'enabled');
      assert.equal(s.recovery_codes_left, 10);
      assert.equal(s.secret, undefined, 'never returned again');
      // The Core SDK's list of factors is unchanged (it knows email and sms only).
      assert.deepEqual((await getJson(m, '/identity/v1/mfa/credentials', bearer(access))).body.credentials, []);

      // The user now has a factor: a new enrolment needs a fresh step-up, this token has none.
      const again = await postJson(m.ward, '/identity/v1/mfa/credentials/totp', {}, bearer(access));
      assert.equal(again.status, 403, JSON.stringify(again.body));
      assert.equal(again.body.error_message_key, 'error.mfa.stepUpRequired');
    });

    it('answers the step-up of a sign-in; replay refused, one step of drift accepted', async () => {
      const { user, access } = await plainToken(m);
      const { secret } = await enrolTotp(m, access);
      // The enrolment used its step: two steps on, the previous one (drift) is still unused.
      m.ward.clock.advance(60_000);

      const s = await totpStepUp(m, user);
      assert.deepEqual(s.body.amr, [], 'amr keeps only email/sms for the Core SDK');
      assert.deepEqual(s.body.factors, ['totp', 'recovery_code']);

      // One step behind (a slow clock) is accepted; the amr says mfa and otp.
      const now = m.ward.clock.now();
      const late = await signInWith(m, user, 'totp', totpAt(secret, now, -1));
      assert.deepEqual(late.amr, ['pwd', 'mfa', 'otp']);
      // The same code again: refused (replay), and so is the code of the step already passed.
      const replay = await totpStepUp(m, user);
      assertWrongCode(await verifyFactor(m, replay.token, 'totp', totpAt(secret, now, -1)), 'replay');
      // One step ahead is accepted; after it, the current step's code is older than the last used: refused.
      await signInWith(m, user, 'totp', totpAt(secret, now, 1));
      const older = await totpStepUp(m, user);
      assertWrongCode(await verifyFactor(m, older.token, 'totp', totpAt(secret, now)), 'older step');
      // Two steps ahead is outside the window.
      const far = await totpStepUp(m, user);
      assertWrongCode(await verifyFactor(m, far.token, 'totp', totpAt(secret, now, 2)), 'two steps ahead');
      m.ward.clock.advance(90_000);
      await signInWith(m, user, 'totp', totpAt(secret, m.ward.clock.now()));
    });

    it('limits wrong codes per step-up (even the right code after them) and per user', async () => {
      const { user, access } = await plainToken(m);
      const { secret } = await enrolTotp(m, access);
      m.ward.clock.advance(30_000);
      const max = m.ward.registry.account().verification_max_attempts;
      const s = await totpStepUp(m, user);
      const right = totpAt(secret, m.ward.clock.now());
      const bad = right === '000000' ? '000001' : '000000';
      for (let i = 0; i < max; i++) assertWrongCode(await verifyFactor(m, s.token, 'totp', bad), `wrong ${i + 1}`);
      assertWrongCode(await verifyFactor(m, s.token, 'totp', right), 'the right code after the attempts');
      // A new step-up gets its own attempts, within the user's failures of the window.
      await signInWith(m, user, 'totp', right);

      m.ward.setAccount({ verification_failures_per_user: { limit: max + 2, window_seconds: 3600 } });
      try {
        m.ward.clock.advance(30_000);
        const more = await totpStepUp(m, user);
        for (let i = 0; i < 2; i++) assertWrongCode(await verifyFactor(m, more.token, 'totp', bad));
        const next = await totpStepUp(m, user);
        const limited = await verifyFactor(m, next.token, 'totp', totpAt(secret, m.ward.clock.now()));
        assert.equal(limited.status, 429, JSON.stringify(limited.body));
        assert.equal(limited.body.error, 'rate_limit_reached');
      } finally {
        m.ward.setAccount({ verification_failures_per_user: { limit: 20, window_seconds: 3600 } });
      }
    });

    it('removes the app only after a fresh step-up; its recovery codes go with it; audited', async () => {
      const { user, access } = await plainToken(m);
      const { secret } = await enrolTotp(m, access);
      const plain = await del(m, '/identity/v1/mfa/credentials/totp', bearer(access));
      assert.equal(plain.status, 403, JSON.stringify(plain.body));
      m.ward.clock.advance(30_000);
      const fresh = await signInWith(m, user, 'totp', totpAt(secret, m.ward.clock.now()));
      const removed = await del(m, '/identity/v1/mfa/credentials/totp', bearer(fresh.access));
      assert.equal(removed.status, 204, JSON.stringify(removed.body));
      const s = await status(fresh.access);
      assert.equal(s.status, 'none');
      assert.equal(s.recovery_codes_left, 0);
      assert.equal(
        (
          await m.ward.registry.db.db
            .selectFrom('mfa_totp_secrets')
            .selectAll()
            .where('user_id', '=', user.id)
            .execute()
        ).length,
        0,
      );
      // No factor left: the password alone signs in again (no step-up owed).
      const none = await postJson(m.ward, '/identity/v1/password/login', {
        client_id: 'spa',
        scope: 'openid',
        email: user.email,
        password: user.password,
      });
      assert.equal(none.status, 200);
      const stepUp = await postJson(
        m.ward,
        '/identity/v1/mfa/stepup',
        stepUpBody(pkcePair().challenge, { tkn: none.body.tkn }),
      );
      assert.equal(stepUp.body.error_message_key, 'error.mfa.noCredential');

      await m.ward.registry.events.flush(true);
      const actions = (
        await m.ward.registry.db.db
          .selectFrom('audit_events')
          .select(['action', 'details'])
          .where('actor_id', '=', user.id)
          .execute()
      ).map((e) => e.action);
      for (const a of [
        'mfa.totp_enrolment_started',
        'mfa.credential_added',
        'mfa.recovery_codes_generated',
        'mfa.credential_removed',
        'mfa.stepup_verified',
      ])
        assert.ok(actions.includes(a), `${a} in ${actions.join(', ')}`);
    });
  });
}
