// The MFA credential API (identity-api.md "MFA credentials"; security-checklist 1.10): the first
// factor registers without a step-up, with its code from the SMTP sink; once one exists, adding,
// changing or deleting needs an access token out of a step-up (amr mfa) less than 5 minutes old
// (MF-01, also through a refresh or the SSO session the step-up left); MF-02 a pending factor is no factor; MF-03 deleting a factor
// revokes the user's trusted devices; MF-04 another user's trusted device or factor: 404;
// MF-05 one phone number in two forms is one factor.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { decodeJwt } from 'jose';
import { Browser } from '../helpers/browser.js';
import { codeIn, giveFactors, postJson, startMfaWard, type MfaWard } from '../helpers/mfa.js';
import { PUBLIC_CLIENT, authorizeUrl, location, pkcePair, redeem } from '../helpers/oauth.js';
import {
  OPEN,
  assertWrongCode,
  bearer,
  del,
  emailCode,
  getJson,
  plainToken,
  refresh,
  start,
  stepUpBody,
  stepUpOf,
  steppedUpToken,
  type User,
} from './support.js';

const post = (m: MfaWard, path: string, access: string, body: unknown = {}) =>
  postJson(m.ward, `/identity/v1/mfa/credentials${path}`, body, bearer(access));
const list = async (m: MfaWard, access: string) => {
  const r = await getJson(m, '/identity/v1/mfa/credentials', bearer(access));
  assert.equal(r.status, 200, JSON.stringify(r.body));
  return (r.body.credentials as Array<Record<string, string>>).map((c) => `${c.type}:${c.email ?? c.phone_number}`);
};
const devices = async (m: MfaWard, access: string) => {
  const r = await getJson(m, '/identity/v1/mfa/trusteddevices', bearer(access));
  assert.equal(r.status, 200, JSON.stringify(r.body));
  return (r.body.trusted_devices as Array<{ id: string }>).map((d) => d.id);
};
function assertStepUpRequired(r: { status: number; body: Record<string, any> }, what: string): void {
  assert.equal(r.status, 403, `${what}: ${JSON.stringify(r.body)}`);
  assert.equal(r.body.error, 'access_denied', what);
  assert.equal(r.body.error_message_key, 'error.mfa.stepUpRequired', what);
}
const rowsOf = (m: MfaWard, user: User) => m.ward.registry.storage.mfaCredentials.listOfUser(user.id);

describe('MFA credentials API (sqlite)', () => {
  let m: MfaWard;
  before(async () => {
    m = await startMfaWard({ clients: [PUBLIC_CLIENT], account: { ...OPEN } });
  });
  after(() => m.close());

  it('registers a first factor without a step-up, a second only with a fresh step-up token (MF-01)', async () => {
    const { user, access } = await plainToken(m);
    assert.deepEqual(await list(m, access), []);
    const e = await post(m, '/emails', access);
    assert.equal(e.status, 200, JSON.stringify(e.body));
    assert.deepEqual(e.body, { status: 'email_sent' });
    const code = codeIn((await m.smtp.next(user.email)).text);
    assertWrongCode(
      await post(m, '/emails/verify', access, { verification_code: code === '000000' ? '000001' : '000000' }),
    );
    const ok = await post(m, '/emails/verify', access, { verification_code: code });
    assert.equal(ok.status, 204);
    assert.deepEqual(await list(m, access), [`email:${user.email}`]);

    // A second factor with the plain token: refused, nothing stored, nothing sent.
    const smsBefore = m.sms.messages.length;
    assertStepUpRequired(
      await post(m, '/phone-numbers', access, { phone_number: '+33612345678' }),
      'add a phone without step-up',
    );
    assertStepUpRequired(
      await post(m, '/phone-numbers/verify', access, { verification_code: '123456' }),
      'verify without step-up',
    );
    assertStepUpRequired(await post(m, '/emails', access), 'email again without step-up');
    assert.equal(m.sms.messages.length, smsBefore);
    assert.equal((await rowsOf(m, user)).length, 1);

    // With a fresh step-up token (a full step-up by Bearer: amr has mfa).
    const stepped = await steppedUpToken(m, user, access);
    const p = await post(m, '/phone-numbers', stepped.access, { phone_number: '+33612345678' });
    assert.deepEqual(p.body, { status: 'sms_sent' });
    const sms = await m.sms.next('+33612345678');
    assert.equal(
      (await post(m, '/phone-numbers/verify', stepped.access, { verification_code: codeIn(sms.body) })).status,
      204,
    );
    assert.deepEqual(await list(m, access), [`email:${user.email}`, 'sms:+33612345678']);

    // 5 minutes and 1 second later the same token no longer changes anything.
    m.ward.clock.advance(5 * 60_000 + 1000);
    assertStepUpRequired(
      await post(m, '/phone-numbers', stepped.access, { phone_number: '+33698765432' }),
      'stale step-up: add',
    );
    assertStepUpRequired(
      await del(m, '/identity/v1/mfa/credentials/emails', bearer(stepped.access)),
      'stale step-up: delete',
    );
    assertStepUpRequired(
      await del(m, '/identity/v1/mfa/credentials/phone-numbers', bearer(stepped.access), {
        phone_number: '+33612345678',
      }),
      'stale step-up: delete phone',
    );
    // A refresh gives a new access token, not a new step-up: its freshness is that of the step-up.
    const refreshed = await refresh(m, stepped.refresh!);
    assert.equal(refreshed.status, 200, JSON.stringify(refreshed.body));
    assertStepUpRequired(
      await post(m, '/phone-numbers', refreshed.body.access_token!, { phone_number: '+33698765432' }),
      'refreshed stale step-up',
    );
    assert.equal(m.sms.messages.filter((x) => x.to === '+33698765432').length, 0);
    assert.deepEqual(await list(m, access), [`email:${user.email}`, 'sms:+33612345678']);
    assert.equal((await rowsOf(m, user)).length, 2, 'no pending row either');
  });

  it('MF-01: a code from the SSO session a step-up left, 5 minutes later, is no fresh step-up', async () => {
    const { user, access } = await plainToken(m);
    await giveFactors(m.ward, user.id, { email: user.email });
    const browser = new Browser(m.ward);
    const pkce = pkcePair();
    const s = await browser.postJson('/identity/v1/mfa/stepup', stepUpBody(pkce.challenge), bearer(access));
    const { challengeId, code } = await emailCode(m, user, ((await s.json()) as { token: string }).token);
    assert.equal(
      (
        await browser.postJson('/identity/v1/passwordless/verify', {
          challenge_id: challengeId,
          verification_code: code,
        })
      ).status,
      200,
    );
    m.ward.clock.advance(5 * 60_000 + 1000);
    const again = pkcePair();
    const sso = await browser.get(
      authorizeUrl({
        client_id: 'spa',
        response_type: 'code',
        redirect_uri: 'https://app.example/cb',
        scope: 'openid',
        prompt: 'none',
        code_challenge: again.challenge,
        code_challenge_method: 'S256',
      }),
    );
    const ssoCode = location(sso).searchParams.get('code');
    assert.ok(ssoCode, `an SSO code: ${sso.headers.get('location')}`);
    const { body } = await redeem(m.ward, ssoCode, again.verifier);
    assert.ok((decodeJwt(body.id_token!).amr as string[]).includes('mfa'), 'the session remembers the step-up');
    assertStepUpRequired(
      await post(m, '/phone-numbers', body.access_token!, { phone_number: '+33611223344' }),
      'new token, old step-up',
    );
    assert.deepEqual(await list(m, access), [`email:${user.email}`]);
  });

  it('MF-02: a pending factor is not offered by /mfa/stepup and cannot receive a step-up code', async () => {
    const { user, access } = await plainToken(m);
    await giveFactors(m.ward, user.id, { email: user.email });
    const stepped = await steppedUpToken(m, user, access);
    assert.deepEqual((await post(m, '/phone-numbers', stepped.access, { phone_number: '+33622334455' })).body, {
      status: 'sms_sent',
    });
    await m.sms.next('+33622334455');
    assert.deepEqual(await list(m, access), [`email:${user.email}`], 'not listed while pending');
    const s = await stepUpOf(m, user);
    assert.deepEqual(s.amr, ['email'], 'amr lists verified factors only');
    const smsBefore = m.sms.messages.length;
    const r = await start(m, s.token, 'sms');
    assert.equal(r.status, 400, JSON.stringify(r.body));
    assert.equal(r.body.error_message_key, 'error.mfa.noCredential');
    assert.equal(m.sms.messages.length, smsBefore, 'no code to the pending phone');
    // A user whose only factor is pending has nothing to step up with.
    const { user: other, access: otherAccess } = await plainToken(m);
    assert.deepEqual((await post(m, '/phone-numbers', otherAccess, { phone_number: '+33622334466' })).body, {
      status: 'sms_sent',
    });
    const l = await postJson(m.ward, '/identity/v1/password/login', {
      client_id: 'spa',
      scope: 'openid',
      email: other.email,
      password: other.password,
    });
    const none = await postJson(m.ward, '/identity/v1/mfa/stepup', {
      client_id: 'spa',
      response_type: 'code',
      redirect_uri: 'https://app.example/cb',
      scope: 'openid',
      code_challenge: 'x'.repeat(43),
      code_challenge_method: 'S256',
      tkn: l.body.tkn,
    });
    assert.equal(none.status, 400);
    assert.equal(none.body.error_message_key, 'error.mfa.noCredential');
  });

  it('MF-05: +33 6 12 34 56 78 when +33612345678 exists is the same factor: no second one, no SMS', async () => {
    const { user, access } = await plainToken(m);
    await giveFactors(m.ward, user.id, { email: user.email, phone: '+33612345678' });
    const stepped = await steppedUpToken(m, user, access);
    const smsBefore = m.sms.messages.length;
    for (const form of ['+33 6 12 34 56 78', '+33612345678', ' +33 6-12-34-56-78 ']) {
      const r = await post(m, '/phone-numbers', stepped.access, { phone_number: form });
      assert.equal(r.status, 200, JSON.stringify(r.body));
      assert.equal(r.body.status, 'enabled', form);
      assert.equal(r.body.credential.phone_number, '+33612345678');
    }
    assert.equal(m.sms.messages.length, smsBefore);
    assert.equal((await rowsOf(m, user)).filter((c) => c.type === 'sms').length, 1);
    const bad = await post(m, '/phone-numbers', stepped.access, { phone_number: '0612345678' });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.error_message_key, 'error.invalidParameter');
  });

  it("MF-04: another user's trusted device or factor is not found, and stays", async () => {
    const a = await plainToken(m);
    await giveFactors(m.ward, a.user.id, { email: a.user.email, phone: '+33633445566' });
    const stepped = await steppedUpToken(m, a.user, a.access, { trustDevice: true });
    assert.ok(
      stepped.deviceCookie?.includes('HttpOnly') && stepped.deviceCookie.includes('Secure'),
      'the trusted-device cookie',
    );
    const [deviceId] = await devices(m, a.access);
    assert.ok(deviceId);
    const b = await plainToken(m);
    assert.deepEqual(await devices(m, b.access), []);
    const idor = await del(m, `/identity/v1/mfa/trusteddevices/${deviceId}`, bearer(b.access));
    assert.equal(idor.status, 404);
    assert.equal(idor.body.error_message_key, 'error.notFound');
    const phone = await del(m, '/identity/v1/mfa/credentials/phone-numbers', bearer(b.access), {
      phone_number: '+33633445566',
    });
    assert.equal(phone.status, 404);
    assert.deepEqual(await devices(m, a.access), [deviceId]);
    assert.deepEqual(await list(m, a.access), [`email:${a.user.email}`, 'sms:+33633445566']);
    assert.equal((await del(m, `/identity/v1/mfa/trusteddevices/${deviceId}`, bearer(a.access))).status, 204);
    assert.deepEqual(await devices(m, a.access), []);
  });

  it('MF-03: deleting a factor needs a step-up; with one, it revokes every trusted device of the user', async () => {
    const { user, access } = await plainToken(m);
    await giveFactors(m.ward, user.id, { email: user.email, phone: '+33644556677' });
    const first = await steppedUpToken(m, user, access, { trustDevice: true });
    const second = await steppedUpToken(m, user, access, { trustDevice: true });
    assert.equal((await devices(m, access)).length, 2);
    assertStepUpRequired(
      await del(m, '/identity/v1/mfa/credentials/phone-numbers', bearer(access), { phone_number: '+33644556677' }),
      'delete without step-up',
    );
    assertStepUpRequired(
      await del(m, '/identity/v1/mfa/credentials/emails', bearer(access)),
      'delete email without step-up',
    );
    assert.deepEqual(await list(m, access), [`email:${user.email}`, 'sms:+33644556677']);
    assert.equal((await devices(m, access)).length, 2, 'nothing changed');

    const gone = await del(m, '/identity/v1/mfa/credentials/phone-numbers', bearer(second.access), {
      phone_number: '+33 6 44 55 66 77',
    });
    assert.equal(gone.status, 204, JSON.stringify(gone.body));
    assert.deepEqual(await list(m, access), [`email:${user.email}`]);
    assert.deepEqual(await devices(m, access), [], 'trusted devices revoked');
    const rows = await m.ward.registry.db.db
      .selectFrom('trusted_devices')
      .selectAll()
      .where('user_id', '=', user.id)
      .execute();
    assert.equal(rows.length, 2);
    assert.ok(rows.every((d) => d.revoked_at !== null));
    assert.equal((await del(m, '/identity/v1/mfa/credentials/emails', bearer(first.access))).status, 204);
    assert.deepEqual(await list(m, access), []);
  });
});
