// The hosted login page under MFA required = Always: after the password a code page (a code sent
// to the registered factor), a resend that kills the previous code, a wrong code answered on the
// page, and only the right code ends in the client's redirect with a code whose tokens carry mfa.
// SU-06: a password-only session never satisfies the step-up.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { decodeJwt } from 'jose';
import { Browser } from '../helpers/browser.js';
import { codeIn, giveFactors, postJson, startMfaWard, type MfaWard } from '../helpers/mfa.js';
import { PUBLIC_CLIENT, authorizeUrl, location, pkcePair, redeem, signup } from '../helpers/oauth.js';
import { pageField } from '../helpers/hosted-login.js';

const field = pageField;

describe('hosted login page with MFA required = Always', () => {
  let m: MfaWard;
  before(async () => {
    m = await startMfaWard({
      clients: [PUBLIC_CLIENT],
      account: {
        mfa_required: 'always',
        rate_limits: { login: { limit: null }, signup: { limit: null }, token: { limit: null } },
      },
    });
  });
  after(() => m.close());

  /** A new browser's sign-in on the hosted login page, up to the answer to the password. */
  async function passwordOnLoginPage(user: { email: string; password: string }, state?: string) {
    const pkce = pkcePair();
    const browser = new Browser(m.ward);
    const loginPage = await browser.get(
      authorizeUrl({
        client_id: 'spa',
        response_type: 'code',
        redirect_uri: 'https://app.example/cb',
        scope: 'openid',
        ...(state ? { state } : {}),
        code_challenge: pkce.challenge,
        code_challenge_method: 'S256',
      }),
    );
    const html = await loginPage.text();
    const afterPassword = await browser.postForm('/oauth/authorize/login', {
      interaction: field(html, 'interaction'),
      csrf: field(html, 'csrf'),
      email: user.email,
      password: user.password,
    });
    return { browser, pkce, afterPassword };
  }

  it('asks for the code after the password; resend kills the old code; the right code ends the login with amr mfa', async () => {
    const user = await signup(m.ward);
    await giveFactors(m.ward, user.id, { email: user.email, phone: '+33677889900' });
    const { browser, pkce, afterPassword } = await passwordOnLoginPage(user, 'hs');
    assert.equal(afterPassword.status, 200, 'no redirect on a password alone');
    const mfaHtml = await afterPassword.text();
    assert.match(mfaHtml, /Verify it is you/);
    assert.match(afterPassword.headers.get('content-security-policy')!, /frame-ancestors 'none'/);
    const code1 = codeIn((await m.smtp.next(user.email)).text);

    const resent = await browser.postForm('/oauth/authorize/mfa', {
      interaction: field(mfaHtml, 'interaction'),
      csrf: field(mfaHtml, 'csrf'),
      step_up: field(mfaHtml, 'step_up'),
      auth_type: 'sms',
      action: 'resend',
    });
    const resentHtml = await resent.text();
    assert.match(resentHtml, /A new code was sent/);
    const sms = codeIn((await m.sms.next('+33677889900')).body);
    const form = (code: string) => ({
      interaction: field(resentHtml, 'interaction'),
      csrf: field(resentHtml, 'csrf'),
      step_up: field(resentHtml, 'step_up'),
      challenge_id: field(resentHtml, 'challenge_id'),
      auth_type: 'sms',
      verification_code: code,
      action: 'verify',
    });

    const old = await browser.postForm('/oauth/authorize/mfa', {
      ...form(code1),
      challenge_id: field(mfaHtml, 'challenge_id'),
    });
    assert.equal(old.status, 401, 'the first code died with the resend');
    assert.match(await old.text(), /wrong or has expired/);
    const ok = await browser.postForm('/oauth/authorize/mfa', form(sms));
    assert.equal(ok.status, 303);
    const cb = location(ok);
    assert.equal(cb.searchParams.get('state'), 'hs');
    const { body } = await redeem(m.ward, cb.searchParams.get('code')!, pkce.verifier);
    assert.deepEqual(decodeJwt(body.id_token!).amr, ['pwd', 'mfa', 'sms']);

    // The session it made carries mfa: the next authorization goes straight through.
    const next = pkcePair();
    const sso = await browser.get(
      authorizeUrl({
        client_id: 'spa',
        response_type: 'code',
        redirect_uri: 'https://app.example/cb',
        scope: 'openid',
        code_challenge: next.challenge,
        code_challenge_method: 'S256',
      }),
    );
    assert.equal(sso.status, 302);
  });

  it("does not finish a hosted sign-in's step-up at the JSON API: its code there gets no code or token", async () => {
    const user = await signup(m.ward);
    await giveFactors(m.ward, user.id, { email: user.email });
    const mfaHtml = await (await passwordOnLoginPage(user)).afterPassword.text();
    const code = codeIn((await m.smtp.next(user.email)).text);
    const json = await postJson(m.ward, '/identity/v1/passwordless/verify', {
      challenge_id: field(mfaHtml, 'challenge_id'),
      verification_code: code,
    });
    assert.equal(json.status, 400);
    const { body } = json;
    assert.equal(body.error_message_key, 'error.mfa.invalidStepUp');
    assert.equal(body.code, undefined);
    assert.equal(body.access_token, undefined);
  });

  it('does not let a password-only session through once the account requires MFA (SU-06)', async () => {
    m.ward.setAccount({ mfa_required: 'never' });
    const user = await signup(m.ward);
    await giveFactors(m.ward, user.id, { email: user.email });
    const browser = new Browser(m.ward);
    const { challenge } = pkcePair();
    const q = {
      client_id: 'spa',
      response_type: 'code',
      redirect_uri: 'https://app.example/cb',
      scope: 'openid',
      code_challenge: challenge,
      code_challenge_method: 'S256',
    };
    const page = await browser.get(authorizeUrl(q));
    const html = await page.text();
    const done = await browser.postForm('/oauth/authorize/login', {
      interaction: field(html, 'interaction'),
      csrf: field(html, 'csrf'),
      email: user.email,
      password: user.password,
    });
    assert.equal(done.status, 303, 'MFA Never: the password is enough');
    m.ward.setAccount({ mfa_required: 'always' });
    const again = await browser.get(authorizeUrl(q));
    assert.equal(again.status, 200, 'the password-only session no longer answers: the login page');
    const none = await browser.get(authorizeUrl({ ...q, prompt: 'none' }));
    assert.equal(location(none).searchParams.get('error'), 'login_required');
  });
});
