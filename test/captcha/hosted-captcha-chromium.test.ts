// Captcha on the hosted login page in headless Chromium: the widget's script (the simulator's stand-in
// for the provider's, loaded from its own origin) runs under the page's CSP, puts its token in the
// form, and the sign-in reaches the client's callback; the siteverify simulator saw that token.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startCaptchaSim, type CaptchaSim } from '../helpers/captcha-sim.js';
import { launchChromium, type Chromium } from '../helpers/chromium.js';
import { startMfaWard, type MfaWard } from '../helpers/mfa.js';
import { pkcePair, signup } from '../helpers/oauth.js';

const CB = 'https://app.example/cb';

describe('captcha on the hosted login page in Chromium', { timeout: 120_000 }, () => {
  let w: MfaWard;
  let sim: CaptchaSim;
  let chromium: Chromium;
  before(async () => {
    sim = await startCaptchaSim();
    w = await startMfaWard({
      issuerHost: 'id.ward.test',
      clients: [{ client_id: 'spa', name: 'Boutique', type: 'public', allowed_callback_urls: [CB] }],
      env: { WARD_CAPTCHA_SECRET: sim.secret },
      account: {
        captcha: { provider: 'turnstile', site_key: 'site-key-2', verify_url: sim.url, script_url: sim.scriptUrl },
      },
    });
    chromium = await launchChromium({ loopbackHosts: ['id.ward.test'] });
  });
  after(async () => {
    await chromium?.close();
    await w?.close();
    await sim?.close();
  });

  it("signs in with the widget's token, the script let in by the CSP and nothing else refused", async () => {
    const user = await signup(w.ward, 'spa', {}, { captcha_token: sim.issue() });
    const page = await chromium.context.newPage();
    const problems: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(m.text());
    });
    page.on('pageerror', (e) => problems.push(e.message));
    await page.goto(
      `${w.ward.issuer}/oauth/authorize?${new URLSearchParams({
        client_id: 'spa',
        response_type: 'code',
        redirect_uri: CB,
        scope: 'openid email',
        code_challenge: pkcePair().challenge,
        code_challenge_method: 'S256',
      })}`,
    );
    // The stand-in marks each widget it drew, and the token is in the password form.
    await page.locator('#email ~ .cf-turnstile[data-rendered="yes"]').waitFor({ state: 'attached' });
    const token = await page.locator('form:has(#password) input[name="cf-turnstile-response"]').inputValue();
    assert.match(token, /^tok_/);
    await page.locator('#email').fill(user.email);
    await page.locator('#password').fill(user.password);
    const [request] = await Promise.all([
      page.waitForRequest((r) => r.url().startsWith(CB)),
      page.getByRole('button', { name: 'Sign in', exact: true }).click(),
    ]);
    assert.match(request.url(), /[?&]code=/);
    assert.ok(
      sim.requests.some((r) => r.response === token && r.secretOk),
      'Ward verified the token the widget gave',
    );
    assert.deepEqual(problems, []);
  });
});
