// Step-up MFA with the unmodified Core SDK's browser build in headless Chromium, in an app on
// Ward's site (https://app.ward.test and https://id.ward.test, mapped to loopback; test/helpers/sdk-app.ts).
// What the Node tests with shims (sdk.test.ts) cannot show: the browser's own CORS preflights for
// the SDK's JSON calls, and the SSO cookie that /passwordless/verify sets on a credentialed
// cross-origin response being kept and sent back, so a later getMfaStepUpToken works by cookie.
// MFA required = Always; the codes travel through a real SMTP server on loopback.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { decodeJwt } from 'jose';
import { launchChromium, type Chromium } from '../helpers/chromium.js';
import { codeIn, giveFactors, startMfaWard, type MfaWard } from '../helpers/mfa.js';
import { signup } from '../helpers/oauth.js';
import { openSdkApp, sdkCall as call, startSdkApp, type SdkApp } from '../helpers/sdk-app.js';

describe('Core SDK step-up MFA in Chromium', { timeout: 120_000 }, () => {
  let m: MfaWard;
  let app: SdkApp;
  let chromium: Chromium;
  before(async () => {
    app = await startSdkApp({ host: 'app.ward.test' });
    m = await startMfaWard({ clients: [app.client()], account: { mfa_required: 'always' } });
    app.wardUrl = m.ward.url.replace('localhost', 'id.ward.test');
    chromium = await launchChromium({ loopbackHosts: ['app.ward.test', 'id.ward.test'] });
  });
  after(async () => {
    await chromium?.close();
    await m?.close();
    await app?.close();
  });

  it('password, then a code by email (the first one superseded), then a step-up again by the SSO cookie alone', async () => {
    const user = await signup(m.ward, app.clientId);
    await giveFactors(m.ward, user.id, { email: user.email });
    const page = await openSdkApp(chromium.context, app);
    const redirectUri = `${app.origin}/cb`;

    const login = await call(page, 'loginWithPassword', {
      email: user.email,
      password: user.password,
      auth: { redirectUri },
    });
    assert.ok(login.ok?.stepUpToken, JSON.stringify(login));
    assert.deepEqual(login.ok.amr, ['email']);
    const first = await call(page, 'startPasswordless', { authType: 'email', stepUp: login.ok.stepUpToken });
    const code1 = codeIn((await m.smtp.next(user.email)).text);
    const second = await call(page, 'startPasswordless', { authType: 'email', stepUp: login.ok.stepUpToken });
    const code2 = codeIn((await m.smtp.next(user.email)).text);
    const stale = await call(page, 'verifyMfaPasswordless', {
      challengeId: first.ok!.challengeId,
      verificationCode: code1,
    });
    assert.equal(stale.failed?.errorMessageKey, 'error.invalidVerificationCode', 'a new code ends the one before');
    const verified = await call(page, 'verifyMfaPasswordless', {
      challengeId: second.ok!.challengeId,
      verificationCode: code2,
    });
    assert.ok(verified.ok?.code, JSON.stringify(verified));
    const auth = await call(page, 'exchangeAuthorizationCodeWithPkce', { code: verified.ok.code, redirectUri });
    assert.deepEqual(decodeJwt(auth.ok!.idToken).amr, ['pwd', 'mfa', 'email']);
    assert.ok(
      (await chromium.context.cookies(app.wardUrl)).some((c) => c.name === '__Host-ward_sso'),
      'the SSO cookie from the cross-origin verify response was kept',
    );

    // Nothing but the cookie now: the SDK sends it with credentials: include.
    const byCookie = await call(page, 'getMfaStepUpToken', { options: { redirectUri } });
    assert.ok(byCookie.ok?.token, JSON.stringify(byCookie));
    const challenge = await call(page, 'startPasswordless', { authType: 'email', stepUp: byCookie.ok.token });
    const code3 = codeIn((await m.smtp.next(user.email)).text);
    const again = await call(page, 'verifyMfaPasswordless', {
      challengeId: challenge.ok!.challengeId,
      verificationCode: code3,
    });
    const second2 = await call(page, 'exchangeAuthorizationCodeWithPkce', { code: again.ok!.code, redirectUri });
    assert.equal(decodeJwt(second2.ok!.idToken).email, user.email);
    await page.close();
  });
});
