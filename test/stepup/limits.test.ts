// Limits on sending codes (security-checklist 1.9, 1.13): PL-10 / PL-11 the per step_up and per
// user limits as the account settings say, changed at run time (429 rate_limit_reached with
// Retry-After, nothing reaches the sinks; limit 0 sends nothing), factor registration limited too,
// per user and per destination in its normalised form; CC-06 50 parallel starts send no more than
// the limit; CC-03 one step_up token (or one tkn) used 20 times in parallel: exactly one success.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { hmac, sha256 } from '../../src/lib/secrets.js';
import { engines } from '../helpers/databases.js';
import { codeIn, postJson, startMfaWard, type MfaWard } from '../helpers/mfa.js';
import { PUBLIC_CLIENT, pkcePair, redeem } from '../helpers/oauth.js';
import {
  OPEN,
  assertLimited,
  bearer,
  challengesOf,
  mfaUser,
  plainToken,
  start,
  stepUpBody,
  stepUpOf,
  verify,
} from './support.js';

const sent = (m: MfaWard) => m.smtp.messages.length + m.sms.messages.length;
const registerPhone = (m: MfaWard, access: string, phone: string) =>
  postJson(m.ward, '/identity/v1/mfa/credentials/phone-numbers', { phone_number: phone }, bearer(access));
const pendingOf = (m: MfaWard, userId: string) => m.ward.registry.storage.mfaCredentials.listOfUser(userId);

describe('code limits from the account settings, changed at run time (sqlite)', () => {
  let m: MfaWard;
  before(async () => {
    m = await startMfaWard({ clients: [PUBLIC_CLIENT], account: { ...OPEN, mfa_required: 'always' } });
  });
  after(() => m.close());

  it('PL-11: per step_up limit 3: the 4th start answers 429 with Retry-After and sends nothing; raised, it sends again', async () => {
    m.ward.setAccount({ verification_requests_per_step_up: 3 });
    try {
      const u = await mfaUser(m, { phone: '+33611111111' });
      const s = await stepUpOf(m, u);
      for (let i = 0; i < 3; i++) assert.equal((await start(m, s.token, i % 2 ? 'sms' : 'email')).status, 200);
      const before = sent(m);
      const fourth = await start(m, s.token, 'sms');
      assertLimited(fourth, '4th start');
      assert.ok(Number(fourth.headers.get('retry-after')) <= 300, 'at most the step_up lifetime');
      assertLimited(await start(m, s.token, 'email'), '5th start, other channel');
      assert.equal(sent(m), before, 'nothing reached the sinks');
      assert.equal((await challengesOf(m, { stepUp: s.token })).length, 3);
      m.ward.setAccount({ verification_requests_per_step_up: 6 });
      assert.equal((await start(m, s.token)).status, 200, 'the new limit applies at once');
      assert.equal(sent(m), before + 1);
    } finally {
      m.ward.setAccount({ verification_requests_per_step_up: 5 });
    }
  });

  it('PL-10 / PL-11: per user per window, all step_up tokens together; the next window sends again', async () => {
    m.ward.setAccount({ verification_requests_per_user: { limit: 3, window_seconds: 60 } });
    try {
      const u = await mfaUser(m);
      const a = await stepUpOf(m, u);
      const b = await stepUpOf(m, u);
      assert.equal((await start(m, a.token)).status, 200);
      assert.equal((await start(m, b.token)).status, 200);
      assert.equal((await start(m, a.token)).status, 200);
      const before = sent(m);
      const over = await start(m, b.token);
      assertLimited(over, '4th code of the user');
      assert.ok(Number(over.headers.get('retry-after')) <= 60);
      assertLimited(await start(m, (await stepUpOf(m, u)).token), 'a new step_up does not reset it');
      assert.equal(sent(m), before, 'nothing sent');
      const other = await mfaUser(m);
      assert.equal((await start(m, (await stepUpOf(m, other)).token)).status, 200, 'another user has their own budget');
      m.ward.clock.advance(60_000);
      assert.equal((await start(m, b.token)).status, 200, 'the next window');
    } finally {
      m.ward.setAccount({ verification_requests_per_user: { limit: 10, window_seconds: 3600 } });
    }
  });

  it('PL-11: limit 0 sends no code at all, for a step-up or a registration; back to 10, codes flow again', async () => {
    const u = await mfaUser(m);
    const s = await stepUpOf(m, u);
    const { user: fresh, access } = await plainToken(m);
    const before = sent(m);
    for (const patch of [
      { verification_requests_per_user: { limit: 0, window_seconds: 3600 } },
      { verification_requests_per_step_up: 0 },
    ]) {
      m.ward.setAccount(patch);
      const r = await start(m, s.token);
      assert.equal(r.status, 403, JSON.stringify(r.body));
      assert.equal(r.body.error_message_key, 'error.mfa.codesDisabled');
      m.ward.setAccount({
        verification_requests_per_user: { limit: 10, window_seconds: 3600 },
        verification_requests_per_step_up: 5,
      });
    }
    m.ward.setAccount({ verification_requests_per_user: { limit: 0, window_seconds: 3600 } });
    const reg = await registerPhone(m, access, '+33622222222');
    assert.equal(reg.status, 403, JSON.stringify(reg.body));
    assert.equal(reg.body.error_message_key, 'error.mfa.codesDisabled');
    assert.deepEqual(await pendingOf(m, fresh.id), [], 'no pending factor left');
    assert.equal(sent(m), before, 'nothing reached the sinks');
    m.ward.setAccount({ verification_requests_per_user: { limit: 10, window_seconds: 3600 } });
    assert.equal((await start(m, s.token)).status, 200);
    assert.equal((await registerPhone(m, access, '+33622222222')).status, 200);
    assert.equal(sent(m), before + 2);
  });

  it('PL-10: registration codes are limited per user and per destination, whatever the form of the number', async () => {
    m.ward.setAccount({ verification_requests_per_user: { limit: 2, window_seconds: 60 } });
    try {
      const a = await plainToken(m);
      const b = await plainToken(m);
      assert.equal((await registerPhone(m, a.access, '+33633333333')).body.status, 'sms_sent');
      assert.equal((await registerPhone(m, a.access, '+33 6 33 33 33 33')).body.status, 'sms_sent');
      const before = m.sms.messages.length;
      assertLimited(await registerPhone(m, a.access, '+33644444444'), 'a 3rd code for the same user');
      assertLimited(await registerPhone(m, b.access, '+33 6 33-33-33-33'), 'the same number from another account');
      assertLimited(await registerPhone(m, b.access, '+33633333333'), 'the same number, E.164');
      assert.equal(m.sms.messages.length, before, 'no SMS');
      assert.deepEqual(await pendingOf(m, b.user.id), [], 'no pending factor for the refused user');
      assert.equal((await pendingOf(m, a.user.id)).length, 1, 'one pending factor: the two forms are one number');
      m.ward.clock.advance(60_000);
      assert.equal((await registerPhone(m, b.access, '+33 6 33 33 33 33')).body.status, 'sms_sent', 'the next window');
      assert.equal((await m.sms.next('+33633333333')).to, '+33633333333', 'sent to the E.164 form');
    } finally {
      m.ward.setAccount({ verification_requests_per_user: { limit: 10, window_seconds: 3600 } });
    }
  });
});

for (const engine of engines()) {
  describe(`parallel code requests and single use (${engine})`, () => {
    let m: MfaWard;
    before(async () => {
      m = await startMfaWard({ engine, clients: [PUBLIC_CLIENT], account: { ...OPEN, mfa_required: 'always' } });
    });
    after(() => m.close());

    it('CC-06: 50 parallel starts on one step_up send 5 SMS (the limit), and one code stays live', async () => {
      const phone = '+33677777701';
      const u = await mfaUser(m, { phone });
      const s = await stepUpOf(m, u);
      const answers = await Promise.all(Array.from({ length: 50 }, () => start(m, s.token, 'sms')));
      assert.equal(answers.filter((a) => a.status === 200).length, 5);
      for (const a of answers) if (a.status !== 200) assertLimited(a);
      assert.equal(m.sms.messages.filter((x) => x.to === phone).length, 5, 'no more messages than the limit');
      const live = (await challengesOf(m, { stepUp: s.token })).filter(
        (r) => r.superseded_at === null && r.consumed_at === null,
      );
      assert.equal(live.length, 1, 'a new code supersedes every earlier one, even in parallel (PL-07)');
    });

    it('CC-06: 50 parallel starts over 10 step_up tokens of one user send 10 (the per-user limit); 50 registrations too', async () => {
      const phone = '+33677777702';
      const u = await mfaUser(m, { phone });
      const tokens = await Promise.all(Array.from({ length: 10 }, () => stepUpOf(m, u)));
      const answers = await Promise.all(Array.from({ length: 50 }, (_, i) => start(m, tokens[i % 10]!.token, 'sms')));
      assert.equal(answers.filter((a) => a.status === 200).length, 10);
      for (const a of answers) if (a.status !== 200) assertLimited(a);
      assert.equal(m.sms.messages.filter((x) => x.to === phone).length, 10);
      const { user, access } = await plainToken(m);
      const regs = await Promise.all(Array.from({ length: 50 }, () => registerPhone(m, access, '+33677777703')));
      assert.equal(regs.filter((a) => a.status === 200).length, 10);
      for (const a of regs) if (a.status !== 200) assertLimited(a);
      assert.equal(m.sms.messages.filter((x) => x.to === '+33677777703').length, 10);
      assert.equal((await pendingOf(m, user.id)).length, 1, 'one pending factor');
      const live = (await challengesOf(m, { userId: user.id })).filter(
        (r) => r.superseded_at === null && r.consumed_at === null,
      );
      assert.equal(live.length, 1, 'one live registration code');
    });

    it('CC-03: one step_up token, 20 codes started and verified in parallel: exactly one success', async () => {
      m.ward.setAccount({
        verification_requests_per_step_up: 20,
        verification_requests_per_user: { limit: 100, window_seconds: 3600 },
      });
      try {
        const u = await mfaUser(m);
        const s = await stepUpOf(m, u);
        const started = await Promise.all(Array.from({ length: 20 }, () => start(m, s.token)));
        assert.ok(started.every((a) => a.status === 200));
        const codes = m.smtp.messages.filter((x) => x.to === u.email).map((x) => codeIn(x.text));
        assert.equal(codes.length, 20);
        // Which code belongs to which challenge: the stored HMAC says so, without spending attempts.
        const rows = await challengesOf(m, { stepUp: s.token });
        const pairs = rows.map((r) => ({
          id: r.id,
          code: codes.find((c) => hmac(m.ward.registry.masterKey, `verification-code:${r.id}:${c}`) === r.code_hmac),
        }));
        assert.ok(
          pairs.every((p) => p.code),
          'every challenge got its code',
        );
        const answers = await Promise.all(pairs.map((p) => verify(m, p.id, p.code)));
        const ok = answers.filter((a) => a.status === 200);
        assert.equal(ok.length, 1, answers.map((a) => a.status).join(','));
        assert.equal((await redeem(m.ward, ok[0]!.body.code, s.verifier)).res.status, 200);
      } finally {
        m.ward.setAccount({
          verification_requests_per_step_up: 5,
          verification_requests_per_user: { limit: 10, window_seconds: 3600 },
        });
      }
    });

    it('CC-03: the same tkn at /mfa/stepup 20 times in parallel: exactly one step_up token', async () => {
      const u = await mfaUser(m);
      const l = await postJson(m.ward, '/identity/v1/password/login', {
        client_id: 'spa',
        scope: 'openid email',
        email: u.email,
        password: u.password,
      });
      const answers = await Promise.all(
        Array.from({ length: 20 }, () =>
          postJson(m.ward, '/identity/v1/mfa/stepup', stepUpBody(pkcePair().challenge, { tkn: l.body.tkn })),
        ),
      );
      const ok = answers.filter((a) => a.status === 200);
      assert.equal(ok.length, 1, answers.map((a) => a.status).join(','));
      for (const a of answers)
        if (a.status !== 200) {
          assert.equal(a.status, 401);
          assert.equal(a.body.error, 'invalid_token');
        }
      const live = await m.ward.registry.db.db
        .selectFrom('step_ups')
        .selectAll()
        .where('user_id', '=', u.id)
        .where('consumed_at', 'is', null)
        .execute();
      assert.deepEqual(
        live.map((x) => x.digest),
        [sha256(ok[0]!.body.token)],
        "only the winner's step_up token lives",
      );
    });
  });
}
