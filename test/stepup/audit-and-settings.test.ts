// Every step-up step is an audit event (started, code sent, verify failed, verified, limit reached),
// read back through the management API; and the verification limits changed at run time through
// the management API (PATCH /api/v1/settings/account) apply at once.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CONSOLE_CLIENT, api, consoleToken } from '../helpers/management.js';
import { codeIn, giveFactors, postJson, startMfaWard, type MfaWard } from '../helpers/mfa.js';
import { PUBLIC_CLIENT, pkcePair, signup } from '../helpers/oauth.js';

describe('step-up: audit events and limits set through the management API', () => {
  let m: MfaWard;
  let admin: ReturnType<typeof api>;
  before(async () => {
    m = await startMfaWard({
      clients: [PUBLIC_CLIENT, CONSOLE_CLIENT],
      account: {
        mfa_required: 'always',
        rate_limits: { login: { limit: null }, signup: { limit: null }, token: { limit: null } },
      },
    });
    admin = api(m.ward, (await consoleToken(m.ward, 'manager')).token);
  });
  after(() => m.close());

  async function stepUp() {
    const user = await signup(m.ward);
    await giveFactors(m.ward, user.id, { email: user.email });
    const login = await postJson(m.ward, '/identity/v1/password/login', {
      client_id: 'spa',
      scope: 'openid',
      email: user.email,
      password: user.password,
    });
    const s = await postJson(m.ward, '/identity/v1/mfa/stepup', {
      client_id: 'spa',
      response_type: 'code',
      redirect_uri: 'https://app.example/cb',
      scope: 'openid',
      code_challenge: pkcePair().challenge,
      code_challenge_method: 'S256',
      tkn: login.body.tkn,
    });
    return { user, token: s.body.token as string };
  }

  it('writes each step to the audit log', async () => {
    const { user, token } = await stepUp();
    const start = await postJson(m.ward, '/identity/v1/passwordless/start', { auth_type: 'email', step_up: token });
    const code = codeIn((await m.smtp.next(user.email)).text);
    await postJson(m.ward, '/identity/v1/passwordless/verify', {
      challenge_id: start.body.challenge_id,
      verification_code: code === '000000' ? '111111' : '000000',
    });
    assert.equal(
      (
        await postJson(m.ward, '/identity/v1/passwordless/verify', {
          challenge_id: start.body.challenge_id,
          verification_code: code,
        })
      ).status,
      200,
    );
    const events = (await admin.get(`/api/v1/audit?actor=${user.id}&limit=50`)).body.events as Array<{
      action: string;
      outcome: string;
      target: string | null;
      details: Record<string, unknown>;
    }>;
    const actions = events.map((e) => `${e.action}:${e.outcome}`).reverse();
    for (const expected of [
      'mfa.stepup_started:success',
      'mfa.code_sent:success',
      'mfa.verification_failed:failed',
      'mfa.verified:success',
      'mfa.stepup_verified:success',
    ]) {
      assert.ok(actions.includes(expected), `${expected} in ${actions.join(', ')}`);
    }
    assert.ok(
      events.every((e) => !JSON.stringify(e).includes(code)),
      'no code in the audit log',
    );
  });

  it('applies a per-step_up limit changed through the management API, and audits the refusal', async () => {
    const changed = await admin.patch('/api/v1/settings/account', { verification_requests_per_step_up: 2 });
    assert.equal(changed.status, 200);
    const { user, token } = await stepUp();
    assert.equal(
      (await postJson(m.ward, '/identity/v1/passwordless/start', { auth_type: 'email', step_up: token })).status,
      200,
    );
    assert.equal(
      (await postJson(m.ward, '/identity/v1/passwordless/start', { auth_type: 'email', step_up: token })).status,
      200,
    );
    const before = m.smtp.messages.length;
    const third = await postJson(m.ward, '/identity/v1/passwordless/start', { auth_type: 'email', step_up: token });
    assert.equal(third.status, 429);
    assert.ok(Number(third.headers.get('retry-after')) >= 1);
    assert.equal(m.smtp.messages.length, before, 'nothing sent past the limit');
    const events = (await admin.get(`/api/v1/audit?actor=${user.id}&action=mfa.limit_reached`)).body.events as Array<{
      outcome: string;
    }>;
    assert.equal(events.length, 1);
    assert.equal(events[0]!.outcome, 'denied');
    await admin.patch('/api/v1/settings/account', { verification_requests_per_step_up: 5 });
  });
});

describe('step-up: per-IP limit on both ends of the code (PL-09, PL-10)', () => {
  let m: MfaWard;
  before(async () => {
    m = await startMfaWard({
      clients: [PUBLIC_CLIENT],
      account: {
        mfa_required: 'always',
        rate_limits: {
          login: { limit: null },
          signup: { limit: null },
          token: { limit: null },
          verification: { limit: 3, window_seconds: 60 },
        },
      },
    });
  });
  after(() => m.close());

  it('answers 429 past the per-IP limit on start and on verify, with nothing sent', async () => {
    m.ward.clock.advance(60_000 - (m.ward.clock.now() % 60_000) + 1);
    const user = await signup(m.ward);
    await giveFactors(m.ward, user.id, { email: user.email });
    const login = await postJson(m.ward, '/identity/v1/password/login', {
      client_id: 'spa',
      scope: 'openid',
      email: user.email,
      password: user.password,
    });
    const s = await postJson(m.ward, '/identity/v1/mfa/stepup', {
      client_id: 'spa',
      response_type: 'code',
      redirect_uri: 'https://app.example/cb',
      scope: 'openid',
      code_challenge: pkcePair().challenge,
      code_challenge_method: 'S256',
      tkn: login.body.tkn,
    });
    const start = await postJson(m.ward, '/identity/v1/passwordless/start', {
      auth_type: 'email',
      step_up: s.body.token,
    });
    assert.equal(start.status, 200);
    assert.equal(
      (
        await postJson(m.ward, '/identity/v1/passwordless/verify', {
          challenge_id: start.body.challenge_id,
          verification_code: '000000',
        })
      ).status,
      400,
    );
    assert.equal(
      (
        await postJson(m.ward, '/identity/v1/passwordless/verify', {
          challenge_id: start.body.challenge_id,
          verification_code: '000001',
        })
      ).status,
      400,
    );
    const limited = await postJson(m.ward, '/identity/v1/passwordless/verify', {
      challenge_id: start.body.challenge_id,
      verification_code: '000002',
    });
    assert.equal(limited.status, 429);
    const sent = m.smtp.messages.length;
    assert.equal(
      (await postJson(m.ward, '/identity/v1/passwordless/start', { auth_type: 'email', step_up: s.body.token })).status,
      429,
    );
    assert.equal(m.smtp.messages.length, sent);
  });
});
