// Step-up MFA through the HTTP API: MFA required = Always turns a password login into
// {tkn, mfa_required}; /mfa/stepup by tkn binds the authorization request; /passwordless/start
// sends a code (read from the real SMTP / SMS sink), again on retry (the first code dies);
// /passwordless/verify answers a code that redeems with the PKCE verifier into tokens whose amr
// has mfa and the factor. SU-01..SU-05, PK-12, PL-07.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { decodeJwt } from 'jose';
import { codeIn, giveFactors, postJson, startMfaWard, type MfaWard } from '../helpers/mfa.js';
import { PUBLIC_CLIENT, authorizeUrl, location, pkcePair, redeem, signup } from '../helpers/oauth.js';

const OPEN = { rate_limits: { login: { limit: null }, signup: { limit: null }, token: { limit: null } } };

describe('step-up MFA: API', () => {
  let m: MfaWard;
  before(async () => {
    m = await startMfaWard({ clients: [PUBLIC_CLIENT], account: { ...OPEN, mfa_required: 'always' } });
  });
  after(() => m.close());

  async function mfaUser(phone?: string) {
    const user = await signup(m.ward);
    await giveFactors(m.ward, user.id, { email: user.email, ...(phone ? { phone } : {}) });
    return user;
  }
  const login = (email: string, password: string) =>
    postJson(m.ward, '/identity/v1/password/login', {
      client_id: 'spa',
      scope: 'openid profile email',
      email,
      password,
    });
  const stepUpBody = (extra: Record<string, unknown>, challenge: string) => ({
    client_id: 'spa',
    response_type: 'code',
    redirect_uri: 'https://app.example/cb',
    scope: 'openid email',
    state: 'st-9',
    nonce: 'n-9',
    code_challenge: challenge,
    code_challenge_method: 'S256',
    ...extra,
  });

  it('runs the whole retry flow: login, step-up by tkn, two codes (the first refused), verify, token with amr mfa', async () => {
    const user = await mfaUser();
    const l = await login(user.email, user.password);
    assert.equal(l.status, 200);
    assert.equal(l.body.mfa_required, true);
    // That tkn is good for the step-up only, never for /oauth/authorize.
    const pkce = pkcePair();
    const direct = await m.ward.fetch(
      authorizeUrl({
        client_id: 'spa',
        response_type: 'code',
        redirect_uri: 'https://app.example/cb',
        scope: 'openid',
        tkn: l.body.tkn,
        code_challenge: pkce.challenge,
        code_challenge_method: 'S256',
      }),
    );
    assert.equal(location(direct).searchParams.get('error'), 'access_denied');

    const l2 = await login(user.email, user.password);
    const s = await postJson(m.ward, '/identity/v1/mfa/stepup', stepUpBody({ tkn: l2.body.tkn }, pkce.challenge));
    assert.equal(s.status, 200, JSON.stringify(s.body));
    assert.deepEqual(s.body.amr, ['email']);
    const token = s.body.token as string;

    const first = await postJson(m.ward, '/identity/v1/passwordless/start', { auth_type: 'email', step_up: token });
    assert.equal(first.status, 200);
    const code1 = codeIn((await m.smtp.next(user.email)).text);
    const second = await postJson(m.ward, '/identity/v1/passwordless/start', { auth_type: 'email', step_up: token });
    assert.notEqual(second.body.challenge_id, first.body.challenge_id);
    const code2 = codeIn((await m.smtp.next(user.email)).text);

    const stale = await postJson(m.ward, '/identity/v1/passwordless/verify', {
      challenge_id: first.body.challenge_id,
      verification_code: code1,
    });
    assert.equal(stale.status, 400);
    assert.equal(stale.body.error_message_key, 'error.invalidVerificationCode');
    const ok = await postJson(m.ward, '/identity/v1/passwordless/verify', {
      challenge_id: second.body.challenge_id,
      verification_code: code2,
    });
    assert.equal(ok.status, 200, JSON.stringify(ok.body));
    assert.equal(ok.body.state, 'st-9');
    assert.ok(
      ok.headers.getSetCookie().some((c) => c.startsWith('__Host-ward_sso=')),
      'a step-up session',
    );

    // PK-12: the code needs the verifier bound at step-up.
    const wrong = await redeem(m.ward, ok.body.code, pkcePair().verifier);
    assert.equal(wrong.body.error, 'invalid_grant');
    const again = await postJson(m.ward, '/identity/v1/passwordless/verify', {
      challenge_id: second.body.challenge_id,
      verification_code: code2,
    });
    assert.equal(again.status, 400, 'the challenge and the step_up token are used up');
  });

  it('redeems the verified code for tokens whose amr has pwd, mfa and the factor; the nonce is kept', async () => {
    const user = await mfaUser('+33612345678');
    const l = await login(user.email, user.password);
    const pkce = pkcePair();
    const s = await postJson(m.ward, '/identity/v1/mfa/stepup', stepUpBody({ tkn: l.body.tkn }, pkce.challenge));
    assert.deepEqual(s.body.amr, ['email', 'sms']);
    const start = await postJson(m.ward, '/identity/v1/passwordless/start', {
      auth_type: 'sms',
      step_up: s.body.token,
    });
    const sms = await m.sms.next('+33612345678');
    const v = await postJson(m.ward, '/identity/v1/passwordless/verify', {
      challenge_id: start.body.challenge_id,
      verification_code: codeIn(sms.body),
      trust_device: false,
    });
    const { res, body } = await redeem(m.ward, v.body.code, pkce.verifier);
    assert.equal(res.status, 200);
    const claims = decodeJwt(body.id_token!);
    assert.deepEqual(claims.amr, ['pwd', 'mfa', 'sms']);
    assert.equal(claims.nonce, 'n-9');
    assert.equal(claims.sub, user.id);
  });

  it('refuses a step-up without credentials, with a used or foreign tkn, and for a user without factors (SU-01, SU-03)', async () => {
    const pkce = pkcePair();
    const none = await postJson(m.ward, '/identity/v1/mfa/stepup', stepUpBody({}, pkce.challenge));
    assert.equal(none.status, 401);
    assert.ok(none.body.error_message_key);
    const user = await mfaUser();
    const l = await login(user.email, user.password);
    assert.equal(
      (await postJson(m.ward, '/identity/v1/mfa/stepup', stepUpBody({ tkn: l.body.tkn }, pkce.challenge))).status,
      200,
    );
    assert.equal(
      (await postJson(m.ward, '/identity/v1/mfa/stepup', stepUpBody({ tkn: l.body.tkn }, pkce.challenge))).status,
      401,
      'a tkn is single use',
    );
    m.ward.clock.advance(121_000);
    const late = await login(user.email, user.password);
    m.ward.clock.advance(121_000);
    assert.equal(
      (await postJson(m.ward, '/identity/v1/mfa/stepup', stepUpBody({ tkn: late.body.tkn }, pkce.challenge))).status,
      401,
      'expired tkn',
    );
    const plain = await signup(m.ward);
    const pl = await login(plain.email, plain.password);
    assert.equal(pl.body.mfa_required, undefined, 'no factors: no step-up at login');
    const noFactor = await postJson(
      m.ward,
      '/identity/v1/mfa/stepup',
      stepUpBody({ tkn: pl.body.tkn }, pkce.challenge),
    );
    assert.equal(noFactor.status, 400);
    assert.equal(noFactor.body.error_message_key, 'error.mfa.noCredential');
  });

  it('sends a code only to the registered factor, whatever the request names (SU-05)', async () => {
    const user = await mfaUser();
    const l = await login(user.email, user.password);
    const s = await postJson(m.ward, '/identity/v1/mfa/stepup', stepUpBody({ tkn: l.body.tkn }, pkcePair().challenge));
    const before = m.smtp.messages.length;
    const smsBefore = m.sms.messages.length;
    const r1 = await postJson(m.ward, '/identity/v1/passwordless/start', {
      auth_type: 'email',
      step_up: s.body.token,
      email: 'attacker@evil.example',
      phone_number: '+15551234567',
    });
    assert.equal(r1.status, 200);
    const sent = m.smtp.messages.slice(before);
    assert.deepEqual(
      sent.map((x) => x.to),
      [user.email],
    );
    const r2 = await postJson(m.ward, '/identity/v1/passwordless/start', {
      auth_type: 'sms',
      step_up: s.body.token,
      phone_number: '+15551234567',
    });
    assert.equal(r2.status, 400, 'no sms factor registered');
    assert.equal(m.sms.messages.length, smsBefore);
  });

  it('accepts the SSO cookie only from an allowed origin, and a Bearer token; never two users at once (SS-03, SV-11)', async () => {
    const { Browser } = await import('../helpers/browser.js');
    const a = await mfaUser();
    const b = await mfaUser();
    // A session for b: the full step-up, in a browser.
    const browser = new Browser(m.ward);
    const l = await login(b.email, b.password);
    const pkce = pkcePair();
    const s = await browser.postJson('/identity/v1/mfa/stepup', stepUpBody({ tkn: l.body.tkn }, pkce.challenge));
    const st = (await (
      await browser.postJson('/identity/v1/passwordless/start', {
        auth_type: 'email',
        step_up: ((await s.json()) as { token: string }).token,
      })
    ).json()) as { challenge_id: string };
    const v = await browser.postJson('/identity/v1/passwordless/verify', {
      challenge_id: st.challenge_id,
      verification_code: codeIn((await m.smtp.next(b.email)).text),
    });
    const { body: tokens } = await redeem(m.ward, ((await v.json()) as { code: string }).code, pkce.verifier);

    const before = m.smtp.messages.length;
    const foreign = await browser.postJson('/identity/v1/mfa/stepup', stepUpBody({}, pkcePair().challenge), {
      origin: 'https://evil.example',
    });
    assert.equal(foreign.status, 403);
    const ok = await browser.postJson('/identity/v1/mfa/stepup', stepUpBody({}, pkcePair().challenge), {
      origin: 'https://app.example',
    });
    assert.equal(ok.status, 200);
    assert.equal(m.smtp.messages.length, before, 'nothing sent by a step-up alone');

    const bearer = await postJson(m.ward, '/identity/v1/mfa/stepup', stepUpBody({}, pkcePair().challenge), {
      authorization: `Bearer ${tokens.access_token}`,
    });
    assert.equal(bearer.status, 200);
    const la = await login(a.email, a.password);
    const mixed = await postJson(
      m.ward,
      '/identity/v1/mfa/stepup',
      stepUpBody({ tkn: la.body.tkn }, pkcePair().challenge),
      { authorization: `Bearer ${tokens.access_token}` },
    );
    assert.equal(mixed.status, 401, 'the tkn of a and the token of b');
    m.ward.setAccount({ step_up_bearer_allowed: false });
    const off = await postJson(m.ward, '/identity/v1/mfa/stepup', stepUpBody({}, pkcePair().challenge), {
      authorization: `Bearer ${tokens.access_token}`,
    });
    assert.equal(off.status, 401);
    m.ward.setAccount({ step_up_bearer_allowed: true });
    const forged = await postJson(m.ward, '/identity/v1/mfa/stepup', stepUpBody({}, pkcePair().challenge), {
      authorization: 'Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.',
    });
    assert.equal(forged.status, 401, 'SV-03 / SV-01: a JWT is no access token');
  });

  it('answers a clear 503 when the code cannot be delivered, and the challenge stays dead (no valid code nobody got)', async () => {
    const user = await mfaUser('+33699999999');
    const l = await login(user.email, user.password);
    const s = await postJson(m.ward, '/identity/v1/mfa/stepup', stepUpBody({ tkn: l.body.tkn }, pkcePair().challenge));
    m.sms.failNext(500);
    const failed = await postJson(m.ward, '/identity/v1/passwordless/start', {
      auth_type: 'sms',
      step_up: s.body.token,
    });
    assert.equal(failed.status, 503);
    assert.equal(failed.body.error_message_key, 'error.delivery.failed');
    const retry = await postJson(m.ward, '/identity/v1/passwordless/start', {
      auth_type: 'sms',
      step_up: s.body.token,
    });
    assert.equal(retry.status, 200);
    const v = await postJson(m.ward, '/identity/v1/passwordless/verify', {
      challenge_id: retry.body.challenge_id,
      verification_code: codeIn((await m.sms.next('+33699999999')).body),
    });
    assert.equal(v.status, 200);
  });
});
