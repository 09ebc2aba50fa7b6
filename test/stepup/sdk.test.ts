// The unmodified ReachFive Core SDK through the whole step-up path against Ward (MFA required =
// Always): loginWithPassword answers mfa_required with a step_up token, startPasswordless twice (the
// first code refused), verifyMfaPasswordless, the code exchanged with the PKCE verifier, amr has
// mfa. Also step-up by Bearer access token and by SSO cookie, and the credential calls.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { decodeJwt } from 'jose';
import { codeIn, giveFactors, startMfaWard, type MfaWard } from '../helpers/mfa.js';
import { installBrowserShims, type SdkPage } from '../helpers/sdk-shims.js';
import { signup } from '../helpers/oauth.js';

const ORIGIN = 'https://shop.example';
const CALLBACK = 'https://shop.example/callback';
const SHOP = {
  client_id: 'shop-web',
  name: 'Shop',
  type: 'public',
  jwt_algorithm: 'RS256',
  allowed_callback_urls: [CALLBACK],
  allowed_origins: [ORIGIN],
  sso: true,
};
type Sdk = typeof import('@reachfive/identity-core');

describe('ReachFive Core SDK: step-up MFA against Ward', () => {
  let m: MfaWard;
  let page: SdkPage;
  let sdk: Sdk;
  let client: ReturnType<Sdk['createClient']>;
  before(async () => {
    m = await startMfaWard({
      clients: [SHOP],
      account: {
        mfa_required: 'always',
        rate_limits: { login: { limit: null }, signup: { limit: null }, token: { limit: null } },
      },
    });
    page = installBrowserShims(m.ward, ORIGIN);
    sdk = await import('@reachfive/identity-core');
    client = sdk.createClient({ domain: new URL(m.ward.url).host, clientId: 'shop-web' });
  });
  after(() => m.close());

  async function mfaUser() {
    const user = await signup(m.ward, 'shop-web');
    await giveFactors(m.ward, user.id, { email: user.email, phone: '+33611223344' });
    return user;
  }

  /** loginWithPassword under MFA Always, then the code by email: the SDK's AuthResult. */
  async function loginWithMfa(email: string, password: string) {
    const stepUp = await client.loginWithPassword({ email, password, auth: { redirectUri: CALLBACK } });
    assert.ok(stepUp.stepUpToken, 'loginWithPassword answers the step-up');
    const { challengeId } = await client.startPasswordless({ authType: 'email', stepUp: stepUp.stepUpToken! });
    const code = codeIn((await m.smtp.next(email)).text);
    const verified = await client.verifyMfaPasswordless({ challengeId: challengeId!, verificationCode: code });
    return client.exchangeAuthorizationCodeWithPkce({ code: verified.code!, redirectUri: CALLBACK });
  }

  it('loginWithPassword -> step-up -> two codes (the first refused) -> verify -> PKCE exchange -> amr mfa', async () => {
    const user = await mfaUser();
    const stepUp = await client.loginWithPassword({
      email: user.email,
      password: user.password,
      auth: { redirectUri: CALLBACK },
    });
    assert.ok(stepUp.stepUpToken);
    assert.deepEqual(stepUp.amr, ['email', 'sms']);
    const first = await client.startPasswordless({ authType: 'email', stepUp: stepUp.stepUpToken! });
    const code1 = codeIn((await m.smtp.next(user.email)).text);
    const second = await client.startPasswordless({ authType: 'email', stepUp: stepUp.stepUpToken! });
    const code2 = codeIn((await m.smtp.next(user.email)).text);
    await assert.rejects(
      client.verifyMfaPasswordless({ challengeId: first.challengeId!, verificationCode: code1 }),
      (e: { errorMessageKey?: string }) => e.errorMessageKey === 'error.invalidVerificationCode',
    );
    const verified = await client.verifyMfaPasswordless({ challengeId: second.challengeId!, verificationCode: code2 });
    assert.ok(verified.code);
    const auth = await client.exchangeAuthorizationCodeWithPkce({ code: verified.code!, redirectUri: CALLBACK });
    assert.deepEqual(decodeJwt(auth.idToken!).amr, ['pwd', 'mfa', 'email']);
    assert.equal(auth.idTokenPayload?.email, user.email);
  });

  it('steps up by Bearer access token and by SSO cookie (getMfaStepUpToken), then verifies by SMS', async () => {
    const user = await mfaUser();
    const auth = await loginWithMfa(user.email, user.password);
    const byBearer = await client.getMfaStepUpToken({
      options: { redirectUri: CALLBACK },
      accessToken: auth.accessToken,
    });
    assert.ok(byBearer.token);
    // The step-up above left an SSO cookie in the jar: the SDK sends it (credentials: include).
    const byCookie = await client.getMfaStepUpToken({ options: { redirectUri: CALLBACK } });
    assert.ok(byCookie.token);
    const { challengeId } = await client.startPasswordless({ authType: 'sms', stepUp: byCookie.token });
    const sms = await m.sms.next('+33611223344');
    const verified = await client.verifyMfaPasswordless({
      challengeId: challengeId!,
      verificationCode: codeIn(sms.body),
    });
    const again = await client.exchangeAuthorizationCodeWithPkce({ code: verified.code!, redirectUri: CALLBACK });
    assert.deepEqual(decodeJwt(again.idToken!).amr, ['pwd', 'mfa', 'sms']);
  });

  it('manages credentials: list, register and verify a phone, remove the email', async () => {
    const user = await signup(m.ward, 'shop-web');
    await giveFactors(m.ward, user.id, { email: user.email });
    const auth = await loginWithMfa(user.email, user.password);
    const listed = await client.listMfaCredentials(auth.accessToken!);
    assert.deepEqual(
      listed.credentials.map((c) => c.type),
      ['email'],
    );
    const started = await client.startMfaPhoneNumberRegistration({
      accessToken: auth.accessToken!,
      phoneNumber: '+33 6 55 44 33 22',
    });
    assert.equal(started.status, 'sms_sent');
    const sms = await m.sms.next('+33655443322');
    await client.verifyMfaPhoneNumberRegistration({
      accessToken: auth.accessToken!,
      verificationCode: codeIn(sms.body),
    });
    const after2 = await client.listMfaCredentials(auth.accessToken!);
    assert.deepEqual(after2.credentials.map((c) => c.type).sort(), ['email', 'sms']);
    await client.removeMfaEmail({ accessToken: auth.accessToken! });
    assert.deepEqual(
      (await client.listMfaCredentials(auth.accessToken!)).credentials.map((c) => c.type),
      ['sms'],
    );
    assert.equal(page.navigations.length >= 0, true);
  });
});
